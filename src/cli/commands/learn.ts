import { join, resolve } from 'node:path';
import { CallCache } from '../../core/llm/cache';
import type { Roles } from '../../core/llm/providers';
import { ProposalStore } from '../../core/store/proposals';
import { learnWorkspace, type LearnWorkspaceOptions } from '../../core/service/learnWorkspace';
import { TraceStore } from '../../core/store/traceStore';
import { WorkspaceState } from '../../core/store/workspaceState';
import { BatchRuns } from '../../core/store/batchRuns';
import { renderPrBody } from '../../core/team/prBody';
import { atomicWrite } from '../../core/util/io';
import { UsageError } from '../args';
import { progressOf, type Output } from '../output';
import { acceptCommand } from './accept';
import { readReflectionSets, reportMapPhase } from './shards';
import { endpointFromFlags, resolveRoles } from './learnProvider';
import { batchApiPhase, type BatchApiPhase } from './learnBatchApi';
import { redactionPatterns } from './redactionFlags';
import { replayedFlags } from './resumeFlags';
import {
  learnRequestFromFlags,
  parseLearnCommandLine,
  type LearnPlace,
  type ResumeLearnCommandLine,
  type RunLearnCommandLine,
} from './learnRequest';
import { reportLearnJson, reportLearnText, type AppliedProposal, type LearnResult } from './learnReport';
import { storeDirFor } from '../store';

type CommonOptions = Omit<LearnWorkspaceOptions, 'mapOnly' | 'precomputed' | 'reflector'>;

export async function learnCommand(argv: string[], out: Output, signal?: AbortSignal): Promise<number> {
  const request = parseLearnCommandLine(argv);
  if (request instanceof UsageError) throw request;
  return request.kind === 'resume' ? resumeBatchRun(request, argv, out, signal) : runLearn(request, argv, out, signal);
}

/** `--resume <batch>` alone: the flags the run was submitted with, then this command line's own on top. */
async function resumeBatchRun(
  request: ResumeLearnCommandLine,
  argv: string[],
  out: Output,
  signal?: AbortSignal,
): Promise<number> {
  const store = storeOf(request, out);
  const run = await new BatchRuns(new WorkspaceState(store.dir), request.workspace).load(request.batchId);
  if (!run) {
    out.warn(`no Batch API run ${request.batchId} for ${request.workspace} in ${store.dir}`);
    return 1;
  }
  return learnCommand([...replayedFlags(run.argv, argv, run.batchId), ...argv, '--batch-api'], out, signal);
}

async function runLearn(
  request: RunLearnCommandLine,
  argv: string[],
  out: Output,
  signal?: AbortSignal,
): Promise<number> {
  const { mode } = request;
  const store = storeOf(request, out);
  const endpoint = endpointFromFlags(request.endpointFlags);
  const cache = request.noCache ? undefined : new CallCache(join(store.dir, 'cache'));
  const prices =
    request.priceIn !== undefined || request.priceOut !== undefined
      ? { input: request.priceIn ?? 0, output: request.priceOut ?? 0 }
      : undefined;
  const roles = resolveRoles(
    request.provider,
    {
      ...endpoint,
      cache,
      prices,
      timeoutMs: request.timeoutSeconds ? request.timeoutSeconds * 1000 : undefined,
      aggregationCapacityTokens: request.aggregationCapacityTokens,
    },
    out,
  );
  if (!roles) return 1;

  const progress = request.json ? undefined : progressOf(out, mode.kind === 'map' ? 'reflecting' : 'learning');
  // the memories read are redacted as imported sessions are: with the user's own patterns too
  const extraRedactionPatterns = await redactionPatterns(store.dir, request.redactPatterns, out);
  const common = commonOptions(request, store, roles, signal, progress, extraRedactionPatterns);
  let precomputed = mode.kind === 'reduce' ? await readReflectionSets(mode.folders, (m) => out.warn(m)) : undefined;
  let batchRun: BatchApiPhase | undefined;
  if (mode.kind === 'batch-api') {
    if (roles.info.provider !== 'openai')
      throw new UsageError('--batch-api needs an OpenAI-compatible endpoint (--provider openai, OPENAI_API_KEY)');
    const phase = await batchApiPhase(
      {
        argv: withoutResume(argv),
        resume: mode.resume,
        noWait: mode.noWait,
        pollSeconds: mode.pollSeconds,
        json: request.json,
        store,
        workspace: request.workspace,
        playbookPath: request.playbookPath,
        endpoint: {
          baseUrl: endpoint.baseUrl,
          model: endpoint.model,
          apiKey: process.env.OPENAI_API_KEY || 'not-needed-for-local-endpoints',
          allowInsecureHttp: request.endpointFlags['allow-insecure-http'],
          prices,
        },
        learn: common,
      },
      out,
      signal,
    ).finally(() => progress?.stop());
    if (typeof phase === 'number') return phase;
    batchRun = phase;
    precomputed = [phase.set];
  }
  let result: LearnResult;
  try {
    result = await learnWorkspace({
      ...common,
      reflector: roles.reflector,
      mapOnly: mode.kind === 'map' ? { shard: mode.shard } : undefined,
      precomputed,
      // the Batch API's answers come from the endpoint itself; a reduce's come from files anyone could have edited
      precomputedFromFiles: mode.kind === 'reduce',
    });
  } finally {
    progress?.stop();
  }
  if (batchRun && !request.dryRun && result.record && result.record.status !== 'failed')
    await batchRun.runs.save({ ...batchRun.run, status: 'learned', proposalId: result.proposal?.id });
  if (mode.kind === 'map') return reportMapPhase(result, mode.out, request.json, out);
  return finishLearn(request, result, roles, common.proposals, store.dir, out);
}

/** After a run that learns: apply and write the PR body when asked, then report. */
async function finishLearn(
  request: RunLearnCommandLine,
  result: LearnResult,
  roles: Roles,
  proposals: ProposalStore,
  storeDir: string,
  out: Output,
): Promise<number> {
  const record = result.record;
  const applied =
    request.apply && result.proposal && !request.dryRun && record?.status !== 'failed'
      ? await applyProposal(result.proposal.id, request, proposals, storeDir, out)
      : undefined;
  if (request.prBody !== undefined && result.proposal && record) {
    const people = new Set(result.traces.map((t) => t.contributor ?? '')).size;
    await atomicWrite(
      resolve(request.prBody),
      renderPrBody({
        proposal: result.proposal,
        sessions: result.traces.length,
        people,
        strategy: record.strategy,
        seed: record.seed,
        warnings: record.warnings,
        written: applied?.written ?? [],
      }),
    );
  }
  return request.json
    ? reportLearnJson(request, result, roles.info, applied, out)
    : reportLearnText(request, result, roles.info, applied, out);
}

function storeOf(place: LearnPlace, out: Output): TraceStore {
  return new TraceStore(storeDirFor(place.storeDir, out));
}

function commonOptions(
  request: RunLearnCommandLine,
  store: TraceStore,
  roles: Roles,
  signal: AbortSignal | undefined,
  progress: ReturnType<typeof progressOf> | undefined,
  extraRedactionPatterns: string[],
): CommonOptions {
  return {
    ...learnRequestFromFlags(request, extraRedactionPatterns),
    store,
    proposals: new ProposalStore(new WorkspaceState(store.dir)),
    workspace: request.workspace,
    aggregator: roles.aggregator,
    embed: roles.embed,
    provider: roles.info,
    signal,
    onProgress: progress
      ? (message: string, fraction: number) => progress.update(Math.round(fraction * 100), 100, message)
      : undefined,
  };
}

/** The command line to save with a submitted run (a later `--resume` adds its own). */
function withoutResume(argv: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--resume' || argv[i] === '--no-wait') {
      if (argv[i] === '--resume') i++;
      continue;
    }
    if (argv[i].startsWith('--resume=')) continue;
    kept.push(argv[i]);
  }
  return kept;
}

/** `--apply`: the accept command itself, so flagged rules stay out and a changed file is re-based or refused alike. */
async function applyProposal(
  id: string,
  request: RunLearnCommandLine,
  proposals: ProposalStore,
  storeDir: string,
  out: Output,
): Promise<AppliedProposal> {
  // the store this run used and said, whichever way it was chosen
  const args = [id, '--workspace', request.workspace, '--store', storeDir];
  if (request.playbookFlag !== undefined) args.push('--playbook', request.playbookFlag);
  const exitCode = await acceptCommand(args, request.json ? { ...out, result: (t) => out.info(t) } : out);
  const after = await proposals.load(request.workspace, id);
  const written = (after?.reviewed.files ?? []).filter((f) => f.decision === 'accepted').map((f) => f.path);
  return { written, exitCode };
}
