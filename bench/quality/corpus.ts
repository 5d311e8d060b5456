import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { playbookRules, renderRulesFile } from '../../src/core/assets/agentsMd';
import { DEFAULT_PLAYBOOK_PATH } from '../../src/core/assets/playbookAsset';
import { parsePlaybook, PLAYBOOK_PREAMBLE } from '../../src/core/playbook/markdown';
import { git, writeIn } from '../../testing/gitRepo';
import { billingApi } from './repos/billingApi';
import { relay } from './repos/relay';
import { tilemap } from './repos/tilemap';
import { webShop } from './repos/webShop';
import { HELDOUT_REPOS } from './heldout';
import type { RepoSpec, SessionSpec } from './types';
import { seededUuid, startOf, writeClaudeCode, writeCodex } from './writers';

// The quality corpus on disk: four git repositories whose team files were committed before any session ran, and the
// sessions in the agents' own formats under one home per agent (imported through the real importer).

export const REPOS: readonly RepoSpec[] = [webShop, billingApi, tilemap, relay];

/** The corpora `--corpus` names: the one the learner was improved against, and one it was never tuned on. */
export const CORPORA = { main: REPOS, heldout: HELDOUT_REPOS } as const satisfies Record<string, readonly RepoSpec[]>;
export type CorpusName = keyof typeof CORPORA;

/** When the team's files were committed: a month before the first session. */
export const TEAM_COMMIT_DATE = '2026-10-01T08:00:00Z';

/** The team's playbook in ACE format, as the repository holds it. */
export function teamPlaybook(repo: RepoSpec): string {
  const sections = [...new Set(repo.teamRules.map((r) => r.section))];
  const lines = [...PLAYBOOK_PREAMBLE];
  for (const section of sections) {
    lines.push(`## ${section}`);
    for (const rule of repo.teamRules.filter((r) => r.section === section))
      lines.push(`[${rule.id}] helpful=0 harmful=0 :: ${rule.content}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** A team file with the block Combee rendered from the team's playbook (as an earlier accept left it). */
function withBlock(path: string, teamText: string | undefined, playbook: string): string {
  const change = renderRulesFile(path, playbookRules(parsePlaybook(playbook)), 'Learned rules', {
    playbookPath: DEFAULT_PLAYBOOK_PATH,
    playbookLink: DEFAULT_PLAYBOOK_PATH,
    readFile: () => teamText,
  });
  if (!change) throw new Error(`no block rendered for ${path}`);
  return change.after;
}

export interface WrittenSession {
  repo: string;
  key: string;
  agent: SessionSpec['agent'];
  /** The trace id the importer gives it. */
  traceId: string;
  startedAt: string;
}

export interface WrittenCorpus {
  root: string;
  /** Workspace folder of each repository, by name. */
  workspaces: Record<string, string>;
  /** The folder to import (one home per agent under it). */
  homes: string;
  sessions: WrittenSession[];
}

/** Writes the corpus under `root` (an empty folder). The same seed writes the same bytes. */
export function writeQualityCorpus(root: string, seed = 1, repos: readonly RepoSpec[] = REPOS): WrittenCorpus {
  const workspaces: Record<string, string> = {};
  const sessions: WrittenSession[] = [];
  const homes = join(root, 'homes');
  for (const repo of repos) {
    const workspace = join(root, 'repos', repo.name);
    mkdirSync(workspace, { recursive: true });
    workspaces[repo.name] = workspace;
    git(workspace, ['init', '-q', '-b', 'main']);
    const playbook = teamPlaybook(repo);
    for (const [path, text] of Object.entries(repo.files))
      writeIn(workspace, path, text.endsWith('\n') ? text : `${text}\n`);
    writeIn(workspace, DEFAULT_PLAYBOOK_PATH, playbook);
    writeIn(workspace, 'AGENTS.md', withBlock('AGENTS.md', repo.agentsText, playbook));
    writeIn(workspace, 'CLAUDE.md', withBlock('CLAUDE.md', repo.claudeText, playbook));
    git(workspace, ['add', '-A']);
    git(workspace, ['commit', '-q', '-m', `${repo.name}: team notes and playbook`], TEAM_COMMIT_DATE);
    for (const spec of repo.sessions) {
      const id =
        spec.agent === 'claude-code'
          ? writeClaudeCode(join(homes, 'claude'), workspace, spec, seed)
          : writeCodex(join(homes, 'codex'), workspace, spec, seed);
      sessions.push({
        repo: repo.name,
        key: spec.key,
        agent: spec.agent,
        traceId: `${spec.agent}:${id}`,
        startedAt: startOf(spec, seed),
      });
    }
  }
  return { root, workspaces, homes, sessions };
}

/** The session spec behind a trace id (the model scripts recognize sessions by it). */
export function specsByTraceId(
  seed: number,
  repos: readonly RepoSpec[] = REPOS,
): Map<string, { repo: RepoSpec; spec: SessionSpec }> {
  const out = new Map<string, { repo: RepoSpec; spec: SessionSpec }>();
  for (const repo of repos)
    for (const spec of repo.sessions) out.set(`${spec.agent}:${seededUuid(seed, spec.key)}`, { repo, spec });
  return out;
}
