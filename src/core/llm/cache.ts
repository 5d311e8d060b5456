import { mkdir, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { atomicWrite } from '../util/io';
import { sha256 } from '../util/hash';
import type { ProviderInfo } from '../learn/types';
import type { JsonRequest, JsonResponse, LlmClient } from './client';

const Entry = z.object({ version: z.literal(1), value: z.unknown(), createdAt: z.string() });

export interface CacheStats {
  hits: number;
  misses: number;
}

/**
 * A content-addressed cache of completed model calls (provider, model, endpoint, prompt, schema) on disk:
 * re-running or resuming a cancelled run costs nothing for the calls already made. Size-capped: the least
 * recently used entries go first. Cached values are validated against the request's schema like fresh ones.
 */
export class CallCache {
  readonly stats: CacheStats = { hits: 0, misses: 0 };
  private writesSinceTrim = 0;

  constructor(
    readonly dir: string,
    private readonly maxBytes = 200 * 1024 * 1024,
  ) {}

  key(info: ProviderInfo, endpoint: string, request: JsonRequest<unknown>): string {
    return sha256(
      JSON.stringify({
        provider: info.provider,
        model: info.model,
        endpoint,
        schema: request.schemaName,
        schemaShape: z.toJSONSchema(request.schema, { io: 'input' }),
        messages: request.messages,
      }),
    );
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<unknown | undefined> {
    try {
      const path = this.path(key);
      const parsed = Entry.safeParse(JSON.parse(await readFile(path, 'utf8')));
      if (!parsed.success) return undefined;
      const now = new Date();
      await utimes(path, now, now).catch(() => {});
      return parsed.data.value;
    } catch {
      return undefined;
    }
  }

  async put(key: string, value: unknown): Promise<void> {
    await atomicWrite(this.path(key), JSON.stringify({ version: 1, value, createdAt: new Date().toISOString() }));
    if (++this.writesSinceTrim >= 50) {
      this.writesSinceTrim = 0;
      await this.trim();
    }
  }

  /** Drops least recently used entries until the cache fits its cap. */
  async trim(): Promise<void> {
    const entries: Array<{ path: string; size: number; used: number }> = [];
    for (const shard of await readdir(this.dir).catch(() => [] as string[])) {
      for (const file of await readdir(join(this.dir, shard)).catch(() => [] as string[])) {
        const path = join(this.dir, shard, file);
        const info = await stat(path).catch(() => undefined);
        if (info) entries.push({ path, size: info.size, used: info.mtimeMs });
      }
    }
    let total = entries.reduce((sum, e) => sum + e.size, 0);
    for (const entry of entries.sort((a, b) => a.used - b.used)) {
      if (total <= this.maxBytes) break;
      await rm(entry.path, { force: true });
      total -= entry.size;
    }
  }

  async size(): Promise<{ entries: number; bytes: number }> {
    let entries = 0;
    let bytes = 0;
    for (const shard of await readdir(this.dir).catch(() => [] as string[])) {
      for (const file of await readdir(join(this.dir, shard)).catch(() => [] as string[])) {
        const info = await stat(join(this.dir, shard, file)).catch(() => undefined);
        if (info) {
          entries++;
          bytes += info.size;
        }
      }
    }
    return { entries, bytes };
  }

  async clear(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true });
  }
}

/** Wraps any client with the cache; a hit costs no tokens and is marked in the warnings-free usage as 0. */
export class CachingLlmClient implements LlmClient {
  constructor(
    private readonly inner: LlmClient,
    private readonly cache: CallCache,
    private readonly endpoint: string,
  ) {}

  get info(): ProviderInfo {
    return this.inner.info;
  }

  async completeJson<T>(request: JsonRequest<T>): Promise<JsonResponse<T>> {
    const key = this.cache.key(this.inner.info, this.endpoint, request as JsonRequest<unknown>);
    const cached = await this.cache.get(key);
    if (cached !== undefined) {
      const parsed = request.schema.safeParse(cached);
      if (parsed.success) {
        this.cache.stats.hits++;
        return {
          value: parsed.data,
          usage: { inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 },
          warnings: [],
        };
      }
    }
    this.cache.stats.misses++;
    const response = await this.inner.completeJson(request);
    await this.cache.put(key, response.value).catch(() => {});
    return response;
  }
}
