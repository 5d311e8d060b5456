import type { DeltaOp, Evidence } from '../../playbook/delta';
import { nearDuplicateWords, tokens } from '../../playbook/similarity';
import type { RunRecord } from '../record/record';
import type { RuleStanding } from './ruleStanding';
import { sameJob } from './commandMatch';
import { ruleCommands } from './ruleEvidence';
import { purposeOf, requestedCommands } from './ruleText';

// What a rule's standing asks for, as operations to review like any learned change (never applied by themselves):
// a harmful rule is proposed for retiring, with the sessions it hurt — or, when the user overruled it naming the other
// way, for replacing by that correction; a stale one (in play in none of the last runs) for retiring too; one that
// sessions kept breaking, and then fixing by its own command, for rewording into a plain instruction. A pinned rule
// is the team's: none of this is proposed for it.

/** Sessions that broke a rule, failed, and then passed with its own command, before it is proposed for rewording. */
export const VIOLATIONS_TO_REWRITE = 3;
/** Sessions cited as the evidence of a proposal: enough to look at, not all of them. */
const MAX_SUPPORT = 5;

export interface LifecycleRule {
  id: string;
  content: string;
  helpful: number;
  harmful: number;
  pinned: boolean;
  standing: RuleStanding;
}

export interface Word {
  traceId: string;
  tag: string;
  reason?: string;
  steps?: number[];
  /** violated, the rule right: what the session ran instead and the rule's command that then passed. */
  fix?: { ran: string; then: string };
  /** harmful, overruled: the user's message that asked for the other way. */
  correction?: string;
}

/** Rules a run changed the wording of (an applied ADD, UPDATE or MERGE). */
function reworded(record: RunRecord): Set<string> {
  const ids = new Set<string>();
  for (const node of record.nodes) {
    if (node.kind !== 'apply' || !Array.isArray(node.detail)) continue;
    for (const entry of node.detail as Array<{ id?: unknown; op?: unknown; status?: unknown }>)
      if (entry.status === 'applied' && typeof entry.id === 'string' && entry.op !== 'REMOVE') ids.add(entry.id);
  }
  return ids;
}

/**
 * Every session's word on each rule since its wording last changed (what was said of older words says nothing of
 * these), over the runs, newest last; each session once, with its latest word.
 */
export function wordsByRule(records: readonly RunRecord[]): Map<string, Word[]> {
  const latest = new Map<string, Map<string, Word>>();
  const ordered = [...records].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  for (const record of ordered) {
    for (const batch of record.batches)
      for (const e of batch.evidence ?? []) {
        const byTrace = latest.get(e.id) ?? new Map<string, Word>();
        byTrace.set(e.traceId, {
          traceId: e.traceId,
          tag: e.tag,
          reason: e.reason,
          steps: e.steps,
          ...(e.fix ? { fix: e.fix } : {}),
          ...(e.correction ? { correction: e.correction } : {}),
        });
        latest.set(e.id, byTrace);
      }
    // the run's sessions had the old wording; the next run's have the new one (none yet: an empty list, not none)
    for (const id of reworded(record)) latest.set(id, new Map());
  }
  return new Map([...latest].map(([id, words]) => [id, [...words.values()]]));
}

function support(words: readonly Word[]): Evidence[] {
  return words.slice(-MAX_SUPPORT).map((w) => ({ traceId: w.traceId, steps: w.steps ?? [] }));
}

/** What a job is called in an instruction ("To install packages, always run …"). */
const JOBS: Readonly<Record<string, string>> = {
  install: 'install packages',
  test: 'run the tests',
  build: 'build',
  lint: 'lint',
  typecheck: 'type-check',
  format: 'format',
  codegen: 'generate code',
};

/** Sessions that broke the rule and were then fixed by its own command: the violations a rewording rests on. */
export function fixedViolations(words: readonly Word[]): Word[] {
  return words.filter((w) => w.tag === 'violated' && w.fix !== undefined);
}

/**
 * The rule as one plain instruction, built from its own parts: the one command it prescribes for the job the
 * sessions broke, and the one they ran instead for that job — "To install packages, always run `pnpm add`, never
 * `npm install`". Only from violations the rule's own command then fixed (VIOLATIONS_TO_REWRITE of one such pair);
 * undefined when no pair has that many, the two commands do not do one job, or the rule is worded so already.
 */
export function prescriptiveRewrite(content: string, violations: readonly Word[]): string | undefined {
  const { prescribed, forbidden } = ruleCommands(content);
  if (prescribed.length === 0 || /^(?:to [^,]+, )?always run `/i.test(content)) return undefined;
  const pairs = new Map<string, { ran: string; then: string; sessions: number }>();
  for (const { fix } of fixedViolations(violations)) {
    if (!fix) continue;
    // the rule's own command, or its tool's for the job when the rule names only the tool ("use pnpm")
    const own = prescribed.some((c) => c === fix.then || c === fix.then.split(' ')[0]);
    // or a command the rule names not to run beside its own ("never `cargo test`, use `cargo nextest run`")
    const named = forbidden.some((f) => f.includes(' ') && (f === fix.ran || f.startsWith(`${fix.ran} `)));
    const oneJob = sameJob(fix.ran, fix.then) || named;
    if (!own || !oneJob) continue;
    const key = `${fix.then}\n${fix.ran}`;
    const pair = pairs.get(key) ?? { ...fix, sessions: 0 };
    pair.sessions++;
    pairs.set(key, pair);
  }
  const best = [...pairs.values()].sort(
    (a, b) => b.sessions - a.sessions || a.then.localeCompare(b.then) || a.ran.localeCompare(b.ran),
  )[0];
  if (!best || best.sessions < VIOLATIONS_TO_REWRITE) return undefined;
  const job = JOBS[purposeOf(best.then) ?? purposeOf(best.ran) ?? ''];
  const instruction = `${job ? `To ${job}, always` : 'Always'} run \`${best.then}\`, never \`${best.ran}\` (it failed in ${best.sessions} sessions here).`;
  return `${instruction} ${content.trim()}`.slice(0, 600);
}

/** A user's correction as a rule: without the "No," it opened with, one line, a sentence. */
function asRule(correction: string): string {
  const body = correction
    .replace(/^\s*(?:no|nope|wrong|stop|wait|actually|hmm)\b[\s,.!:;—–-]*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = body.charAt(0).toUpperCase() + body.slice(1);
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

/**
 * What overruled a harmful rule: the corrections that asked for one other way (the way most of them asked for),
 * the latest of them as the rule's new wording. Undefined when no correction names another command.
 */
function overruling(hurt: readonly Word[]): { content: string; words: Word[] } | undefined {
  const byWay = new Map<string, Word[]>();
  for (const word of hurt) {
    const way = word.correction && requestedCommands(word.correction).prescribed[0];
    if (!way) continue;
    byWay.set(way, [...(byWay.get(way) ?? []), word]);
  }
  const [, words] = [...byWay].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))[0] ?? [];
  const latest = words?.at(-1)?.correction;
  return words && latest ? { content: asRule(latest), words } : undefined;
}

/**
 * The operations the rules' standing asks for, rule by rule in the playbook's order. `others` are the contents of the
 * playbook's rules (this run's additions among them): a correction one of them says already retires the rule it
 * overruled instead of rewording it into a copy.
 */
export function lifecycleOps(
  rules: readonly LifecycleRule[],
  words: ReadonlyMap<string, Word[]>,
  others: readonly string[] = rules.map((r) => r.content),
): DeltaOp[] {
  const ops: DeltaOp[] = [];
  for (const rule of rules) {
    if (rule.pinned) continue;
    const said = words.get(rule.id) ?? [];
    if (rule.standing.stage === 'harmful') {
      const hurt = said.filter((w) => w.tag === 'harmful');
      // reworded since the sessions it hurt (by this run, say): the counters judged a wording that is gone
      if (words.has(rule.id) && hurt.length === 0) continue;
      const reason = `harmful: tagged harmful ${rule.harmful}× against helpful ${rule.helpful}× (harmful ≥ helpful + 2)`;
      const replacement = overruling(hurt);
      const asked = replacement && tokens(replacement.content);
      const already = asked && others.some((c) => c !== rule.content && nearDuplicateWords(tokens(c), asked));
      if (replacement && !already) {
        // the user's way, in the rule's place; what was counted judged the old wording
        ops.push({
          op: 'UPDATE',
          id: rule.id,
          content: replacement.content,
          resetCounters: true,
          support: support(replacement.words),
        });
        continue;
      }
      ops.push({
        op: 'REMOVE',
        id: rule.id,
        reason: already ? `${reason}; the correction that overruled it is a rule already` : reason,
        support: support(hurt),
      });
      continue;
    }
    const content = prescriptiveRewrite(rule.content, said);
    if (content && content !== rule.content) {
      ops.push({ op: 'UPDATE', id: rule.id, content, support: support(fixedViolations(said)) });
      continue;
    }
    if (rule.standing.chips.includes('stale')) {
      ops.push({
        op: 'REMOVE',
        id: rule.id,
        reason: `stale: in play in none of the last ${rule.standing.runsWithoutEvidence} run(s)`,
        support: [],
      });
    }
  }
  return ops;
}
