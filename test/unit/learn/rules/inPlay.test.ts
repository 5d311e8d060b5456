import assert from 'node:assert/strict';
import { loadedAssets, rulesInPlay, type AssetVersion } from '../../../../src/core/learn/rules/inPlay';
import type { StepInput, Trace } from '../../../../src/core/trace/model';
import { makeTrace, user } from '../../../../testing/traces';

// The history of a workspace's asset files: AGENTS.md gained bld-00002 on Oct 20; CLAUDE.md and the billing
// service's own AGENTS.md each held one rule from Oct 1.
const HISTORY: AssetVersion[] = [
  { path: 'AGENTS.md', at: '2026-10-01T09:00:00.000Z', ruleIds: ['env-00001'] },
  { path: 'AGENTS.md', at: '2026-10-20T09:00:00.000Z', ruleIds: ['bld-00002', 'env-00001'] },
  { path: 'CLAUDE.md', at: '2026-10-01T09:00:00.000Z', ruleIds: ['cla-00003'] },
  { path: 'services/billing/AGENTS.md', at: '2026-10-01T09:00:00.000Z', ruleIds: ['bil-00004'] },
];
const PATHS = ['AGENTS.md', 'CLAUDE.md', 'services/billing/AGENTS.md'];

let calls = 0;
const tool = (name: string, input: Record<string, string>): StepInput => ({
  kind: 'tool_call',
  callId: `c-${++calls}`,
  tool: name,
  input: JSON.stringify(input),
});
const edit = (file: string) =>
  tool('Edit', { file_path: `/home/dev/acme-shop/${file}`, old_string: 'a', new_string: 'b' });
const read = (file: string) => tool('Read', { file_path: `/home/dev/acme-shop/${file}` });

const session = (id: string, agent: Trace['agent'], startedAt: string, steps: StepInput[] = []): Trace =>
  makeTrace(id, [user('fix the invoice rounding'), ...steps], { agent, startedAt });

const sorted = (ids: Iterable<string>) => [...ids].sort();

describe('rules in play', () => {
  it('a codex session after AGENTS.md gained a rule has the rule in play, with the rules of that version', () => {
    const trace = session('codex:after', 'codex', '2026-11-01T10:00:00.000Z');
    assert.deepEqual(sorted(loadedAssets(trace, PATHS)), ['AGENTS.md']);
    assert.deepEqual(sorted(rulesInPlay(trace, HISTORY)), ['bld-00002', 'env-00001']);
  });

  it('a session that started before a version had the previous one, and before the first none', () => {
    const between = session('codex:between', 'codex', '2026-10-10T10:00:00.000Z');
    assert.deepEqual(sorted(rulesInPlay(between, HISTORY)), ['env-00001']);
    const justBefore = session('codex:just-before', 'codex', '2026-10-20T08:59:59.999Z');
    assert.deepEqual(sorted(rulesInPlay(justBefore, HISTORY)), ['env-00001']);
    const atTheCommit = session('codex:at', 'codex', '2026-10-20T09:00:00.000Z');
    assert.deepEqual(sorted(rulesInPlay(atTheCommit, HISTORY)), ['bld-00002', 'env-00001']);
    const before = session('codex:before', 'codex', '2026-09-30T10:00:00.000Z');
    assert.deepEqual(sorted(rulesInPlay(before, HISTORY)), []);
  });

  it('a claude-code session loads CLAUDE.md, not AGENTS.md', () => {
    const trace = session('claude-code:cc', 'claude-code', '2026-11-01T10:00:00.000Z');
    assert.deepEqual(sorted(loadedAssets(trace, PATHS)), ['CLAUDE.md']);
    assert.deepEqual(sorted(rulesInPlay(trace, HISTORY)), ['cla-00003']);
  });

  it('a CLAUDE.md that imports AGENTS.md brings its rules to Claude Code, from the day it imports it', () => {
    const history: AssetVersion[] = [
      ...HISTORY,
      // from Oct 25, CLAUDE.md holds only the import line: its own block went
      { path: 'CLAUDE.md', at: '2026-10-25T09:00:00.000Z', ruleIds: [], imports: ['AGENTS.md'] },
    ];
    const after = session('claude-code:import', 'claude-code', '2026-11-01T10:00:00.000Z');
    assert.deepEqual(sorted(rulesInPlay(after, history)), ['bld-00002', 'env-00001']);
    const before = session('claude-code:block', 'claude-code', '2026-10-22T10:00:00.000Z');
    assert.deepEqual(sorted(rulesInPlay(before, history)), ['cla-00003']);
    // Copilot loads CLAUDE.md too, but does not follow its imports: AGENTS.md reaches it by itself, once
    const copilot = session('copilot:vs', 'copilot', '2026-11-01T10:00:00.000Z');
    assert.deepEqual(sorted(loadedAssets(copilot, PATHS)), ['AGENTS.md', 'CLAUDE.md']);
    assert.deepEqual(sorted(rulesInPlay(copilot, history)), ['bld-00002', 'env-00001']);
  });

  it("a folder's AGENTS.md is in play only for a session that edited a file under that folder", () => {
    const billing = session('codex:billing', 'codex', '2026-11-01T10:00:00.000Z', [
      edit('services/billing/invoice.ts'),
    ]);
    assert.deepEqual(sorted(loadedAssets(billing, PATHS)), ['AGENTS.md', 'services/billing/AGENTS.md']);
    assert.deepEqual(sorted(rulesInPlay(billing, HISTORY)), ['bil-00004', 'bld-00002', 'env-00001']);

    const deep = session('codex:deep', 'codex', '2026-11-01T10:00:00.000Z', [edit('services/billing/src/tax/vat.ts')]);
    assert.deepEqual(sorted(rulesInPlay(deep, HISTORY)), ['bil-00004', 'bld-00002', 'env-00001']);

    const shipping = session('codex:shipping', 'codex', '2026-11-01T10:00:00.000Z', [
      edit('services/shipping/label.ts'),
    ]);
    assert.deepEqual(sorted(rulesInPlay(shipping, HISTORY)), ['bld-00002', 'env-00001']);

    const lookalike = session('codex:lookalike', 'codex', '2026-11-01T10:00:00.000Z', [
      edit('services/billing-v2/invoice.ts'),
    ]);
    assert.deepEqual(sorted(rulesInPlay(lookalike, HISTORY)), ['bld-00002', 'env-00001']);

    const before = session('codex:billing-early', 'codex', '2026-09-01T10:00:00.000Z', [
      edit('services/billing/invoice.ts'),
    ]);
    assert.deepEqual(sorted(rulesInPlay(before, HISTORY)), []);

    // claude-code reads CLAUDE.md at the root, so a folder's AGENTS.md is not its own file
    const claude = session('claude-code:billing', 'claude-code', '2026-11-01T10:00:00.000Z', [
      edit('services/billing/invoice.ts'),
    ]);
    assert.deepEqual(sorted(rulesInPlay(claude, HISTORY)), ['cla-00003']);
  });

  it('a session that read AGENTS.md with a read tool has it loaded whatever its agent; an edit is not a read', () => {
    const claude = session('claude-code:read', 'claude-code', '2026-11-01T10:00:00.000Z', [read('AGENTS.md')]);
    assert.deepEqual(sorted(loadedAssets(claude, PATHS)), ['AGENTS.md', 'CLAUDE.md']);
    assert.deepEqual(sorted(rulesInPlay(claude, HISTORY)), ['bld-00002', 'cla-00003', 'env-00001']);

    const aider = session('aider:read', 'aider', '2026-11-01T10:00:00.000Z', [read('AGENTS.md')]);
    assert.deepEqual(sorted(loadedAssets(aider, PATHS)), ['AGENTS.md']);
    assert.deepEqual(sorted(rulesInPlay(aider, HISTORY)), ['bld-00002', 'env-00001']);

    const quiet = session('aider:quiet', 'aider', '2026-11-01T10:00:00.000Z');
    assert.deepEqual(sorted(loadedAssets(quiet, PATHS)), []);
    assert.deepEqual(sorted(rulesInPlay(quiet, HISTORY)), []);

    const edited = session('aider:edit', 'aider', '2026-11-01T10:00:00.000Z', [edit('AGENTS.md')]);
    assert.deepEqual(sorted(loadedAssets(edited, PATHS)), []);
  });

  it('a session without a start time has no rules in play, though it loaded the files', () => {
    const { startedAt: _startedAt, ...undated } = session('codex:undated', 'codex', '2026-11-01T10:00:00.000Z', [
      edit('services/billing/invoice.ts'),
    ]);
    assert.deepEqual(sorted(loadedAssets(undated, PATHS)), ['AGENTS.md', 'services/billing/AGENTS.md']);
    assert.deepEqual(sorted(rulesInPlay(undated, HISTORY)), []);
  });

  it('places a session written with an offset or without milliseconds by its instant, not its spelling', () => {
    const offset = session('codex:offset', 'codex', '2026-10-20T07:30:00-02:00'); // 09:30Z, after the version
    assert.deepEqual(sorted(rulesInPlay(offset, HISTORY)), ['bld-00002', 'env-00001']);
    const early = [{ path: 'AGENTS.md', at: '2026-11-01T10:00:00.500Z', ruleIds: ['late-00009'] }];
    assert.deepEqual(sorted(rulesInPlay(session('codex:s', 'codex', '2026-11-01T10:00:00Z'), early)), []);
  });

  it("reading a folder's AGENTS.md loads that file, not the root one whose name it ends with", () => {
    const trace = session('claude-code:read-billing', 'claude-code', '2026-11-01T10:00:00.000Z', [
      read('services/billing/AGENTS.md'),
    ]);
    assert.deepEqual(sorted(loadedAssets(trace, PATHS)), ['CLAUDE.md', 'services/billing/AGENTS.md']);
    const relative = session('claude-code:read-root', 'claude-code', '2026-11-01T10:00:00.000Z', [
      tool('Read', { file_path: 'AGENTS.md' }),
    ]);
    assert.deepEqual(sorted(loadedAssets(relative, PATHS)), ['AGENTS.md', 'CLAUDE.md']);
  });
});
