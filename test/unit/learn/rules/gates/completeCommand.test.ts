import assert from 'node:assert/strict';
import {
  completeCommandGate,
  incompleteness,
  prescribedCommands,
} from '../../../../../src/core/learn/rules/gates/completeCommand';
import { repositoryText } from '../../../../../src/core/learn/rules/gates/repository';
import type { GateContext, GatedRule } from '../../../../../src/core/learn/rules/gates/types';
import { heredocsWithoutBody } from '../../../../../src/core/trace/shell/heredocs';
import type { Trace } from '../../../../../src/core/trace/model';
import { dialogue, traceOf, type Line } from '../../../trace/turns/steps';

// Commands written for these tests: a rule that prescribes one names a command that runs and that worked.

const context = (...traces: Trace[]): GateContext => ({
  traces: new Map(traces.map((t) => [t.id, t])),
  repository: repositoryText(() => undefined),
});
const rule = (content: string): GatedRule => ({ content, support: [{ traceId: 'a', steps: [0] }] });
const session = (id: string, lines: Line[]) => traceOf(id, dialogue([{ user: 'Ship the feature.' }, ...lines]));
const check = (content: string, ctx: GateContext = context()) => completeCommandGate.check(rule(content), ctx);

describe('the complete-command gate', () => {
  it('finds the commands a rule prescribes, in English, French, Russian and Chinese', () => {
    const commands = prescribedCommands;
    assert.deepEqual(commands('Run `make gen` before `make test`, and use `pnpm`.'), ['make gen', 'pnpm']);
    assert.deepEqual(commands('Lancez `pnpm lint` avant de valider.'), ['pnpm lint']);
    assert.deepEqual(commands('Запустите `cargo fmt` перед коммитом.'), ['cargo fmt']);
    assert.deepEqual(commands('提交前运行 `go vet ./...`'), ['go vet ./...']);
    assert.deepEqual(prescribedCommands('The `dist/` folder is generated.'), []);
    assert.deepEqual(prescribedCommands('Never run `npm install` here; do not use `yarn`.'), []);
  });

  it('reads a heredoc without its body, an open quote, a dangling operator and a bare builtin as cut short', () => {
    assert.equal(heredocsWithoutBody("python3 - <<'PY'"), 1);
    assert.equal(heredocsWithoutBody("python3 - <<'PY'\nprint(1)\nPY"), 0);
    assert.equal(heredocsWithoutBody('cd app && node run.js <<'), 1, 'no delimiter at all');
    for (const command of ["cd app && go run /dev/stdin <<'", "grep -r 'needle", 'npm test &&', 'export', 'cd'])
      assert.ok(incompleteness(command), command);
    for (const command of ['export NODE_ENV=test && npm test', 'cd web && pnpm build', 'go test ./...', 'make gen'])
      assert.equal(incompleteness(command), undefined, command);
    assert.match(check('Run `export ` before committing.') ?? '', /`export` alone/);
    assert.match(check("Run `cd app && node - <<'JS'` first.") ?? '', /heredoc has no body/);
  });

  it('leaves out a command the sessions ran that never worked, and a search that never found anything', () => {
    const failing = session('a', [
      { run: 'npm run e2e', code: 1 },
      { run: 'npm run e2e', code: 2 },
    ]);
    assert.match(check('Run `npm run e2e` before committing.', context(failing)) ?? '', /failed every time/);
    const empty = session('a', [
      { run: "rg --files | rg '^docs/old\\.md$'", code: 1 },
      { run: "grep -rn 'TODO(legacy)' src", code: 0, output: '' },
    ]);
    assert.match(check("Run `rg --files | rg '^docs/old\\.md$'` first.", context(empty)) ?? '', /found nothing/);
    assert.match(check("Run `grep -rn 'TODO(legacy)' src` first.", context(empty)) ?? '', /found nothing/);
  });

  it('keeps a command that worked once, one no session ran, a sketch with placeholders, a prohibition, and prose', () => {
    const worked = session('a', [
      { run: 'npm run e2e', code: 1 },
      { run: 'npm run e2e' },
      { run: "grep -rn 'TODO(legacy)' src", output: 'src/a.ts:3: // TODO(legacy)' },
    ]);
    const ctx = context(worked);
    for (const content of [
      'Run `npm run e2e` before committing.',
      "Run `grep -rn 'TODO(legacy)' src` before a release.",
      'Run `make gen` before `make test`.',
      'Run one test with `pnpm vitest run <path>`.',
      "Use `python3` (e.g. `python3 - <<'PY' … PY`).",
      'Use `go test ./...` from the module root.',
      'Never run `npm run e2e` without a browser installed.',
      '`npm run e2e` fails without a browser installed.',
    ])
      assert.equal(check(content, ctx), undefined, content);
  });
});
