import { marksStart } from '../../playbook/marks';
import type { Playbook, PlaybookLine } from '../../playbook/model';
import { HOOK_AGENTS, type HookAgent } from './agentHooks';
import { forbiddenMatchers, isSafeMatcher, type CommandMatcher } from './matcher';
import { committedPaths, isSafePath } from './preCommit';

// The playbook's record of an enforcement, a mark above its rule like the others (marks.ts):
// `<!-- combee:enforced [id] claude-code: `npm install`, `npm i`; codex: `npm install`; pre-commit: `.env` (why) -->`.
// What the hooks stop is rendered from these marks alone, so a rule retired takes its mark, and with it its
// enforcement, along. A mark written before other agents had hooks (claude-code and pre-commit only) reads the same.

const KIND = 'enforced';
const PREFIX = `<!-- combee:${KIND} [`;
const SUFFIX = ' -->';

/** Where an enforcement runs: an agent's hook before a shell command (agentHooks.ts), or git's pre-commit hook. */
export const ENFORCEMENT_KINDS = [...HOOK_AGENTS, 'pre-commit'] as const;
export type EnforcementKind = (typeof ENFORCEMENT_KINDS)[number];

/** Per agent, the commands its hook stops; and the paths the pre-commit check refuses to commit. */
export type EnforcementSpec = { [agent in HookAgent]?: CommandMatcher[] } & { 'pre-commit'?: string[] };

const isHookAgent = (kind: string): kind is HookAgent => (HOOK_AGENTS as readonly string[]).includes(kind);

export function enforcedMarkLine(id: string, spec: EnforcementSpec, why: string): string {
  const parts: string[] = [];
  for (const agent of HOOK_AGENTS) {
    const commands = spec[agent] ?? [];
    if (commands.length > 0) parts.push(`${agent}: ${commands.map((m) => `\`${m.join(' ')}\``).join(', ')}`);
  }
  const paths = spec['pre-commit'] ?? [];
  if (paths.length > 0) parts.push(`pre-commit: ${paths.map((p) => `\`${p}\``).join(', ')}`);
  // the why never holds a parenthesis of its own: the reader cuts at the first one
  return `${PREFIX}${id}] ${parts.join('; ')} (${why.replace(/[()]/g, '')})${SUFFIX}`;
}

/** The mark's spec, each part checked again (the playbook is a file anyone with the repository can edit). */
function parseMark(text: string): { id: string; spec: EnforcementSpec } | undefined {
  const line = text.trim();
  if (!line.startsWith(PREFIX) || !line.endsWith(SUFFIX)) return undefined;
  const close = line.indexOf('] ', PREFIX.length);
  if (close < 0) return undefined;
  const id = line.slice(PREFIX.length, close);
  if (!/^[\w.-]+$/.test(id)) return undefined;
  const body = line.slice(close + 2, line.length - SUFFIX.length);
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
  return { id, spec };
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

/** The enforcement marks that sit in the marks right above their own rule, by rule id, in the playbook's order. */
export function enforcedRules(playbook: Playbook): Map<string, { content: string; spec: EnforcementSpec }> {
  const found = new Map<string, { content: string; spec: EnforcementSpec }>();
  for (const section of playbook.sections)
    section.lines.forEach((line, i) => {
      if (line.kind !== 'bullet') return;
      for (let at = marksStart(section.lines, i); at < i; at++) {
        const mark = section.lines[at];
        const parsed = mark.kind === 'text' ? parseMark(mark.text) : undefined;
        if (parsed?.id !== line.bullet.id) continue;
        const spec = foundedSpec(parsed.spec, line.bullet.content);
        if (spec) found.set(parsed.id, { content: line.bullet.content, spec });
      }
    });
  return found;
}

/** The playbook with an enforcement mark on top of the rule's marks (an older one for the rule replaced). */
export function withEnforcedMark(playbook: Playbook, id: string, line: string): Playbook {
  return {
    ...playbook,
    preamble: [...playbook.preamble],
    sections: playbook.sections.map((section) => {
      const index = section.lines.findIndex((l) => l.kind === 'bullet' && l.bullet.id === id);
      if (index < 0) return section;
      const lines: PlaybookLine[] = [...section.lines];
      const start = marksStart(lines, index);
      const kept = lines.slice(start, index).filter((m) => !(m.kind === 'text' && parseMark(m.text)?.id === id));
      lines.splice(start, index - start, { kind: 'text', text: line }, ...kept);
      return { ...section, lines };
    }),
  };
}
