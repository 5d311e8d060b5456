import assert from 'node:assert/strict';
import { z } from 'zod';
import { Trace, TRACE_SCHEMA_VERSION } from '../../../src/core/trace/model';
import { fastParser } from '../../../src/core/util/fastParse';

const Block = z.looseObject({ type: z.string(), text: z.string().optional() });
const Record = z.object({
  type: z.string(),
  uuid: z.string().optional(),
  isMeta: z.boolean().optional(),
  count: z.number().optional(),
  kind: z.literal(['a', 'b']).optional(),
  parent: z.string().nullable().optional(),
  message: z
    .object({ role: z.string().optional(), content: z.union([z.string(), z.array(z.unknown())]).optional() })
    .optional(),
  blocks: z.array(Block).optional(),
  extra: z.unknown().optional(),
});

/** Every field of `base` replaced in turn by values of other types, plus whole values of other types. */
function variants(base: Record<string, unknown>): unknown[] {
  const others: unknown[] = [
    undefined,
    null,
    0,
    1.5,
    Number.NaN,
    '',
    'x',
    true,
    false,
    [],
    [1, 'a'],
    {},
    { type: 'text' },
    [{ type: 'text', text: 1 }],
    [{ type: 'text', text: 'hi', more: 1 }],
  ];
  const out: unknown[] = [base, null, undefined, 'line', 42, [], [base]];
  for (const key of Object.keys(base)) {
    for (const other of others) out.push({ ...base, [key]: other });
  }
  for (const other of others) out.push({ ...base, message: { role: 'user', content: other } });
  return out;
}

describe('fastParser', () => {
  it('accepts exactly what zod accepts, returning the value itself (unknown keys left on it) instead of a copy', () => {
    const parse = fastParser(Record);
    const base = {
      type: 'user',
      uuid: 'u1',
      isMeta: false,
      count: 3,
      kind: 'a',
      parent: null,
      message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      blocks: [{ type: 'text', text: 'a', cache: true }],
      extra: { anything: [1] },
      notInSchema: 'kept',
    };
    let accepted = 0;
    for (const value of variants(base)) {
      const fast = parse(value);
      const slow = Record.safeParse(value);
      assert.equal(fast.success, slow.success, `same verdict for ${JSON.stringify(value)}`);
      if (!fast.success || !slow.success) continue;
      accepted++;
      assert.equal(fast.data, value, 'the value itself');
    }
    assert.ok(accepted > 20, `${accepted} variants accepted`);
  });

  it('gives the same verdict as zod on the stored trace model: bounds, enums, records, steps by kind', () => {
    const parse = fastParser(Trace);
    const step = (kind: string, extra: object) => ({ kind, index: 0, ...extra });
    const base = {
      schemaVersion: TRACE_SCHEMA_VERSION,
      id: 'codex:a',
      agent: 'codex',
      source: { path: '/a', bytes: 10 },
      steps: [
        step('user', { text: 'hi' }),
        step('tool_call', { callId: 'c', tool: 'Bash', input: '{}' }),
        step('tool_result', { callId: 'c', output: 'ok', isError: false, exitCode: 0 }),
      ],
      outcome: { toolErrors: 0, testRuns: { passed: 0, failed: 0 }, userCorrections: 0, interrupted: false },
      unknown: { 'user-block:x': 2 },
      warnings: [],
      redactions: 0,
    };
    const mutants: unknown[] = [base];
    for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 2, '3', null]) {
      mutants.push(
        { ...base, redactions: bad },
        { ...base, unknown: { x: bad } },
        { ...base, source: { path: '/a', bytes: bad } },
      );
      mutants.push(
        { ...base, steps: [{ ...base.steps[2], exitCode: bad }] },
        { ...base, steps: [{ ...base.steps[0], index: bad }] },
      );
    }
    mutants.push(
      { ...base, agent: 'nobody' },
      { ...base, steps: [step('telepathy', { text: 'x' })] },
      { ...base, steps: [step('user', { output: 'x' })] },
    );
    mutants.push({ ...base, unknown: [] }, { ...base, unknown: { a: 1, b: 2 } }, { ...base, schemaVersion: 99 });
    let accepted = 0;
    for (const value of mutants) {
      const fast = parse(value);
      assert.equal(fast.success, Trace.safeParse(value).success, JSON.stringify(value));
      if (fast.success) accepted++;
    }
    assert.equal(accepted, 4, 'the base, a negative exit code, a negative unknown count and a bigger unknown record');
  });

  it('leaves to zod what it cannot check alone: refinements, transforms, strict objects', () => {
    const refined = z.object({ name: z.string().min(3) });
    const strict = z.strictObject({ a: z.string() });
    const transformed = z.object({ n: z.string().transform((s) => s.length) });
    assert.equal(fastParser(refined)({ name: 'ab' }).success, false);
    assert.equal(fastParser(strict)({ a: 'x', b: 1 }).success, false);
    const length = fastParser(transformed)({ n: 'abc' });
    assert.deepEqual(length.success && length.data, { n: 3 }, 'the transform ran: zod parsed it');
    const failed = fastParser(Record)({ type: 7 });
    assert.equal(failed.success, false);
    assert.match(failed.success ? '' : failed.error.issues[0].message, /string/, "zod's own message");
  });

  it('checks fixed-length tuples and their unions as zod does (the pack index entries, with and without a summary)', () => {
    const Entry = z.union([
      z.tuple([z.string(), z.number().int().nonnegative()]),
      z.tuple([z.string(), z.number().int().nonnegative(), z.object({ title: z.string().optional() })]),
    ]);
    const List = z.array(Entry);
    const parse = fastParser(List);
    const values: unknown[] = [
      [['a', 1]],
      [['a', 1, {}]],
      [['a', 1, { title: 't' }]],
      [['a', 1, { title: 2 }]],
      [['a', -1]],
      [['a', 1.5]],
      [['a']],
      [['a', 1, {}, 'extra']],
      [[1, 1]],
      [{ 0: 'a', 1: 1, length: 2 }],
      [],
      'a',
    ];
    for (const value of values)
      assert.equal(parse(value).success, List.safeParse(value).success, JSON.stringify(value));
    const withRest = z.tuple([z.string()], z.number());
    assert.equal(fastParser(withRest)(['a', 1, 2]).success, true, 'a rest element is left to zod');
    assert.equal(fastParser(withRest)(['a', 'b']).success, false);
  });
});
