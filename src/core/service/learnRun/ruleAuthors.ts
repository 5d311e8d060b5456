import {
  authoredChanges,
  cleanAuthor,
  UPKEEP_AUTHOR,
  type AuthoredChange,
  type RuleAuthor,
} from '../../playbook/authorMark';
import type { AppliedOp } from '../../playbook/apply';
import type { ProviderInfo } from '../../learn/types';
import { PROMPT_VERSION } from '../../llm/prompts';

/**
 * Who a run's rules are written by: the provider and model of the user's settings (what they chose and pay for, not
 * the name an endpoint answers with, which may be an alias or anything at all) and the prompt version. The offline
 * learner sends no prompt: its version is `none`.
 */
export function runAuthor(info: ProviderInfo): RuleAuthor {
  return cleanAuthor({
    provider: info.provider,
    model: info.model,
    promptVersion: info.provider === 'offline' ? 'none' : PROMPT_VERSION,
  });
}

/**
 * The proposal's rule changes with their author: the run's model for the rules its operations wrote (the first
 * `byModel` of `applied`), Combee's upkeep for those only the rules' standing or the budget changed after them.
 */
export function withAuthors<R extends { id: string; op: string }>(
  rules: readonly R[],
  applied: readonly AppliedOp[],
  byModel: number,
  author: RuleAuthor,
): Array<R & { author?: RuleAuthor }> {
  const ids = (list: readonly AppliedOp[]) =>
    new Set(list.filter((a) => a.status === 'applied' && a.id).map((a) => a.id as string));
  const model = ids(applied.slice(0, byModel));
  const upkeep = ids(applied.slice(byModel));
  return rules.map((r) => {
    if (r.op === 'REMOVE') return r;
    if (model.has(r.id)) return { ...r, author };
    return upkeep.has(r.id) ? { ...r, author: UPKEEP_AUTHOR } : r;
  });
}

/** The rules a run's operations changed, by id, with the run's author (an ADD stays an ADD when later ops edit it). */
export function modelChanges(applied: readonly AppliedOp[], author: RuleAuthor): Map<string, AuthoredChange> {
  const rules: Array<{ id: string; op: string; author: RuleAuthor }> = [];
  const seen = new Set<string>();
  for (const a of applied)
    if (a.status === 'applied' && a.id && !seen.has(a.id)) {
      seen.add(a.id);
      rules.push({ id: a.id, op: a.op.op, author });
    }
  return authoredChanges(rules);
}
