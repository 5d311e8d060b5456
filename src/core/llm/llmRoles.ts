import type { Delta, DeltaOp, Evidence } from '../playbook/delta';
import type { Playbook } from '../playbook/model';
import { bullets } from '../playbook/model';
import { condenseTrace, DEFAULT_CONDENSE_BUDGET } from '../trace/condense';
import type { Trace } from '../trace/model';
import type { AggregationInput, Aggregator, Lesson, Reflection, Reflector, RoleResult } from '../learn/types';
import type { LlmClient } from './client';
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
}

function unionSupport(sources: Source[]): Evidence[] {
  const byTrace = new Map<string, Set<number>>();
  for (const source of sources)
    for (const e of source.support) {
      const steps = byTrace.get(e.traceId) ?? new Set<number>();
      e.steps.forEach((s) => steps.add(s));
      byTrace.set(e.traceId, steps);
    }
  return [...byTrace].map(([traceId, steps]) => ({ traceId, steps: [...steps].sort((a, b) => a - b) }));
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

/** Local and global aggregation through a model; support is resolved from the cited labels by our code. */
export class LlmAggregator implements Aggregator {
  constructor(private readonly client: LlmClient) {}

  async aggregate(input: AggregationInput, playbook: Playbook, signal?: AbortSignal): Promise<RoleResult<Delta>> {
    const sources = new Map<string, Source>();
    if (input.reflections.length > 0) {
      // Duplicated reflections (augmented shuffle) show each lesson again under its own label: that is the point.
      let n = 0;
      for (const reflection of input.reflections)
        for (const lesson of reflection.lessons) {
          const label = `L${++n}`;
          sources.set(label, {
            item: {
              label,
              text: `[${lesson.kind}, ${lesson.section}${lesson.scope ? `, scope ${lesson.scope}` : ''}] ${lesson.content}`,
              sessions: 1,
            },
            support: [lesson.evidence],
          });
        }
    } else {
      input.deltas.forEach((delta, d) =>
        delta.ops.forEach((op, o) => {
          const label = `D${d + 1}.${o + 1}`;
          sources.set(label, {
            item: { label, text: describeOp(op), sessions: new Set(op.support.map((s) => s.traceId)).size },
            support: op.support,
          });
        }),
      );
    }
    const tags = [...input.reflections.flatMap((r) => r.tags), ...input.deltas.flatMap((d) => d.tags)];
    if (sources.size === 0)
      return { value: { ops: [], tags }, usage: { inputTokens: 0, outputTokens: 0, latencyMs: 0 }, warnings: [] };
    const items = [...sources.values()].map((s) => s.item);
    const messages =
      input.level === 'global' ? globalAggregationPrompt(items, playbook) : localAggregationPrompt(items, playbook);
    const response = await this.client.completeJson({
      messages,
      schema: AggregationAnswer,
      schemaName: 'delta',
      maxOutputTokens: 4000,
      signal,
    });
    const warnings = [...response.warnings];
    const ops: DeltaOp[] = [];
    for (const op of response.value.operations) {
      const cited = op.sources.map((label) => sources.get(label.trim())).filter((s): s is Source => s !== undefined);
      if (cited.length === 0) {
        warnings.push(`an ${op.type} operation citing no known source was dropped`);
        continue;
      }
      const support = unionSupport(cited);
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
    return { value: { ops, tags }, usage: response.usage, warnings };
  }
}
