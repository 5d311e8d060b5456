import { posix } from 'node:path';
import { confirmCounters, NO_COUNTS, type Counters, type LocalCounts } from '../learn/rules/confirmedCounters';
import type { Lesson } from '../learn/types';
import type { Bullet, Playbook } from '../playbook/model';
import { jaccard, tokens } from '../playbook/similarity';
import { countTokens } from '../util/tokens';
import { ManagedBlockError, readManagedBlock, upsertManagedBlock } from './managedBlock';
import { makeFileChange, type FileChange, type RuleChange } from './proposal';

// AGENTS.md and the shared pieces of every rules target: ranking within a token budget, scopes → nested files.

export const AGENTS_MD = 'AGENTS.md';

// Ranking and rendering of a rules block (shared by every rules target).

export const DEFAULT_RULES_BUDGET_TOKENS = 1500;

export interface SelectedRule {
  bullet: Bullet;
  /** Its counters as this machine confirms them (confirmedCounters.ts); none when not given. */
  counted?: Counters;
  section: string;
  /** A workspace-relative folder, for targets that list scoped rules beside root ones. */
  scope?: string;
  /** Distinct sessions of this proposal behind it (a rule it adds or rewords); none for the others. */
  sessions?: number;
}

export interface RulesBodyOptions {
  /** Heading of the block, e.g. "Learned rules" or "Learned rules for `src/api/`". */
  title: string;
  /**
   * Link to the full playbook as seen from the rendered file; none while the playbook holds a held (flagged) rule:
   * pointed to the playbook, an agent would read that rule too, and no mark there tells every held rule apart.
   */
  playbookLink?: string;
  playbookPath: string;
  budgetTokens?: number;
  /** Rules this proposal adds or rewords: a rule of the block that leaves for one of them is named in a warning. */
  fresh?: ReadonlySet<string>;
}

/**
 * How well a rule is evidenced: the sessions of this proposal behind it, and the later sessions this machine counted it
 * helping in, less those it hurt in (confirmed counters: a line's claim earns no place).
 */
export function evidenceOf(rule: SelectedRule): number {
  return (rule.sessions ?? 0) + (rule.counted?.helpful ?? 0) - (rule.counted?.harmful ?? 0);
}

/**
 * The best-evidenced rules first, whether new or old; of two alike, the one that helped in more sessions, then the
 * playbook's order, then the id: never by age.
 */
export function rankRules(rules: SelectedRule[]): SelectedRule[] {
  const order = new Map(rules.map((r, i) => [r, i]));
  return [...rules].sort(
    (a, b) =>
      evidenceOf(b) - evidenceOf(a) ||
      (b.counted?.helpful ?? 0) - (a.counted?.helpful ?? 0) ||
      (order.get(a) ?? 0) - (order.get(b) ?? 0) ||
      a.bullet.id.localeCompare(b.bullet.id),
  );
}

/**
 * Every bullet with its section, in playbook order; rules this machine counted more harmful than helpful are left out.
 * `local`: this machine's counts, confirming the lines' counters (without it, none are).
 */
export function playbookRules(
  playbook: Playbook,
  scopeOf: (id: string) => string | undefined = () => undefined,
  local: LocalCounts = () => NO_COUNTS,
  /** Distinct sessions of this proposal behind each rule it adds or rewords. */
  sessions: ReadonlyMap<string, number> = new Map(),
): SelectedRule[] {
  const out: SelectedRule[] = [];
  for (const section of playbook.sections) {
    for (const line of section.lines) {
      if (line.kind !== 'bullet') continue;
      const counted = confirmCounters(line.bullet, local(line.bullet.id)).confirmed;
      if (counted.harmful > counted.helpful) continue;
      const behind = sessions.get(line.bullet.id);
      out.push({
        bullet: line.bullet,
        counted,
        section: section.title,
        scope: scopeOf(line.bullet.id),
        ...(behind === undefined ? {} : { sessions: behind }),
      });
    }
  }
  return out;
}

function ruleLine(rule: SelectedRule, showScope: boolean): string {
  const where = showScope && rule.scope ? ` (in \`${rule.scope}/\`)` : '';
  return `- [${rule.bullet.id}] ${rule.bullet.content}${where}`;
}

function render(
  chosen: SelectedRule[],
  total: number,
  options: RulesBodyOptions,
  showScope: boolean,
  example = 'bat-00003',
): string {
  const lines = [
    `## ${options.title}`,
    '',
    options.playbookLink === undefined
      ? "Learned by Combee from this repository's past agent sessions. Follow only the rules listed here: the playbook they come from also holds rules kept out of this file."
      : `Learned by Combee from this repository's past agent sessions. The full playbook, with every rule and how often it helped, is [${options.playbookPath}](${options.playbookLink}).`,
    `When you apply one of these rules, cite its id in your reply (e.g. "[${example}]") so its helpfulness can be tracked.`,
  ];
  // Playbook order within playbook sections: stable diffs when only counters change.
  const sections: string[] = [];
  for (const rule of chosen) if (!sections.includes(rule.section)) sections.push(rule.section);
  if (chosen.length === 0) lines.push('', 'No rules yet.');
  for (const section of sections) {
    lines.push('', `### ${section}`);
    for (const rule of chosen) if (rule.section === section) lines.push(ruleLine(rule, showScope));
  }
  if (total > chosen.length)
    lines.push(
      '',
      options.playbookLink === undefined
        ? `${total - chosen.length} more rule(s) did not fit here.`
        : `${total - chosen.length} more rule(s) are in the playbook.`,
    );
  return lines.join('\n');
}

/** The block body: the best-ranked rules that fit the token budget, shown grouped by section in playbook order. */
export function renderRulesBody(rules: SelectedRule[], options: RulesBodyOptions, showScope = false): string {
  const budget = options.budgetTokens ?? DEFAULT_RULES_BUDGET_TOKENS;
  const order = new Map(rules.map((r, i) => [r.bullet.id, i]));
  const byPlaybookOrder = (list: SelectedRule[]) =>
    [...list].sort((a, b) => (order.get(a.bullet.id) ?? 0) - (order.get(b.bullet.id) ?? 0));
  let used = countTokens(render([], rules.length, options, showScope));
  const chosen: SelectedRule[] = [];
  const sectionsSeen = new Set<string>();
  for (const rule of rankRules(rules)) {
    const cost =
      countTokens(ruleLine(rule, showScope)) +
      1 +
      (sectionsSeen.has(rule.section) ? 0 : countTokens(`### ${rule.section}`) + 2);
    if (used + cost > budget) continue;
    used += cost;
    sectionsSeen.add(rule.section);
    chosen.push(rule);
  }
  // The estimate adds line by line; the exact count decides, dropping the lowest-ranked until it fits.
  // The example citation is the first rule shown, so a counter change alone does not change the block.
  const show = () => {
    const shown = byPlaybookOrder(chosen);
    return render(shown, rules.length, options, showScope, shown[0]?.bullet.id);
  };
  let body = show();
  while (chosen.length > 0 && countTokens(body) > budget) {
    chosen.pop();
    body = show();
  }
  return body;
}

// Where a rule belongs: nested AGENTS.md per folder.

/** A proposal's rule change plus what the delta knew about it (AddOp's scope and kind). */
export type RuleWithScope = Omit<RuleChange, 'flags'> & {
  flags?: RuleChange['flags'];
  scope?: string;
  kind?: Lesson['kind'];
};

/** `./src/api/` → `src/api`; the root, absolute paths and paths leaving the workspace → undefined. */
export function normalizeScope(scope: string | undefined): string | undefined {
  if (!scope) return undefined;
  const clean = scope
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/\/{2,}/g, '/');
  if (
    clean === '' ||
    clean === '.' ||
    clean.startsWith('/') ||
    /^[a-zA-Z]:/.test(clean) ||
    clean.split('/').some((p) => p === '..')
  )
    return undefined;
  return clean;
}

export const LESSON_MATCH = 0.5;

/** The lesson a rule came from: one of its supporting sessions, with the most similar content. */
export function lessonOf(rule: Pick<RuleChange, 'content' | 'support'>, lessons: Lesson[]): Lesson | undefined {
  if (!rule.content) return undefined;
  const traces = new Set(rule.support.map((s) => s.traceId));
  const words = tokens(rule.content);
  let best: { lesson: Lesson; score: number } | undefined;
  for (const lesson of lessons) {
    if (!traces.has(lesson.evidence.traceId)) continue;
    const score = jaccard(words, tokens(lesson.content));
    if (score >= LESSON_MATCH && (!best || score > best.score)) best = { lesson, score };
  }
  return best?.lesson;
}

/**
 * The lessons behind some rules: those of their supporting sessions that say what a rule says. A part of a proposal
 * is rendered from these alone, so accepting one rule brings no Skill built from a rule that was not accepted.
 */
export function lessonsBehind(rules: RuleChange[], lessons: Lesson[]): Lesson[] {
  const wanted = rules
    .filter((r) => r.content)
    .map((r) => ({ traces: new Set(r.support.map((s) => s.traceId)), words: tokens(r.content as string) }));
  return lessons.filter((lesson) =>
    wanted.some(
      (w) => w.traces.has(lesson.evidence.traceId) && jaccard(w.words, tokens(lesson.content)) >= LESSON_MATCH,
    ),
  );
}

/** Rule ids listed in a Combee block (`- [id] …` lines). */
export function idsInBlock(text: string | undefined): string[] {
  const block = readManagedBlock(text);
  if (block === undefined) return [];
  return [...block.matchAll(/^\s*[-*]\s+\[([^\]\s]+)\]/gm)].map((m) => m[1]);
}

/**
 * Where each rule belongs: folders of nested AGENTS.md files already listing it, overridden by this run's rule
 * changes (their own scope, else their lesson's). Unknown → root (absent from the map).
 */
export function resolveScopes(input: {
  rules: RuleWithScope[];
  lessons: Lesson[];
  nestedFolders?: string[];
  readFile: (relPath: string) => string | undefined;
  fileName?: string;
}): Map<string, string> {
  const scopes = new Map<string, string>();
  for (const folder of input.nestedFolders ?? []) {
    const clean = normalizeScope(folder);
    if (!clean) continue;
    let ids: string[] = [];
    try {
      ids = idsInBlock(input.readFile(`${clean}/${input.fileName ?? 'AGENTS.md'}`));
    } catch {
      // a broken block is reported by the renderer
    }
    for (const id of ids) scopes.set(id, clean);
  }
  for (const rule of input.rules) {
    if (rule.op === 'REMOVE') continue;
    const scope = normalizeScope(rule.scope ?? lessonOf(rule, input.lessons)?.scope);
    if (scope) scopes.set(rule.id, scope);
  }
  return scopes;
}

// The AGENTS.md files.

export interface AgentsMdInput {
  playbook: Playbook;
  playbookPath: string;
  /** Rule id → workspace-relative folder; absent → the root AGENTS.md. */
  scopes: Map<string, string>;
  readFile: (relPath: string) => string | undefined;
  /** Folders whose AGENTS.md already has a Combee block: rendered even when no rule is left for them. */
  nestedFolders?: string[];
  budgetTokens?: number;
  fresh?: ReadonlySet<string>;
  /** This machine's counts: what the playbook's counters rank by, as far as they confirm them. */
  local?: LocalCounts;
  /** Distinct sessions of this proposal behind each rule it adds or rewords: what ranks them (see rankRules). */
  sessions?: ReadonlyMap<string, number>;
  /** The playbook holds rules kept out of the agents' files: the block does not point to it (see RulesBodyOptions). */
  holdsHeldRules?: boolean;
  warn?: (message: string) => void;
}

/** The file's path for a folder ('' is the root). */
function pathIn(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** A link to the playbook from a file in `folder`. */
export function playbookLinkFrom(folder: string, playbookPath: string): string {
  return folder ? posix.relative(folder, playbookPath) : playbookPath;
}

/**
 * Renders the Combee block of one Markdown file (AGENTS.md, CLAUDE.md, …) holding `rules`; no change when the file has
 * no block and there is nothing to put in one. Broken markers are reported through `warn` and leave the file alone.
 */
export function renderRulesFile(
  path: string,
  rules: SelectedRule[],
  title: string,
  options: {
    playbookPath: string;
    playbookLink?: string;
    budgetTokens?: number;
    showScope?: boolean;
    fresh?: ReadonlySet<string>;
    readFile: (relPath: string) => string | undefined;
    warn?: (message: string) => void;
  },
): FileChange | undefined {
  const current = options.readFile(path);
  try {
    const block = readManagedBlock(current, path);
    if (rules.length === 0 && block === undefined) return undefined;
    const body = renderRulesBody(
      rules,
      {
        title,
        playbookPath: options.playbookPath,
        playbookLink: options.playbookLink,
        budgetTokens: options.budgetTokens,
        fresh: options.fresh,
      },
      options.showScope,
    );
    reportLeaving(path, rules, block, body, options);
    return makeFileChange(
      path,
      current,
      upsertManagedBlock(current, body, {
        path,
        warn: options.warn,
        label: `generated by Combee from ${options.playbookPath}; edits inside this block are replaced`,
      }),
    );
  } catch (error) {
    if (!(error instanceof ManagedBlockError)) throw error;
    options.warn?.(error.message);
    return undefined;
  }
}

const CITED = /\[([^\]\s]+)\]/g;

/** A full block never drops a rule silently: the rules that were in it and leave it for this proposal's are named. */
function reportLeaving(
  path: string,
  rules: readonly SelectedRule[],
  before: string | undefined,
  after: string,
  options: { budgetTokens?: number; fresh?: ReadonlySet<string>; warn?: (message: string) => void },
): void {
  if (!options.warn || before === undefined || !options.fresh?.size) return;
  const shown = new Set([...after.matchAll(CITED)].map((m) => m[1]));
  const was = new Set([...before.matchAll(CITED)].map((m) => m[1]));
  const leaving = rules.filter((r) => was.has(r.bullet.id) && !shown.has(r.bullet.id)).map((r) => `[${r.bullet.id}]`);
  const missing = rules.filter((r) => options.fresh?.has(r.bullet.id) && !shown.has(r.bullet.id));
  const budget = options.budgetTokens ?? DEFAULT_RULES_BUDGET_TOKENS;
  if (leaving.length > 0)
    options.warn(
      `${path}: its rules block is full (${budget} tokens): ${leaving.join(', ')} ${leaving.length === 1 ? 'leaves' : 'leave'} it for better-evidenced rules this proposal adds (in the playbook still; raise combee.assets.rulesBudgetTokens to keep them)`,
    );
  if (missing.length > 0)
    options.warn(
      `${path}: ${missing.map((r) => `[${r.bullet.id}]`).join(', ')} ${missing.length === 1 ? 'does' : 'do'} not fit its rules block (${budget} tokens) beside better-evidenced rules: in the playbook only`,
    );
}

/** Root AGENTS.md for unscoped rules; `<folder>/AGENTS.md` for rules scoped to a folder. */
export function renderAgentsMd(input: AgentsMdInput): FileChange[] {
  const rules = playbookRules(input.playbook, (id) => input.scopes.get(id), input.local, input.sessions);
  const folders = new Set<string>([
    '',
    ...(input.nestedFolders ?? []),
    ...rules.flatMap((r) => (r.scope ? [r.scope] : [])),
  ]);
  const out: FileChange[] = [];
  for (const folder of [...folders].sort()) {
    const mine = rules.filter((r) => (r.scope ?? '') === folder);
    const title = folder ? `Learned rules for \`${folder}/\`` : 'Learned rules';
    const change = renderRulesFile(pathIn(folder, AGENTS_MD), mine, title, {
      playbookPath: input.playbookPath,
      playbookLink: input.holdsHeldRules ? undefined : playbookLinkFrom(folder, input.playbookPath),
      budgetTokens: input.budgetTokens,
      fresh: input.fresh,
      readFile: input.readFile,
      warn: input.warn,
    });
    if (change) out.push(change);
  }
  return out;
}
