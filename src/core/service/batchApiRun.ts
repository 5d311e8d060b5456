import type { Reflection, Reflector, RoleResult } from '../learn/types';
import { REFLECTION_SET_FORMAT, REFLECTION_SET_VERSION, type ReflectionSet } from '../learn/reflectionSet';
import type { BatchAnswer, BatchApiClient, BatchLine, BatchStatus } from '../llm/batchApi';
import { LlmOutputError, type LlmClient } from '../llm/client';
import { completeJsonWithRepair } from '../llm/jsonCompletion';
import { LlmReflector } from '../llm/llmRoles';
import { chatRequestBody } from '../llm/openaiClient';
import type { Playbook } from '../playbook/model';
import type { BatchRun } from '../store/batchRuns';
import type { Trace } from '../trace/model';
import { redactText } from '../trace/redact';
import { learnWorkspace, type LearnWorkspaceOptions } from './learnWorkspace';

// The map phase on the provider's Batch API: every reflection request is written down exactly as the live client
// would send it, uploaded as one batch, and its answers are later read through the same reflector code, so a
// lesson comes out as it would have from a live call. What the batch did not answer well is made live afterwards.

export interface BatchEndpoint {
  client: BatchApiClient;
  baseUrl: string;
  model: string;
  /** Condensed-session budget of the live reflector (the same prompt). */
  condenseBudgetTokens?: number;
  /** USD per million tokens at the live price; the Batch API is billed at half of it. */
  prices?: { input: number; output: number };
}

const CAPTURED = Symbol('captured');

/** A reflector that sends nothing: it writes down the request the live one would make, then returns no lessons. */
class RequestCapture implements Reflector {
  readonly lines: BatchLine[] = [];
  constructor(private readonly endpoint: BatchEndpoint) {}

  async reflect(trace: Trace, playbook: Playbook): Promise<RoleResult<Reflection>> {
    const client: LlmClient = {
      info: { provider: 'openai', model: this.endpoint.model },
      completeJson: (request) => {
        this.lines.push({
          customId: trace.id,
          body: chatRequestBody({ model: this.endpoint.model }, request.messages, request),
        });
        throw CAPTURED;
      },
    };
    try {
      await new LlmReflector(client, this.endpoint.condenseBudgetTokens).reflect(trace, playbook);
    } catch (error) {
      if (error !== CAPTURED) throw error;
    }
    return {
      value: { traceId: trace.id, lessons: [], tags: [] },
      usage: { inputTokens: 0, outputTokens: 0, latencyMs: 0 },
      warnings: [],
    };
  }
}

/** Selects the run's sessions as `learn` would and submits one reflection request per session. */
export async function submitReflections(
  options: Omit<LearnWorkspaceOptions, 'mapOnly' | 'precomputed' | 'reflector'>,
  endpoint: BatchEndpoint,
  argv: string[],
): Promise<{ sessions: number; run?: BatchRun }> {
  const capture = new RequestCapture(endpoint);
  const selected = await learnWorkspace({ ...options, reflector: capture, mapOnly: {} });
  const set = selected.reflections;
  if (!set || capture.lines.length === 0) return { sessions: 0 };
  const { batchId, inputFileId } = await endpoint.client.submit(
    capture.lines,
    { combee: 'reflections' },
    options.signal,
  );
  return {
    sessions: capture.lines.length,
    run: {
      version: 1,
      batchId,
      inputFileId,
      baseUrl: endpoint.baseUrl,
      model: endpoint.model,
      playbookSha: set.playbookSha,
      traceIds: capture.lines.map((l) => l.customId),
      argv,
      status: 'submitted',
    },
  };
}

/** The batch's answers as a reflection set; an answer that is missing, failed or invalid is said and left out. */
export async function collectReflections(
  run: BatchRun,
  status: BatchStatus,
  traces: ReadonlyMap<string, Trace>,
  playbook: Playbook,
  endpoint: BatchEndpoint,
  signal?: AbortSignal,
): Promise<{ set: ReflectionSet; warnings: string[] }> {
  const results = await endpoint.client.results(status, run.traceIds, signal);
  const warnings = [...results.warnings];
  const reflections: ReflectionSet['reflections'] = [];
  const failed: ReflectionSet['failed'] = [...results.failed].map(([traceId, reason]) => ({ traceId, reason }));
  for (const traceId of run.traceIds) {
    const answer = results.answers.get(traceId);
    const trace = traces.get(traceId);
    if (!answer) continue;
    if (!trace) {
      failed.push({ traceId, reason: 'the session is no longer in the store' });
      continue;
    }
    try {
      const result = await new LlmReflector(answered(answer, endpoint), endpoint.condenseBudgetTokens).reflect(
        trace,
        playbook,
      );
      reflections.push({ traceId, reflection: result.value, usage: result.usage, warnings: result.warnings });
    } catch (error) {
      failed.push({ traceId, reason: redactText((error as Error).message) });
    }
  }
  if (failed.length > 0)
    warnings.push(
      `${failed.length} of ${run.traceIds.length} reflection(s) of batch ${run.batchId} have no usable answer (${summarize(failed)}): they are made directly`,
    );
  return {
    set: {
      format: REFLECTION_SET_FORMAT,
      version: REFLECTION_SET_VERSION,
      playbookSha: run.playbookSha,
      provider: 'openai',
      model: run.model,
      traceIds: run.traceIds,
      reflections,
      failed,
    },
    warnings,
  };
}

/** A client whose one answer is the batch's: checked against the schema as a live answer is; no repair by batch. */
function answered(answer: BatchAnswer, endpoint: BatchEndpoint): LlmClient {
  return {
    info: { provider: 'openai', model: endpoint.model },
    completeJson: (request) => {
      let asked = false;
      return completeJsonWithRepair(request, async (_messages, _warnings, usage) => {
        if (asked) throw new LlmOutputError(`the batch's ${request.schemaName} answer is not valid`);
        asked = true;
        usage.inputTokens += answer.usage.inputTokens;
        usage.outputTokens += answer.usage.outputTokens;
        if (endpoint.prices)
          usage.costUsd +=
            (answer.usage.inputTokens * endpoint.prices.input + answer.usage.outputTokens * endpoint.prices.output) /
            2e6;
        return { content: answer.content, finishReason: answer.finishReason };
      });
    },
  };
}

function summarize(failed: ReflectionSet['failed']): string {
  const reasons = new Map<string, number>();
  for (const f of failed) reasons.set(f.reason, (reasons.get(f.reason) ?? 0) + 1);
  return [...reasons]
    .slice(0, 3)
    .map(([reason, n]) => `${n}× ${reason}`)
    .join('; ');
}
