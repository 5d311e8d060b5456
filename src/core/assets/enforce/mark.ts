import { fromInlineMark, marksOf, withMark } from '../../playbook/marks';
import { bullets, findBullet, type Playbook } from '../../playbook/model';
import { HOOK_AGENTS, type HookAgent } from './agentHooks';
import { forbiddenMatchers, isSafeMatcher, type CommandMatcher } from './matcher';
import { committedPaths, isSafePath } from './preCommit';

// The playbook's record of an enforcement, the rule's `enforced` mark (marks.ts places it):
// `claude-code: `npm install`, `npm i`; codex: `npm install`; pre-commit: `.env` (why)`. What the hooks stop is
// rendered from these marks alone, so a rule retired takes its mark, and with it its enforcement, along. A mark
// written before other agents had hooks (claude-code and pre-commit only) reads the same.

const KIND = 'enforced';

/** Where an enforcement runs: an agent's hook before a shell command (agentHooks.ts), or git's pre-commit hook. */
export const ENFORCEMENT_KINDS = [...HOOK_AGENTS, 'pre-commit'] as const;
export type EnforcementKind = (typeof ENFORCEMENT_KINDS)[number];

/** Per agent, the commands its hook stops; and the paths the pre-commit check refuses to commit. */
export type EnforcementSpec = { [agent in HookAgent]?: CommandMatcher[] } & { 'pre-commit'?: string[] };

const isHookAgent = (kind: string): kind is HookAgent => (HOOK_AGENTS as readonly string[]).includes(kind);

/** What an enforcement mark says. */
export function enforcedMarkLine(spec: EnforcementSpec, why: string): string {
  const parts: string[] = [];
  for (const agent of HOOK_AGENTS) {
    const commands = spec[agent] ?? [];
    if (commands.length > 0) parts.push(`${agent}: ${commands.map((m) => `\`${m.join(' ')}\``).join(', ')}`);
  }
  const paths = spec['pre-commit'] ?? [];
  if (paths.length > 0) parts.push(`pre-commit: ${paths.map((p) => `\`${p}\``).join(', ')}`);
  // the why never holds a parenthesis of its own: the reader cuts at the first one
  return `${parts.join('; ')} (${why.replace(/[()]/g, '')})`;
}

/** The mark's spec, each part checked again (the playbook is a file anyone with the repository can edit). */
function parseMark(text: string): EnforcementSpec {
  const body = text.trim();
  const cut = body.indexOf(' (');
  const spec: EnforcementSpec = {};
  for (const part of (cut < 0 ? body : body.slice(0, cut)).split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const kind = part.slice(0, colon).trim();
    const items = part
      .slice(colon + 1)
      .split(',')
      .map((item) => item.trim())
      .filter((item) => /^`[^`]+`$/.test(item))
      .map((item) => item.slice(1, -1));
    if (isHookAgent(kind)) {
      const matchers = items.map((item) => item.split(' ')).filter(isSafeMatcher);
      if (matchers.length > 0) spec[kind] = matchers;
    } else if (kind === 'pre-commit') {
      const paths = items.filter(isSafePath);
      if (paths.length > 0) spec['pre-commit'] = paths;
    }
  }
  return spec;
}

/**
 * Of a mark's spec, only what the rule's own prohibition yields: the commands it forbids, the paths it says never to
 * commit. A mark is text anyone with the repository can write: a hidden one naming `git` or `ls` above a rule about
 * npm stops nothing. Undefined when nothing is left.
 */
function foundedSpec(spec: EnforcementSpec, content: string): EnforcementSpec | undefined {
  const forbidden = new Set(forbiddenMatchers(content).map((m) => m.join(' ')));
  const paths = new Set(committedPaths(content));
  const founded: EnforcementSpec = {};
  for (const agent of HOOK_AGENTS) {
    const commands = (spec[agent] ?? []).filter((m) => forbidden.has(m.join(' ')));
    if (commands.length > 0) founded[agent] = commands;
  }
  const commits = (spec['pre-commit'] ?? []).filter((p) => paths.has(p));
  if (commits.length > 0) founded['pre-commit'] = commits;
  return Object.keys(founded).length > 0 ? founded : undefined;
}

/** The enforcement marks of the playbook's rules, by rule id, in the playbook's order. */
export function enforcedRules(playbook: Playbook): Map<string, { content: string; spec: EnforcementSpec }> {
  const marks = marksOf(playbook, KIND);
  const found = new Map<string, { content: string; spec: EnforcementSpec }>();
  for (const rule of bullets(playbook)) {
    const text = marks.get(rule.id);
    if (text === undefined || found.has(rule.id) || !/^[\w.-]+$/.test(rule.id)) continue;
    const spec = foundedSpec(parseMark(text), rule.content);
    if (spec) found.set(rule.id, { content: rule.content, spec });
  }
  return found;
}

/**
 * The playbook with the rule's enforcement mark (an older one replaced). `mark` is what the mark says, or a whole mark
 * line as proposals stored before the machine section hold it.
 */
export function withEnforcedMark(playbook: Playbook, id: string, mark: string): Playbook {
  return findBullet(playbook, id) ? withMark(playbook, KIND, id, fromInlineMark(KIND, id, mark)) : playbook;
}
