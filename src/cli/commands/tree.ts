import { resolve } from 'node:path';
import { loadRunRecords } from '../../core/store/runs';
import { renderRunTree } from '../../core/learn/record/treeText';
import { TraceStore } from '../../core/store/traceStore';
import { parse } from '../args';
import type { Output } from '../output';
import { WorkspaceState } from '../../core/store/workspaceState';
import { storeDirFor } from '../store';

export async function treeCommand(argv: string[], out: Output): Promise<number> {
  const { values } = parse(argv, {
    workspace: { type: 'string' },
    store: { type: 'string' },
    run: { type: 'string' },
    json: { type: 'boolean' },
  });
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  const store = new TraceStore(storeDirFor(values.store, out));
  const records = await loadRunRecords(new WorkspaceState(store.dir), workspace);
  const record = typeof values.run === 'string' ? records.find((r) => r.id === values.run) : records[0];
  if (!record && typeof values.run === 'string') {
    out.warn(`no run ${values.run} for ${workspace}`);
    return 1;
  }
  if (!record) {
    // nothing learned yet is a state, not an error: a script reading --json gets null
    const note = `no learning run recorded for ${workspace} yet (combee learn records one)`;
    if (values.json) {
      out.result('null');
      out.info(note);
    } else out.result(note);
    return 0;
  }
  out.result(values.json ? JSON.stringify(record, null, 2) : renderRunTree(record));
  return 0;
}
