import type { BulletTag, RuleCount } from '../../playbook/delta';
import { bullets, type Playbook } from '../../playbook/model';
import type { Trace } from '../../trace/model';
import { ruleEvidence } from './ruleEvidence';
import type { Reflection } from '../types';

// A rule's counters count sessions, each once. A session says something of the rules it had in play (the assets its
// agent loaded held them when it ran): the reflector's tags (model or offline) and the trace's own signals
// (ruleEvidence.ts). A (rule, session) pair counted by an earlier run — the same trace learned again, a resumed
// session, a fork of a counted one — is kept as evidence but adds nothing to the counters.

export type EvidenceTag = BulletTag['tag'];

/** One session's word on one rule, as the run record and the local ledger keep it. */
export interface EvidenceEntry {
  id: string;
  traceId: string;
  tag: EvidenceTag;
  /** Whether it added to the counters (false: neutral, violated, or counted before). */
  counted: boolean;
  reason?: string;
  /** The session's steps that show it, when the trace's signals found it. */
  steps?: number[];
  /** violated, the rule right: what the session ran instead and the rule's command that then passed (ruleEvidence.ts). */
  fix?: { ran: string; then: string };
  /** harmful, overruled: the user's message that asked for the other way. */
  correction?: string;
}

export interface RuleCounting {
  /** Ids of the rules the session had in play (see inPlay.ts); a rule the session cites is in play too. */
  inPlay(trace: Trace): ReadonlySet<string>;
  /** Whether an earlier run, or an earlier batch of this one, counted this session's word on this rule. */
  counted(ruleId: string, sessionKey: string): boolean;
  /** Told of each pair a batch counts, so that a later batch of the same run (a fork, say) does not count it again. */
  claim?(ruleId: string, sessionKey: string): void;
}

/** A fork counts as the session it was forked from; a resumed session keeps its id. */
export function sessionKey(trace: Pick<Trace, 'id' | 'parentId'>): string {
  return trace.parentId ?? trace.id;
}

/**
 * One tag per rule and session. The trace's verdict stands on steps (a command's exit code, where the user's message
 * came), so when it has one the reflector's tag does not override it — whatever the reflector says, a rule whose
 * command failed and that the user overruled gains no *helpful*, and one whose broken command failed as it says no
 * *harmful*. One exception: a reflector's `violated` over the trace's `helpful`, since the trace only sees that the
 * rule's commands ran, not in which order or manner. Where the trace has nothing (neutral, or not in play), the
 * reflector's tag is the word.
 */
function merge(fromReflector: BulletTag | undefined, fromTrace: BulletTag | undefined): BulletTag | undefined {
  const trace = fromTrace?.tag === 'neutral' ? undefined : fromTrace;
  const reflector = fromReflector?.tag === 'neutral' ? undefined : fromReflector;
  if (trace && reflector?.tag === 'violated' && trace.tag === 'helpful') return reflector;
  return trace ?? reflector ?? fromTrace ?? fromReflector;
}

/**
 * Each session's word on the rules of the playbook it was reflected with, and the counter increments of the pairs
 * not counted before. `traces` and `reflections` are one batch's (reflections by trace id).
 */
export function countBatch(
  traces: readonly Trace[],
  reflections: readonly Reflection[],
  playbook: Playbook,
  counting: RuleCounting,
): { counts: RuleCount[]; evidence: EvidenceEntry[] } {
  const rules = new Map(bullets(playbook).map((b) => [b.id, b]));
  const byTrace = new Map(reflections.map((r) => [r.traceId, r]));
  const seenThisRun = new Set<string>();
  const evidence: EvidenceEntry[] = [];
  const totals = new Map<string, RuleCount>();
  for (const trace of traces) {
    const reflection = byTrace.get(trace.id);
    if (!reflection) continue; // a failed reflection: the session is learned again later, counted then
    const tagged = new Map(reflection.tags.filter((t) => rules.has(t.id)).map((t) => [t.id, t]));
    const inPlay = [...new Set([...counting.inPlay(trace), ...tagged.keys()])].filter((id) => rules.has(id)).sort();
    const fromTrace = new Map(
      ruleEvidence(
        trace,
        inPlay.map((id) => ({ id, content: rules.get(id)?.content ?? '' })),
      ).map((e) => [e.id, e]),
    );
    const key = sessionKey(trace);
    for (const id of inPlay) {
      const signals = fromTrace.get(id);
      const tag = merge(tagged.get(id), signals && { id, tag: signals.tag, reason: signals.reason });
      if (!tag) continue;
      const pair = `${id}\n${key}`;
      const counts =
        (tag.tag === 'helpful' || tag.tag === 'harmful') && !seenThisRun.has(pair) && !counting.counted(id, key);
      if (tag.tag === 'helpful' || tag.tag === 'harmful') seenThisRun.add(pair);
      evidence.push({
        id,
        traceId: trace.id,
        tag: tag.tag,
        counted: counts,
        ...(tag.reason ? { reason: tag.reason } : {}),
        ...(signals && signals.tag === tag.tag && signals.steps.length > 0 ? { steps: signals.steps } : {}),
        ...(signals && signals.tag === tag.tag && signals.fix ? { fix: signals.fix } : {}),
        ...(signals && signals.tag === tag.tag && signals.correction ? { correction: signals.correction } : {}),
      });
      if (!counts) continue;
      counting.claim?.(id, key);
      const total = totals.get(id) ?? { id, helpful: 0, harmful: 0 };
      if (tag.tag === 'helpful') total.helpful++;
      else total.harmful++;
      totals.set(id, total);
    }
  }
  return { counts: [...totals.values()].sort((a, b) => a.id.localeCompare(b.id)), evidence };
}
