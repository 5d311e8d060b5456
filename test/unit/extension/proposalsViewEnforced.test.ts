import assert from 'node:assert/strict';
import Module from 'node:module';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import type { Proposal } from '../../../src/core/assets/proposal';
import { tempDir } from '../../../testing/tmp';

// The Proposals view states every enforcement the proposal's hook files carry (what it stops, and whether this run
// offered it or a mark already in the playbook did), and every one held back.

/** Any other member: callable and constructible, reading as more of the same. */
function standIn(): unknown {
  const fn = function () {
    return standIn();
  };
  return new Proxy(fn, {
    get: (_t, key) => (key === 'then' || typeof key === 'symbol' ? undefined : standIn()),
    construct: () => standIn() as object,
  });
}
class TreeItem {
  description?: string;
  tooltip?: unknown;
  command?: { command: string; arguments: unknown[] };
  constructor(readonly label: string) {}
}
class MarkdownString {
  constructor(readonly value: string) {}
}
class ThemeIcon {
  static File = new ThemeIcon('file');
  constructor(readonly id: string) {}
}
class EventEmitter {
  event = () => undefined;
  fire() {}
}
const vscodeModule = new Proxy(
  { TreeItem, MarkdownString, ThemeIcon, ThemeColor: class {}, EventEmitter } as Record<string, unknown>,
  { get: (known, key) => (typeof key === 'string' && key in known ? known[key] : standIn()) },
);

const RULE = 'Never run `npm install`: use `pnpm add`.';

describe('the Proposals view states enforcements', () => {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = loader._load;
  before(() => {
    loader._load = (request, ...rest) => (request === 'vscode' ? vscodeModule : load(request, ...rest));
  });
  after(() => {
    loader._load = load;
  });

  it('shows each rendered hook with what it stops and where it came from, and each held one', async () => {
    const bundle = join(tempDir('combee-view-bundle-'), 'proposalsView.js');
    buildSync({
      entryPoints: [join(__dirname, '../../../../src/extension/views/proposalsView.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      external: ['vscode'],
      alias: { 'jsonc-parser': join(__dirname, '../../../../node_modules/jsonc-parser/lib/esm/main.js') },
      logLevel: 'silent',
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ProposalsView } = require(bundle) as typeof import('../../../src/extension/views/proposalsView');
    const proposal = {
      id: 'run-1',
      workspace: '/ws',
      files: [],
      rules: [],
      heldRules: [],
      ops: [],
      reviewed: { files: [], rules: [] },
      enforced: [
        { ruleId: 'setu-00001', content: RULE, claudeCode: [['npm', 'install']] },
        { ruleId: 'git-00002', content: 'Never run `git`.', claudeCode: [['git']] },
      ],
      enforcements: [
        {
          ruleId: 'setu-00001',
          content: RULE,
          agents: ['claude-code'],
          claudeCode: [['npm', 'install']],
          broke: { stopped: 3, of: 3 },
          followed: { stopped: 0, of: 3 },
          explanation: 'stops 3 of the 3 sessions that broke it',
          mark: '<!-- combee:enforced [setu-00001] claude-code: `npm install` -->',
        },
        {
          ruleId: 'dep-00003',
          content: 'Never run `yarn`.',
          agents: ['claude-code'],
          claudeCode: [['yarn']],
          broke: { stopped: 3, of: 3 },
          followed: { stopped: 0, of: 0 },
          explanation: 'stops 3 of 3',
          flags: [{ kind: 'team-only', reason: 'only in 3 session(s) of team bundles' }],
        },
      ],
    } as unknown as Proposal;
    const view = new ProposalsView({ onDidChange: () => undefined } as never);
    const nodes = await view.getChildren({ kind: 'proposal', proposalId: 'run-1', proposal } as never);
    const shown = nodes.map((n) => view.getTreeItem(n) as unknown as TreeItem);
    const byLabel = new Map(shown.map((i) => [i.label, i]));
    const offered = byLabel.get('ENFORCED setu-00001');
    assert.ok(offered, [...byLabel.keys()].join(', '));
    assert.match(offered.description ?? '', /Claude Code hook stops `npm install`/);
    assert.match((offered.tooltip as MarkdownString).value, /offered by this run: stops 3 of the 3/);
    assert.deepEqual(offered.command?.arguments, ['run-1', '.claude/hooks/combee-enforce.json']);
    const planted = byLabel.get('ENFORCED git-00002');
    assert.match(planted?.description ?? '', /stops `git`/);
    assert.match(
      (planted?.tooltip as MarkdownString).value,
      /mark already in the playbook .*combee:marks section.*, not offered by this run/,
    );
    const held = byLabel.get('HELD ENFORCEMENT dep-00003');
    assert.match(held?.description ?? '', /would stop: a Claude Code hook stops `yarn`/);
    assert.match((held?.tooltip as MarkdownString).value, /held, not marked nor in the hook files: team\\-only/);
  });
});
