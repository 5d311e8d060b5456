import type { DeltaOp, Evidence } from '../playbook/delta';
import type { Playbook } from '../playbook/model';
import { bullets } from '../playbook/model';
import { condenseTrace, DEFAULT_CONDENSE_BUDGET } from '../trace/condense';
import type { Trace } from '../trace/model';
import { AGGREGATION_MAX_OUTPUT_TOKENS, DEFAULT_AGGREGATION_CAPACITY_TOKENS } from '../learn/capacity/capacity';
import type {
  AggregationCapacity,
  AggregationInput,
  AggregationResult,
  Aggregator,
  ItemOutcome,
  ItemRef,
  Lesson,
  Reflection,
  Reflector,
  RoleResult,
} from '../learn/types';
import { isTaskRequest } from '../learn/rules/gates/taskRequest';
import { unionSupport } from '../playbook/support';
import { countTokens } from '../util/tokens';
import type { ChatMessage, LlmClient } from './client';
import { globalAggregationPrompt, localAggregationPrompt, reflectionPrompt, type LabelledItem } from './prompts';
import { AggregationAnswer, ReflectionAnswer } from './schemas';

/** Map step through a model: the condensed session in, lessons grounded in real step numbers out. */
export class LlmReflector implements Reflector {
  constructor(
    private readonly client: LlmClient,
    private readonly budgetTokens = DEFAULT_CONDENSE_BUDGET,
  ) {}

  async reflect(trace: Trace, playbook: Playbook, signal?: AbortSignal): Promise<RoleResult<Reflection>> {
    const condensed = condenseTrace(trace, this.budgetTokens);
    const response = await this.client.completeJson({
      messages: reflectionPrompt(condensed.text, playbook),
      schema: ReflectionAnswer,
      schemaName: 'reflection',
      maxOutputTokens: 2500,
      signal,
    });
    const warnings = [...response.warnings];
    const stepCount = trace.steps.length;
    const lessons: Lesson[] = [];
    for (const lesson of response.value.lessons) {
      const steps = [...new Set(lesson.evidence_steps.filter((n) => n < stepCount))].sort((a, b) => a - b);
      if (steps.length === 0) {
        warnings.push(`${trace.id}: a lesson citing no real step was dropped`);
        continue;
      }
      // the generality check: one piece of work asked for in this session is not a rule (learn/rules/gates/taskRequest.ts)
      if (isTaskRequest(lesson.content)) {
        warnings.push(`${trace.id}: a lesson that is a task request, not a standing rule, was dropped`);
        continue;
      }
      lessons.push({
        section: lesson.section,
        content: lesson.content,
        kind: lesson.kind,
        scope: lesson.scope || undefined,
        evidence: { traceId: trace.id, steps },
      });
    }
    const ids = new Set(bullets(playbook).map((b) => b.id));
    const tags = response.value.bullet_tags.filter((t) => ids.has(t.id));
    return { value: { traceId: trace.id, lessons, tags }, usage: response.usage, warnings };
  }
}

interface Source {
  item: LabelledItem;
  support: Evidence[];
  ref: ItemRef;
}

/** The labelled items of an aggregation call and the prompt that shows them (what `aggregate` sends, what `measure` counts). */
function aggregationRequest(
  input: AggregationInput,
  playbook: Playbook,
): { sources: Map<string, Source>; messages: ChatMessage[] } {
  const sources = new Map<string, Source>();
  if (input.reflections.length > 0) {
    // Duplicated reflections (augmented shuffle) show each lesson again under its own label: that is the point.
    let n = 0;
    input.reflections.forEach((reflection, r) =>
      reflection.lessons.forEach((lesson, l) => {
        const label = `L${++n}`;
        sources.set(label, {
          item: {
            label,
            text: `[${lesson.kind}, ${lesson.section}${lesson.scope ? `, scope ${lesson.scope}` : ''}] ${lesson.content}`,
            sessions: 1,
          },
          support: [lesson.evidence],
          ref: { reflection: r, lesson: l },
        });
      }),
    );
  } else {
    input.deltas.forEach((delta, d) =>
      delta.ops.forEach((op, o) => {
        const label = `D${d + 1}.${o + 1}`;
        sources.set(label, {
          item: { label, text: describeOp(op), sessions: new Set(op.support.map((s) => s.traceId)).size },
          support: op.support,
          ref: { delta: d, op: o },
        });
      }),
    );
  }
  const items = [...sources.values()].map((s) => s.item);
  const messages =
    sources.size === 0
      ? []
      : input.level === 'global'
        ? globalAggregationPrompt(items, playbook)
        : localAggregationPrompt(items, playbook);
  return { sources, messages };
}

function describeOp(op: DeltaOp): string {
  switch (op.op) {
    case 'ADD':
      return `ADD to "${op.section}": ${op.content}${op.scope ? ` (scope ${op.scope})` : ''}`;
    case 'UPDATE':
      return `UPDATE ${op.id}: ${op.content}`;
    case 'MERGE':
      return `MERGE ${op.ids.join(', ')}: ${op.content}`;
    case 'REMOVE':
      return `REMOVE ${op.id}: ${op.reason}`;
  }
}

/** What an operation's JSON adds to its text in an answer: its type, section, kind and the labels it cites. */
const OPERATION_SYNTAX_TOKENS = 30;

/** The tokens an answer takes when every distinct item of the input becomes an operation of its own. */
function answerTokens(input: AggregationInput): number {
  const texts = new Set([
    ...input.reflections.flatMap((r) => r.lessons.map((l) => l.content)),
    ...input.deltas.flatMap((d) => d.ops.map((op) => (op.op === 'REMOVE' ? op.reason : op.content))),
  ]);
  let tokens = 0;
  for (const text of texts) tokens += countTokens(text) + OPERATION_SYNTAX_TOKENS;
  return tokens;
}

/** Local and global aggregation through a model; support is resolved from the cited labels by our code. */
export class LlmAggregator implements Aggregator {
  readonly capacity: AggregationCapacity;

  /** `capacityTokens`: how large one call's prompt may be before the model starts to lose items (see capacity.ts). */
  constructor(
    private readonly client: LlmClient,
    capacityTokens = DEFAULT_AGGREGATION_CAPACITY_TOKENS,
  ) {
    this.capacity = {
      budgetTokens: capacityTokens,
      measure: (input, playbook) => {
        const { messages } = aggregationRequest(input, playbook);
        return messages.reduce((sum, m) => sum + countTokens(m.content), 0);
      },
      answer: { limitTokens: AGGREGATION_MAX_OUTPUT_TOKENS, estimate: answerTokens },
    };
  }

  async aggregate(input: AggregationInput, playbook: Playbook, signal?: AbortSignal): Promise<AggregationResult> {
    const { sources, messages } = aggregationRequest(input, playbook);
    const tags = [...input.reflections.flatMap((r) => r.tags), ...input.deltas.flatMap((d) => d.tags)];
    if (sources.size === 0)
      return {
        value: { ops: [], tags },
        usage: { inputTokens: 0, outputTokens: 0, latencyMs: 0, notSent: true },
        warnings: [],
      };
    const response = await this.client.completeJson({
      messages,
      schema: AggregationAnswer,
      schemaName: 'delta',
      maxOutputTokens: AGGREGATION_MAX_OUTPUT_TOKENS,
      signal,
    });
    const warnings = [...response.warnings];
    const ops: DeltaOp[] = [];
    const fates = new Fates();
    for (const op of response.value.operations) {
      const labels = op.sources.map((label) => label.trim()).filter((label) => sources.has(label));
      const cited = labels.map((label) => sources.get(label) as Source);
      if (cited.length === 0) {
        warnings.push(`an ${op.type} operation citing no known source was dropped`);
        continue;
      }
      fates.cite(labels);
      const support = unionSupport(...cited.map((s) => s.support));
      switch (op.type) {
        case 'ADD':
          ops.push({
            op: 'ADD',
            section: op.section,
            content: op.content,
            kind: op.kind,
            scope: op.scope || undefined,
            support,
          });
          break;
        case 'UPDATE':
          ops.push({ op: 'UPDATE', id: op.id, content: op.content, support });
          break;
        case 'MERGE':
          ops.push({ op: 'MERGE', ids: op.ids, content: op.content, support });
          break;
        case 'REMOVE':
          ops.push({ op: 'REMOVE', id: op.id, reason: op.reason, support });
          break;
      }
    }
    for (const { sources: labels, reason } of response.value.rejected) fates.reject(labels, reason);
    return { value: { ops, tags }, usage: response.usage, warnings, items: fates.outcomes(sources) };
  }
}

/** What the answer did with each label it was given (see ItemFate). */
class Fates {
  private readonly alone = new Set<string>();
  private readonly together = new Set<string>();
  private readonly rejected = new Map<string, string>();

  cite(labels: string[]): void {
    const distinct = [...new Set(labels)];
    for (const label of distinct) (distinct.length === 1 ? this.alone : this.together).add(label);
  }

  reject(labels: string[], reason: string): void {
    for (const label of labels) if (!this.rejected.has(label)) this.rejected.set(label, reason);
  }

  outcomes(sources: ReadonlyMap<string, Source>): ItemOutcome[] {
    // a repeat of an item that was used (the augmented shuffle's copies, a lesson two sessions gave alike) is merged
    const usedTexts = new Set(
      [...sources].filter(([label]) => this.alone.has(label) || this.together.has(label)).map(([, s]) => s.item.text),
    );
    return [...sources].map(([label, { item, ref }]): ItemOutcome => {
      const outcome = { ref, label, text: item.text, sessions: item.sessions };
      if (this.alone.has(label)) return { ...outcome, fate: 'kept' };
      if (this.together.has(label) || usedTexts.has(item.text)) return { ...outcome, fate: 'merged' };
      const reason = this.rejected.get(label);
      return reason ? { ...outcome, fate: 'rejected', reason } : { ...outcome, fate: 'dropped' };
    });
  }
}
