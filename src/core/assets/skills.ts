import { posix } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import type { RunRecord } from '../learn/record/record';
import { Reflection, type Lesson } from '../learn/types';
import { bullets, findBullet, type Playbook } from '../playbook/model';
import { jaccard, tokens } from '../playbook/similarity';
import { ManagedBlockError, readManagedBlock, upsertManagedBlock } from './managedBlock';
import { makeFileChange, type FileChange } from './proposal';
import { lessonOf, type RuleWithScope } from './agentsMd';
import { procedureSteps, skillRejection } from './skillGate';
import { MAX_DESCRIPTION_LENGTH, SKILL_FILE, splitFrontMatter, toSkillName, validateSkill } from './skillSpec';

export const DEFAULT_SKILL_ROOT = '.claude/skills';
export const SKILL_ROOTS = ['.claude/skills', '.github/skills', '.agents/skills'] as const;

/** Two procedures describe one task when their commands, or their words, mostly overlap. */
const SAME_TASK = 0.5;
/** A step cites the playbook rule most similar to it, when at least this similar. */
const RULE_MATCH = 0.5;
/** Words of a command that say nothing about the task. */
const RUNNER_WORDS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'npx',
  'bun',
  'bunx',
  'run',
  'exec',
  'python',
  'python3',
  'uv',
  'poetry',
  'cargo',
  'go',
  'make',
  'sudo',
  'env',
]);

export interface SkillStep {
  text: string;
  ruleIds: string[];
}

export interface SkillDraft {
  name: string;
  description: string;
  steps: SkillStep[];
  /** Sessions the procedure was seen in. */
  sessions: number;
}

export interface SkillsInput {
  playbook: Playbook;
  playbookPath: string;
  lessons: Lesson[];
  rules: RuleWithScope[];
  /** Skill roots, e.g. ['.claude/skills']. */
  roots: string[];
  readFile: (relPath: string) => string | undefined;
  /** Folder names inside a folder (workspace-relative); lets an existing skill about the same rules be updated. */
  listDir?: (relPath: string) => string[];
  /** Sessions a procedure must recur in (default 2). */
  minSessions?: number;
  warn?: (message: string) => void;
}

/** The lessons of a run, from its reflection nodes. */
export function lessonsFromRecord(record: RunRecord): Lesson[] {
  return record.nodes.flatMap((node) => {
    if (node.kind !== 'reflection' || node.status !== 'ok') return [];
    const parsed = Reflection.safeParse(node.detail);
    return parsed.success ? parsed.data.lessons : [];
  });
}

/** Code spans in order of appearance, as written. */
function codeSpans(text: string): string[] {
  return (text.match(/`[^`]+`/g) ?? []).map((c) => c.slice(1, -1).trim()).filter(Boolean);
}

function commands(text: string): Set<string> {
  return new Set(codeSpans(text).map((c) => c.toLowerCase()));
}

/** Same leading command (the action of "run X before Y"), mostly the same commands, or mostly the same words. */
function sameTask(a: Lesson, b: Lesson): boolean {
  const ca = commands(a.content);
  const cb = commands(b.content);
  if (ca.size > 0 && cb.size > 0 && ([...ca][0] === [...cb][0] || jaccard(ca, cb) >= SAME_TASK)) return true;
  return jaccard(tokens(a.content), tokens(b.content)) >= SAME_TASK;
}

/** Procedure lessons grouped by task (single linkage); only groups seen in at least `minSessions` sessions. */
export function clusterProcedures(lessons: Lesson[], minSessions = 2): Lesson[][] {
  const procedures = lessons.filter((l) => l.kind === 'procedure');
  const parent = procedures.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  for (let i = 0; i < procedures.length; i++) {
    for (let j = i + 1; j < procedures.length; j++)
      if (sameTask(procedures[i], procedures[j])) parent[root(j)] = root(i);
  }
  const groups = new Map<number, Lesson[]>();
  procedures.forEach((lesson, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), lesson]));
  return [...groups.values()].filter(
    (g) => g.length >= 2 && new Set(g.map((l) => l.evidence.traceId)).size >= Math.max(1, minSessions),
  );
}

function ruleIdsFor(step: readonly Lesson[], input: Pick<SkillsInput, 'playbook' | 'rules' | 'lessons'>): string[] {
  const ids = new Set<string>();
  for (const rule of input.rules) {
    if (rule.op === 'REMOVE') continue;
    const lesson = lessonOf(rule, input.lessons);
    if (lesson && step.includes(lesson) && findBullet(input.playbook, rule.id)) ids.add(rule.id);
  }
  if (ids.size > 0) return [...ids];
  // The lesson may have been folded into a rule an earlier run added.
  const words = tokens(step[0].content);
  let best: { id: string; score: number } | undefined;
  for (const bullet of bullets(input.playbook)) {
    const score = jaccard(words, tokens(bullet.content));
    if (score >= RULE_MATCH && (!best || score > best.score)) best = { id: bullet.id, score };
  }
  return best ? [best.id] : [];
}

/** The cluster's commands, most frequent first (ties: first seen), in their first-seen spelling. */
function topCommands(cluster: readonly Lesson[]): string[] {
  const counts = new Map<string, { text: string; count: number }>();
  for (const lesson of cluster) {
    for (const span of new Set(codeSpans(lesson.content))) {
      const entry = counts.get(span.toLowerCase()) ?? { text: span, count: 0 };
      entry.count++;
      counts.set(span.toLowerCase(), entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count).map((e) => e.text);
}

function skillName(cluster: Lesson[], top: string[]): string {
  const words: string[] = [];
  for (const command of top.slice(0, 2)) {
    for (const word of command.toLowerCase().split(/[^a-z0-9]+/))
      if (word && !RUNNER_WORDS.has(word) && !words.includes(word)) words.push(word);
  }
  const fallback = [...tokens(cluster[0].content)]
    .filter((w) => !w.startsWith('`'))
    .slice(0, 4)
    .join(' ');
  return toSkillName(words.slice(0, 5).join(' ') || fallback);
}

function describe(top: string[], steps: SkillStep[], sessions: number): string {
  const shown = top.slice(0, 2).map((c) => `\`${c}\``);
  const what =
    shown.length > 0
      ? `Steps for running ${shown.join(' and ')} in this repository`
      : `Steps for a recurring task in this repository ("${steps[0].text}")`;
  const when =
    shown.length > 0
      ? `Use when a task involves ${shown.join(' or ')}, or when one of them fails.`
      : 'Use when doing this task.';
  const text = `${what}, learned from ${sessions} agent sessions. ${when}`.replace(/[<>]/g, '');
  return text.length <= MAX_DESCRIPTION_LENGTH ? text : `${text.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;
}

/** A recurring procedure that is no Skill, and why (see skillGate.ts). */
export interface RejectedSkill {
  name: string;
  reason: string;
}

/**
 * One draft per recurring procedure that passes the gate (several distinct steps, not one rule restated, two or more
 * sessions): its steps (one per action, first-seen order) and their rule ids; the others with why they are none.
 */
export function skillDrafts(input: Pick<SkillsInput, 'playbook' | 'rules' | 'lessons' | 'minSessions'>): {
  drafts: SkillDraft[];
  rejected: RejectedSkill[];
} {
  const drafts: SkillDraft[] = [];
  const rejected: RejectedSkill[] = [];
  const minSessions = input.minSessions ?? 2;
  for (const cluster of clusterProcedures(input.lessons, minSessions)) {
    const found = procedureSteps(cluster).map((step) => ({ ...step, ruleIds: ruleIdsFor(step.lessons, input) }));
    const kept = found.flatMap((step) => step.lessons);
    const top = topCommands(kept.length > 0 ? kept : cluster);
    let name = skillName(cluster, top);
    for (let n = 2; drafts.some((d) => d.name === name); n++) name = toSkillName(`${skillName(cluster, top)} ${n}`);
    const reason = skillRejection(found, minSessions);
    if (reason) {
      rejected.push({ name, reason });
      continue;
    }
    const steps = found.map((step) => ({
      text: step.lessons[0].content.replace(/\s*\n+\s*/g, ' ').trim(),
      ruleIds: step.ruleIds,
    }));
    const sessions = new Set(kept.map((l) => l.evidence.traceId)).size;
    drafts.push({ name, description: describe(top, steps, sessions), steps, sessions });
  }
  return { drafts, rejected };
}

/** The Skills to propose (see skillDrafts). */
export function draftSkills(input: Pick<SkillsInput, 'playbook' | 'rules' | 'lessons' | 'minSessions'>): SkillDraft[] {
  return skillDrafts(input).drafts;
}

function blockBody(draft: SkillDraft, playbookLink: string, playbookPath: string): string {
  const lines = [
    `Learned by Combee from ${draft.sessions} agent sessions in this repository; the rules behind each step are in [${playbookPath}](${playbookLink}). Cite a step's rule id (e.g. "[${draft.steps.flatMap((s) => s.ruleIds)[0] ?? 'bat-00003'}]") when you follow it.`,
    '',
    '## Steps',
    '',
    ...draft.steps.map(
      (s, i) => `${i + 1}. ${s.text}${s.ruleIds.length > 0 ? ` ${s.ruleIds.map((id) => `[${id}]`).join(' ')}` : ''}`,
    ),
  ];
  return lines.join('\n');
}

function title(name: string): string {
  const words = name.split('-').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const BLOCK_LABEL = 'generated by Combee; edits inside this block are replaced';

/**
 * The SKILL.md for a draft. An existing file keeps its front matter (user fields and wording win; only a missing
 * name or description is filled in) and everything outside the Combee block of its body.
 */
export function renderSkillFile(
  draft: SkillDraft,
  folderName: string,
  current: string | undefined,
  playbookLink: string,
  playbookPath: string,
  warn?: (message: string) => void,
): string {
  const body = blockBody(draft, playbookLink, playbookPath);
  if (current === undefined) {
    const head = stringify({ name: folderName, description: draft.description }, { lineWidth: 0 });
    return `---\n${head}---\n\n# ${title(folderName)}\n\n${upsertManagedBlock(undefined, body, { label: BLOCK_LABEL })}`;
  }
  const split = splitFrontMatter(current);
  if (!split) {
    const head = stringify({ name: folderName, description: draft.description }, { lineWidth: 0 });
    return `---\n${head}---\n\n${upsertManagedBlock(current, body, { label: BLOCK_LABEL, path: `${folderName}/${SKILL_FILE}`, warn })}`;
  }
  let head = split.head;
  const doc = parseDocument(split.yaml);
  if (doc.errors.length === 0 && (!doc.has('name') || !doc.has('description'))) {
    if (!doc.has('name')) doc.set('name', folderName);
    if (!doc.has('description')) doc.set('description', draft.description);
    const eol = split.head.includes('\r\n') ? '\r\n' : '\n';
    head = `---${eol}${doc.toString({ lineWidth: 0 }).replace(/\n/g, eol)}---${eol}`;
  }
  return head + upsertManagedBlock(split.body, body, { label: BLOCK_LABEL, path: `${folderName}/${SKILL_FILE}`, warn });
}

const RULE_ID = /\[([a-z][a-z0-9]*-\d+)\]/g;

/** An existing skill under `root` whose Combee block cites one of the draft's rules: the same task, so update it. */
function existingFolder(draft: SkillDraft, root: string, input: SkillsInput): string | undefined {
  const ids = new Set(draft.steps.flatMap((s) => s.ruleIds));
  if (ids.size === 0 || !input.listDir) return undefined;
  for (const folder of input.listDir(root).sort()) {
    let block: string | undefined;
    try {
      block = readManagedBlock(input.readFile(`${root}/${folder}/${SKILL_FILE}`));
    } catch {
      continue;
    }
    if (block && [...block.matchAll(RULE_ID)].some((m) => ids.has(m[1]))) return folder;
  }
  return undefined;
}

/** `<root>/<name>/SKILL.md` for each recurring procedure, in every root; new skills that fail the spec are not proposed. */
export function renderSkills(input: SkillsInput): FileChange[] {
  const out: FileChange[] = [];
  for (const draft of draftSkills(input)) {
    for (const rawRoot of input.roots) {
      const root = rawRoot.replace(/\\/g, '/').replace(/\/+$/, '');
      const folder = existingFolder(draft, root, input) ?? draft.name;
      const path = `${root}/${folder}/${SKILL_FILE}`;
      const current = input.readFile(path);
      let next: string;
      try {
        next = renderSkillFile(
          draft,
          folder,
          current,
          posix.relative(`${root}/${folder}`, input.playbookPath),
          input.playbookPath,
          input.warn,
        );
      } catch (error) {
        if (!(error instanceof ManagedBlockError)) throw error;
        input.warn?.(error.message);
        continue;
      }
      const problems = validateSkill(next, folder);
      if (problems.length > 0) {
        input.warn?.(`${path}: ${problems.join('; ')}`);
        if (current === undefined) continue;
      }
      const change = makeFileChange(path, current, next);
      if (change) out.push(change);
    }
  }
  return out;
}
