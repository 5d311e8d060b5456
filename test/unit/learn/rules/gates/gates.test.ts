import assert from 'node:assert/strict';
import { gateRule } from '../../../../../src/core/learn/rules/gates';
import { escapeCodesGate } from '../../../../../src/core/learn/rules/gates/escapeCodes';
import { personalDataGate } from '../../../../../src/core/learn/rules/gates/personalData';
import { repositoryText } from '../../../../../src/core/learn/rules/gates/repository';
import { restatesGate } from '../../../../../src/core/learn/rules/gates/restates';
import { supportGate } from '../../../../../src/core/learn/rules/gates/support';
import { taskRequestGate } from '../../../../../src/core/learn/rules/gates/taskRequest';
import type { GateContext, GatedRule } from '../../../../../src/core/learn/rules/gates/types';
import type { Trace } from '../../../../../src/core/trace/model';
import { dialogue, traceOf } from '../../../trace/turns/steps';

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

  it('task request: a question or a request to the agent, in English, French, Russian and Chinese, is never a rule', () => {
    for (const text of [
      'Can you review the changes on this branch?',
      'Could you always double-check the migration?',
      'What does the sync command do?',
      'Are there hooks that run before every push?',
      '(answered a prompt): Add the cache folder to .gitignore?',
      'Peux-tu regarder les commentaires de la revue ?',
      'Pourquoi le test échoue-t-il sur la CI',
      'Можешь обновить зависимости во всех пакетах?',
      'Почему сборка падает на CI',
      '帮我给所有的组件加上单元测试',
      '这个测试为什么会失败',
      '你可以帮我写一下部署脚本吗',
      '你可能需要帮我调整一下 `packages/ui` 的导出',
    ])
      assert.match(taskRequestGate.check(rule(text), context()) ?? '', /asks the agent something/, text);
  });

  it('task request: a first-person report of the moment is not a rule, unless it says it holds from now on', () => {
    for (const text of [
      'I think the header layout should change.',
      "I'd like to reword the install section of the README.",
      'We used a shell script for the release until last week.',
      'Looks like the logos are not rendered on the report page.',
      'Right now the sync prints a warning when it starts.',
      'Je pense que la page de connexion est trop lente.',
      'Я заметил, что линтер ругается на этот файл.',
      '我发现这个组件在暗色模式下显示不正常',
      '现在这里的类型定义有一些问题',
    ])
      assert.match(taskRequestGate.check(rule(text), context()) ?? '', /reports what the user sees/, text);
    for (const text of [
      "I'd like you to always run the linter before committing.",
      'Я хочу, чтобы ты всегда писал тесты на русском.',
      '我希望你以后都用中文回复',
    ])
      assert.equal(taskRequestGate.check(rule(text), context()), undefined, text);
  });

  it('task request: words that stop where what they introduce should follow are a fragment', () => {
    for (const text of ['When running the sync:', 'The error it prints is：'])
      assert.match(taskRequestGate.check(rule(text), context()) ?? '', /fragment/, text);
    assert.equal(taskRequestGate.check(rule('Remember: `pnpm` only, never `npm`.'), context()), undefined);
  });

  it('personal data: a folder of one’s own in the home folder, or on the machine outside the workspace', () => {
    const here = traceOf('w', dialogue([{ user: 'x' }]));
    here.cwd = '/work/shop';
    for (const text of [
      'Run `cd ~/Work/shop && make gen` first.',
      'Search `$HOME/src/shop/docs` for the schema.',
      'The notes live in `${HOME}/notes/shop.md`.',
      'Copy from `~jdoe/shared/` before a release.',
      'Build the sibling with `make -C /work/billing build`.',
      'The fixtures are on `/Volumes/Data/fixtures`.',
    ])
      assert.match(personalDataGate.check(rule(text), context([here])) ?? '', /personal data/, text);
    for (const text of [
      'Keep the token in `~/.npmrc`, never in the repository.',
      'Clear `$HOME/.cache/shop` when the build is stale.',
      'Run `cd /work/shop/web && pnpm build`.',
      'Write the binary to `/tmp/shop-bin` and discard output to `/dev/null`.',
      'The health check answers on `/api/v1/health`.',
      'Read the docs at https://example.org/guide/install.',
    ])
      assert.equal(personalDataGate.check(rule(text), context([here])), undefined, text);
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
    const ran = traceOf('a', dialogue([{ user: 'x' }, { run: 'make gen' }, { run: 'pnpm test' }]));
    assert.equal(gateRule(rule('Run `make gen` before `pnpm test`.'), context([ran])), undefined);
  });
});
