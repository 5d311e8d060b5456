import assert from 'node:assert/strict';
import { gateRule } from '../../../../src/core/learn/gates';
import { escapeCodesGate } from '../../../../src/core/learn/gates/escapeCodes';
import { personalDataGate } from '../../../../src/core/learn/gates/personalData';
import { repositoryText } from '../../../../src/core/learn/gates/repository';
import { restatesGate } from '../../../../src/core/learn/gates/restates';
import { supportGate } from '../../../../src/core/learn/gates/support';
import { taskRequestGate } from '../../../../src/core/learn/gates/taskRequest';
import type { GateContext, GatedRule } from '../../../../src/core/learn/gates/types';
import type { Trace } from '../../../../src/core/trace/model';
import { dialogue, traceOf } from '../../trace/turns/steps';

const files: Record<string, string> = {
  'package.json': JSON.stringify({ packageManager: 'pnpm@9.1.0', scripts: { test: 'vitest run', lint: 'eslint .' } }),
  Makefile: 'gen:\n\tbuf generate\n',
  'README.md': '# shop\n\nStart it with `docker compose up`.\n',
};
const context = (traces: Trace[] = []): GateContext => ({
  traces: new Map(traces.map((t) => [t.id, t])),
  repository: repositoryText((rel) => files[rel]),
});
const rule = (content: string, ...sessions: string[]): GatedRule => ({
  content,
  support: (sessions.length > 0 ? sessions : ['a', 'b']).map((traceId) => ({ traceId, steps: [0] })),
});

describe('the precision gates', () => {
  it('support: two sessions, or one where the user states it as a standing instruction', () => {
    const said = traceOf('s', dialogue([{ user: 'In this repo we always run make gen before the tests.' }]));
    const task = traceOf('t', dialogue([{ user: 'Add retries to the client.' }]));
    assert.equal(supportGate.check(rule('Run `make gen` first.', 'a', 'b'), context()), undefined);
    assert.equal(supportGate.check(rule('Run `make gen` before the tests.', 's'), context([said])), undefined);
    assert.match(supportGate.check(rule('Add retries.', 't'), context([task])) ?? '', /1 session/);
    // another session of the run acting it out (both commands ran there, one of them passing) supports it too
    const other = traceOf('o', dialogue([{ user: 'x' }, { run: 'go test ./...', code: 1 }, { run: 'make test' }]));
    const once = traceOf('one', dialogue([{ user: 'Use make test.' }, { run: 'make test' }]));
    assert.equal(
      supportGate.check(rule('Use `make test`, not `go test ./...`.', 'one'), context([once, other])),
      undefined,
    );
    assert.ok(supportGate.check(rule('Use `make test`, not `go test ./...`.', 'one'), context([once])));
  });

  it('personal data: e-mail addresses, home folders, hostnames, people’s names and handles', () => {
    for (const text of [
      'Send the report to jane.doe@example.com.',
      'The venv lives in /Users/jdoe/venvs/shop.',
      'Run it from /home/alice/work.',
      'Copy the build to janes-macbook.local before release.',
      'Ask Maria Lopez before changing the schema.',
      'Ping @kwame before merging.',
    ])
      assert.ok(personalDataGate.check(rule(text), context()), text);
    for (const text of [
      'Install types with `pnpm add -D @types/node`.',
      'Keep caches in `/home/<user>/.cache`.',
      'Never add `// @ts-ignore` above a type error.',
      'Use the internal registry at registry.corp.local.',
    ])
      assert.equal(personalDataGate.check(rule(text), context()), undefined, text);
  });

  it('escape codes: raw, written out, or the bare colour code left behind', () => {
    for (const text of [
      'Run `make`: \u001b[31mfails\u001b[0m otherwise.',
      'It prints \\x1b[1m first.',
      'Fails with [31mERROR',
    ])
      assert.ok(escapeCodesGate.check(rule(text), context()), text);
    assert.equal(escapeCodesGate.check(rule('Quote paths that contain `[id]` in zsh.'), context()), undefined);
  });

  it('task request: one piece of work, with no condition, quantifier or reason', () => {
    for (const text of ['Add a test.', 'Add retries to the fraud-check client.', 'Fix the flaky login test.'])
      assert.ok(taskRequestGate.check(rule(text), context()), text);
    for (const text of [
      'Add a migration for every schema change.',
      'Run `make gen` before `make test`.',
      'Use thiserror for error types, not hand-written Display impls.',
      'Regenerate the client after changing the schema.',
      'Build with `pnpm build`.',
    ])
      assert.equal(taskRequestGate.check(rule(text), context()), undefined, text);
  });

  it('restates the repository: a declared script, target or documented command, unless agents got it wrong', () => {
    const quiet = [traceOf('a', dialogue([{ user: 'x' }, { run: 'pnpm test' }])), traceOf('b', dialogue([]))];
    for (const text of [
      'Run the tests with `pnpm test`.',
      'Generate with `make gen`.',
      'Start it with `docker compose up`.',
    ])
      assert.ok(restatesGate.check(rule(text), context(quiet)), text);
    const wrong = [
      traceOf('a', dialogue([{ user: 'x' }, { run: 'npm test', code: 1 }, { run: 'pnpm test' }])),
      quiet[1],
    ];
    assert.equal(restatesGate.check(rule('Run the tests with `pnpm test`.'), context(wrong)), undefined);
    assert.equal(restatesGate.check(rule('Run `make gen` before `pnpm test`.'), context(quiet)), undefined);
  });

  it('names the first gate a rule fails', () => {
    assert.deepEqual(gateRule(rule('Add a test.'), context())?.gate, 'task-request');
    assert.equal(gateRule(rule('Run `make gen` before `pnpm test`.'), context()), undefined);
  });
});
