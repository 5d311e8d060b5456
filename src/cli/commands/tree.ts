import { resolve } from 'node:path';
import { loadRunRecords } from '../../core/store/runs';
import { renderRunTree } from '../../core/learn/treeText';
import { TraceStore, defaultStoreDir } from '../../core/store/traceStore';
import { parse } from '../args';
import type { Output } from '../output';
import { WorkspaceState } from '../../core/store/workspaceState';

export async function treeCommand(argv: string[], out: Output): Promise<number> {
  const { values } = parse(argv, {
    workspace: { type: 'string' },
    store: { type: 'string' },
    run: { type: 'string' },
    json: { type: 'boolean' },
  });
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const store = new TraceStore(typeof values.store === 'string' ? resolve(values.store) : defaultStoreDir());
  const records = await loadRunRecords(new WorkspaceState(store.dir), workspace);
  const record = typeof values.run === 'string' ? records.find((r) => r.id === values.run) : records[0];
  if (!record) {
    out.warn(
      typeof values.run === 'string'
        ? `no run ${values.run} for ${workspace}`
        : `no learning run recorded for ${workspace} yet`,
    );
    return 1;
  }
  out.result(values.json ? JSON.stringify(record, null, 2) : renderRunTree(record));
  return 0;
}
