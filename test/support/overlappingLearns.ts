import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findManagedBlocks } from '../../src/core/assets/managedBlock';
import type { Proposal } from '../../src/core/assets/proposal';
import { offlineRoles } from '../../src/core/llm/providers';
import { parsePlaybook } from '../../src/core/playbook/markdown';
import { bullets } from '../../src/core/playbook/model';
import { learnWorkspace } from '../../src/core/service/learnWorkspace';
import { ProposalStore } from '../../src/core/store/proposals';
import { TraceStore } from '../../src/core/store/traceStore';
import { WorkspaceState } from '../../src/core/store/workspaceState';
import { tempDir } from '../../testing/tmp';
import { makeTrace, shell, user } from '../../testing/traces';

// A workspace with the team's own AGENTS.md and Copilot instructions (two files with a block each; CLAUDE.md would
// import AGENTS.md), and sessions whose users correct the agent (one lesson
// each kind), learned offline: what the tests of overlapping learning runs start from.

export const PLAYBOOK = '.combee/playbook.md';
export const AGENT_FILES = ['AGENTS.md', '.github/copilot-instructions.md'];
const TEAM_AGENTS = '# Team rules\n\nWrite tests first.\n';
const TEAM_COPILOT = '# Copilot\n\nKeep answers short.\n';

/**
 * A session where the user corrects the test command (`tests`), the install command (`install`) or the linter
 * (`lint`), each time as a standing instruction, so that one session makes a rule (a one-off correction needs two:
 * learn/rules/gates/support.ts); `quiet`: a session with nothing to learn.
 */
export function correctedSession(workspace: string, kind: 'tests' | 'install' | 'lint' | 'quiet', n: number) {
  const steps =
    kind === 'quiet'
      ? [user('list the files'), ...shell('ls', 'src test package.json')]
      : kind === 'lint'
        ? [
            user('check the style'),
            ...shell('npx eslint .', 'Oops! Something went wrong: no config found', 2),
            user('No, not eslint: we always lint with `pnpm biome check src` here.'),
            ...shell('pnpm biome check src', 'Checked 120 files'),
          ]
        : kind === 'tests'
          ? [
              user('run the tests'),
              ...shell('npm test', 'Error: no test specified', 1),
              user('No, not npm test: in this repository always run `npm run test:unit`.'),
              ...shell('npm run test:unit', 'Tests 42 passed'),
            ]
          : [
              user('add zod to the dependencies'),
              ...shell('yarn add zod', 'error This project uses pnpm workspaces', 1),
              user(
                'Wrong tool. This repository uses pnpm workspaces: always install with `pnpm add <pkg> --filter web`.',
              ),
              ...shell('pnpm add zod --filter web', 'Done in 1.2s'),
            ];
  return makeTrace(`codex:${kind}-${n}`, [...steps, user('thanks')], {
    agent: 'codex',
    cwd: workspace,
    startedAt: `2026-11-${String(n + 1).padStart(2, '0')}T10:00:00.000Z`,
  });
}

export function overlappingFixture() {
  const root = tempDir('combee-overlap-');
  const workspace = join(root, 'shop');
  const storeDir = join(root, 'store');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'AGENTS.md'), TEAM_AGENTS);
  mkdirSync(join(workspace, '.github'), { recursive: true });
  writeFileSync(join(workspace, '.github/copilot-instructions.md'), TEAM_COPILOT);
  const store = new TraceStore(storeDir);
  const proposals = new ProposalStore(new WorkspaceState(store.dir));
  const roles = offlineRoles();
  const learn = () =>
    learnWorkspace({
      store,
      proposals,
      workspace,
      ...roles,
      provider: roles.info,
      seed: 3,
      assets: { targets: ['agents-md', 'copilot-instructions'] },
    });
  const read = (path: string) =>
    existsSync(join(workspace, path)) ? readFileSync(join(workspace, path), 'utf8') : undefined;
  const snapshots = join(root, 'snapshots');
  /** Keeps the workspace and the store as they are, under `name`. */
  const snapshot = (name: string) => {
    for (const [from, to] of [
      [workspace, 'ws'],
      [storeDir, 'store'],
    ])
      cpSync(from, join(snapshots, name, to), { recursive: true });
  };
  /** Puts the workspace and the store back as kept under `name` (same paths: the store names the workspace). */
  const restore = (name: string) => {
    for (const [to, from] of [
      [workspace, 'ws'],
      [storeDir, 'store'],
    ]) {
      rmSync(to, { recursive: true, force: true });
      cpSync(join(snapshots, name, from), to, { recursive: true });
    }
  };
  return { root, workspace, storeDir, store, proposals, learn, read, snapshot, restore };
}

export type OverlappingFixture = ReturnType<typeof overlappingFixture>;

/** What is wrong with the files: a file with more than one block, a rule twice in the playbook, a cited id it lacks. */
export function fileProblems(fx: OverlappingFixture): string[] {
  const problems: string[] = [];
  const playbook = fx.read(PLAYBOOK);
  const rules = playbook === undefined ? [] : bullets(parsePlaybook(playbook));
  const ids = rules.map((b) => b.id);
  const texts = rules.map((b) => b.content.trim().toLowerCase());
  for (const [i, id] of ids.entries()) if (ids.indexOf(id) !== i) problems.push(`${id} twice in the playbook`);
  for (const [i, text] of texts.entries())
    if (texts.indexOf(text) !== i)
      problems.push(`"${text}" twice in the playbook (${ids[texts.indexOf(text)]}, ${ids[i]})`);
  for (const path of AGENT_FILES) {
    const text = fx.read(path) ?? '';
    const blocks = findManagedBlocks(text, path).length;
    if (blocks > 1) problems.push(`${path} holds ${blocks} blocks`);
    if (!text.includes(path === 'AGENTS.md' ? TEAM_AGENTS.trim() : TEAM_COPILOT.trim()))
      problems.push(`${path} lost the team's text`);
    for (const m of text.matchAll(/\[([a-z]+-\d{5})\]/g))
      if (!ids.includes(m[1])) problems.push(`${path} cites ${m[1]}, which the playbook does not hold`);
  }
  return problems;
}

/** The workspace's proposals still open. */
export async function openProposals(fx: OverlappingFixture): Promise<Proposal[]> {
  return (await fx.proposals.list(fx.workspace)).filter(
    (p) => (p.status === 'pending' || p.status === 'partial') && p.files.length > 0,
  );
}
