import type { ReflectionSet } from '../../core/learn/reflectionSet';
import { savedEndpoint } from './resumeFlags';
import { BatchApiClient } from '../../core/llm/batchApi';
import { emptyPlaybook, parsePlaybook } from '../../core/playbook/markdown';
import { DEFAULT_PLAYBOOK_PATH } from '../../core/assets/playbookAsset';
import { collectReflections, submitReflections, type BatchEndpoint } from '../../core/service/batchApiRun';
import type { LearnWorkspaceOptions } from '../../core/service/learnWorkspace';
import { BatchRuns, type BatchRun } from '../../core/store/batchRuns';
import type { TraceStore } from '../../core/store/traceStore';
import { WorkspaceState } from '../../core/store/workspaceState';
import type { Trace } from '../../core/trace/model';
import { resolveInWorkspace } from '../../core/trust/workspacePath';
import { readTextIfExists } from '../../core/util/io';
import { UsageError } from '../args';
import { refusedAsUsage } from './learnProvider';
import { shellQuote, type Output } from '../output';

export interface BatchApiPhaseInput {
  /** The learn command's flags without `--resume`: saved with the run. */
  argv: string[];
  resume?: string;
  noWait: boolean;
  pollSeconds: number;
  json: boolean;
  store: TraceStore;
  workspace: string;
  playbookPath?: string;
  endpoint: {
    baseUrl: string;
    model: string;
    apiKey: string;
    allowInsecureHttp: boolean;
    prices?: { input: number; output: number };
  };
  learn: Omit<LearnWorkspaceOptions, 'mapOnly' | 'precomputed' | 'reflector'>;
}

export interface BatchApiPhase {
  set: ReflectionSet;
  run: BatchRun;
  runs: BatchRuns;
}

/**
 * `--batch-api` / `--resume`: the reflections submitted as one batch (or the submitted run found again), waited
 * for, and read back as a reflection set for the learner. A number is the command's exit code when it ends here.
 */
export async function batchApiPhase(
  input: BatchApiPhaseInput,
  out: Output,
  signal?: AbortSignal,
): Promise<BatchApiPhase | number> {
  const endpoint = batchEndpoint(input.endpoint);
  const runs = new BatchRuns(new WorkspaceState(input.store.dir), input.workspace);
  // the endpoint is named again: a resume never takes it from the store
  const resumeHint = (r: BatchRun) => {
    const endpoint = savedEndpoint(r.argv);
    return ['combee', 'learn', '--resume', r.batchId, '--workspace', input.workspace, '--store', input.store.dir]
      .concat(endpoint ? ['--base-url', endpoint] : [])
      .map(shellQuote)
      .join(' ');
  };
  let run: BatchRun;
  if (input.resume !== undefined) {
    const found = await runs.load(input.resume);
    if (!found) {
      out.warn(`no Batch API run ${input.resume} for ${input.workspace} in ${input.store.dir}`);
      return 1;
    }
    if (found.baseUrl !== input.endpoint.baseUrl)
      throw new UsageError(
        `batch ${found.batchId} was sent to ${found.baseUrl}, not ${input.endpoint.baseUrl}: resume it with --base-url ${found.baseUrl}`,
      );
    if (found.status === 'learned') {
      out.result(
        `Batch ${found.batchId} is already learned${found.proposalId ? ` (proposal ${found.proposalId})` : ''}.`,
      );
      return 0;
    }
    run = found;
  } else {
    const submitted = await submitReflections(input.learn, endpoint, input.argv);
    if (!submitted.run) {
      out.result(`No new sessions for ${input.workspace}: nothing submitted.`);
      return 0;
    }
    run = submitted.run;
    await runs.save(run);
    const line = `Submitted ${submitted.sessions} reflection request(s) as batch ${run.batchId} (Batch API: half price, answered within 24 h). It keeps running if this command stops; resume with: ${resumeHint(run)}`;
    if (input.noWait) {
      out.result(
        input.json
          ? JSON.stringify({ batchId: run.batchId, sessions: submitted.sessions, status: 'submitted' }, null, 2)
          : line,
      );
      return 0;
    }
    out.info(line);
  }

  let status;
  try {
    status = await endpoint.client.waitFor(run.batchId, {
      pollMs: input.pollSeconds * 1000,
      signal,
      onPoll: (s) =>
        out.info(`batch ${s.batchId}: ${s.status}, ${s.counts.completed + s.counts.failed}/${s.counts.total} answered`),
    });
  } catch (error) {
    if (!signal?.aborted) throw error;
    out.warn(`left batch ${run.batchId} running at the provider; resume with: ${resumeHint(run)}`);
    return 1;
  }
  if (status.status === 'failed' || status.status === 'cancelled') {
    out.warn(
      `batch ${run.batchId} ${status.status}${status.errors.length ? ` (${status.errors.join('; ')})` : ''}: nothing was learned. Submit again with --batch-api, or learn without it.`,
    );
    return 1;
  }
  const traces = new Map<string, Trace>();
  for (const id of run.traceIds) {
    const trace = await input.store.loadTrace(id);
    if (trace) traces.set(id, trace);
  }
  const text = await readTextIfExists(resolveInWorkspace(input.workspace, input.playbookPath ?? DEFAULT_PLAYBOOK_PATH));
  const playbook = text === undefined ? emptyPlaybook() : parsePlaybook(text);
  const { set, warnings } = await collectReflections(run, status, traces, playbook, endpoint, signal);
  for (const warning of warnings) out.warn(warning);
  return { set, run, runs };
}

function batchEndpoint(settings: BatchApiPhaseInput['endpoint']): BatchEndpoint {
  const client = refusedAsUsage(
    () =>
      new BatchApiClient({
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        allowInsecureHttp: settings.allowInsecureHttp,
      }),
  );
  return { client, baseUrl: settings.baseUrl, model: settings.model, prices: settings.prices };
}
