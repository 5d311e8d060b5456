import type { DeltaOp, Evidence } from '../playbook/delta';
import type { RunRecord } from './record';
import type { RuleStanding } from './ruleStanding';
import { ruleCommands } from './ruleEvidence';

// What a rule's standing asks for, as operations to review like any learned change (never applied by themselves):
// a harmful rule is proposed for retiring, with the sessions it hurt; a stale one (in play in none of the last runs)
// for retiring too; one that sessions keep breaking for rewording into a plain instruction. A pinned rule is the
// team's: none of this is proposed for it.

/** Sessions that broke a rule before it is proposed for rewording. */
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

interface Word {
  traceId: string;
  tag: string;
  reason?: string;
  steps?: number[];
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
        byTrace.set(e.traceId, { traceId: e.traceId, tag: e.tag, reason: e.reason, steps: e.steps });
        latest.set(e.id, byTrace);
      }
    // the run's sessions had the old wording; the next run's have the new one
    for (const id of reworded(record)) latest.delete(id);
  }
  return new Map([...latest].map(([id, words]) => [id, [...words.values()]]));
}

function support(words: readonly Word[]): Evidence[] {
  return words.slice(-MAX_SUPPORT).map((w) => ({ traceId: w.traceId, steps: w.steps ?? [] }));
}

/** The tool and subcommand a violation's reason names (`the session ran \`npm install lodash\`, …` → `npm install`). */
function violatingCommand(word: Word): string | undefined {
  const command = /`([^`]+)`/.exec(word.reason ?? '')?.[1];
  const words = (command ?? '').split(/\s+/).filter((w) => w && !/^[A-Z_][A-Z0-9_]*=/.test(w));
  if (words.length === 0) return undefined;
  return /^[a-z][\w:-]*$/.test(words[1] ?? '') ? `${words[0]} ${words[1]}` : words[0];
}

/**
 * The rule as a plain instruction: the command it prescribes first, then what the sessions kept running instead.
 * Undefined when the rule names no command to prescribe (its wording is left to the user or a model).
 */
export function prescriptiveRewrite(content: string, violations: readonly Word[]): string | undefined {
  const { prescribed } = ruleCommands(content);
  // worded as an instruction already (by an earlier rewrite, or by the team): another prefix would not help
  if (prescribed.length === 0 || /^Always run `/.test(content)) return undefined;
  const seen = new Map<string, number>();
  for (const word of violations) {
    const command = violatingCommand(word);
    if (command) seen.set(command, (seen.get(command) ?? 0) + 1);
  }
  const instead = [...seen].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  const run = prescribed.map((c) => `\`${c}\``).join(', then ');
  const not = instead ? `, never \`${instead}\` (sessions here kept running it)` : '';
  return `Always run ${run}${not}. ${content.trim()}`.slice(0, 600);
}

/** The operations the rules' standing asks for, rule by rule in the playbook's order. */
export function lifecycleOps(rules: readonly LifecycleRule[], words: ReadonlyMap<string, Word[]>): DeltaOp[] {
  const ops: DeltaOp[] = [];
  for (const rule of rules) {
    if (rule.pinned) continue;
    const said = words.get(rule.id) ?? [];
    if (rule.standing.stage === 'harmful') {
      const hurt = said.filter((w) => w.tag === 'harmful');
      ops.push({
        op: 'REMOVE',
        id: rule.id,
        reason: `harmful: tagged harmful ${rule.harmful}× against helpful ${rule.helpful}× (harmful ≥ helpful + 2)`,
        support: support(hurt),
      });
      continue;
    }
    const broken = said.filter((w) => w.tag === 'violated');
    if (broken.length >= VIOLATIONS_TO_REWRITE) {
      const content = prescriptiveRewrite(rule.content, broken);
      if (content && content !== rule.content) {
        ops.push({ op: 'UPDATE', id: rule.id, content, support: support(broken) });
        continue;
      }
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
