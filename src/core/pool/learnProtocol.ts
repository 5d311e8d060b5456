import type { LearnRequest } from '../service/learnRun/options';
import type { MessagePort } from 'node:worker_threads';
import type { RunEstimate } from '../learn/estimate';
import type { LiveRunSnapshot } from '../learn/record/liveRun';
import type { ProviderInfo } from '../learn/types';
import type { ChatApi } from '../llm/proxyMessages';

/** Which model learns, in a form that crosses to a worker thread (a proxy stands for VS Code's models). */
export type ProviderSpec =
  | { kind: 'offline' }
  | {
      kind: 'openai';
      baseUrl: string;
      apiKey: string;
      model: string;
      concurrency?: number;
      prices?: { input: number; output: number };
      embeddingModel?: string;
      allowInsecureHttp?: boolean;
      timeoutMs?: number;
    }
  | { kind: 'proxy'; info: ProviderInfo };

/** The run's request (service/learnRun/options.ts), and whether to ask the host before a large run (it shows the estimate). */
export type LearnTaskOptions = LearnRequest & { confirm?: boolean };

export interface LearnTask {
  storeDir: string;
  workspace: string;
  provider: ProviderSpec;
  /** Completed model calls are cached here; omit to disable. */
  cacheDir?: string;
  options: LearnTaskOptions;
  /** Progress, consent and proxied model calls travel over this port (HostApi and WorkerApi, through PortRpc). */
  port: MessagePort;
}

export interface LearnTaskResult {
  /** The worker thread that ran it (0 would mean the main thread). */
  thread: number;
  sessions: number;
  declined?: boolean;
  proposal?: { id: string; files: string[] };
  /** The open proposals the new one took the place of. */
  superseded?: string[];
  /** Nothing new: this open proposal still waits. */
  stillPending?: string;
  run?: {
    id: string;
    status: string;
    calls: number;
    tokens: number;
    warnings: string[];
    /** What the aggregation calls dropped without a reason, and what became of it (callItems.ts), when they did. */
    drops?: string;
  };
  /** Sessions not learned this time (retried later), and sessions no longer retried after repeated failures. */
  failedSessions?: number;
  givenUpSessions?: number;
  /** Unlearned sessions older than the window. */
  outsideWindow?: number;
}

/** What the host serves the worker: progress, the consent question before a large run, and model calls. */
export type HostApi = ChatApi & {
  progress: (update: { message: string; fraction: number }) => void;
  /** The run's tree so far, for the panel (nodes without their contents). */
  snapshot: (snapshot: LiveRunSnapshot) => void;
  confirm: (estimate: RunEstimate) => boolean | Promise<boolean>;
};

/** What the worker serves the host: a cooperative cancel. */
export type WorkerApi = {
  cancel: (reason: string) => void;
};
