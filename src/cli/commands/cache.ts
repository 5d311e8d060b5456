import { join } from 'node:path';
import { CallCache } from '../../core/llm/cache';
import { TraceStore } from '../../core/store/traceStore';
import { parse, UsageError } from '../args';
import type { Output } from '../output';
import { storeDirFor } from '../store';

export async function cacheCommand(argv: string[], out: Output): Promise<number> {
  const { values, positionals } = parse(argv, { store: { type: 'string' }, json: { type: 'boolean' } });
  const store = new TraceStore(storeDirFor(values.store, out));
  const cache = new CallCache(join(store.dir, 'cache'));
  switch (positionals[0]) {
    case 'stats': {
      const { entries, bytes } = await cache.size();
      out.result(
        values.json
          ? JSON.stringify({ entries, bytes, dir: cache.dir }, null, 2)
          : `${entries} cached call(s), ${(bytes / 1024).toFixed(1)} KiB in ${cache.dir}`,
      );
      return 0;
    }
    case 'clear':
      await cache.clear();
      out.result(values.json ? JSON.stringify({ cleared: cache.dir }, null, 2) : `cleared ${cache.dir}`);
      return 0;
    default:
      throw new UsageError('combee cache stats|clear');
  }
}
