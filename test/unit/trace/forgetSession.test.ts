import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { importSessions } from '../../../src/core/import/importer';
import { TraceStore } from '../../../src/core/store/traceStore';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { tempDir } from '../../../testing/tmp';

const SESSION = '5e55f00d-0000-4000-8000-000000000001';
const OTHER = '5e55f00d-0000-4000-8000-000000000002';
const ID = `claude-code:${SESSION}`;

async function captured(): Promise<{ home: string; store: TraceStore; path: string }> {
  const home = tempDir('combee-forget-home-');
  const store = new TraceStore(tempDir('combee-forget-store-'));
  const path = writeClaudeSession(home, SESSION, '/work/shop', prerequisiteTurns());
  writeClaudeSession(home, OTHER, '/work/shop', [{ user: 'Rename the cart module.' }]);
  await importSessions({ from: home, store, agent: 'claude-code' });
  return { home, store, path };
}

const ids = async (store: TraceStore) => (await store.listSummaries()).map((s) => s.id);

describe('forgetting a stored session', () => {
  it('leaves it out of every list and read; the next capture, or one that reads its file again, does not bring it back', async () => {
    const { home, store } = await captured();
    assert.deepEqual(await ids(store), [ID, `claude-code:${OTHER}`].sort());
    const forgotten = await store.forgetTrace(ID);
    assert.equal(forgotten?.id, ID);
    assert.deepEqual(await ids(store), [`claude-code:${OTHER}`]);
    assert.deepEqual(
      (await store.listTraces()).map((t) => t.id),
      [`claude-code:${OTHER}`],
    );
    assert.equal(await store.loadTrace(ID), undefined);
    assert.deepEqual(
      (await store.loadTraces([ID])).map((t) => t.id),
      [],
    );

    // the next capture: its file is unchanged
    await importSessions({ from: home, store, agent: 'claude-code' });
    assert.deepEqual(await ids(store), [`claude-code:${OTHER}`]);
    // a capture that has lost its index reads the file again and stores a copy: still forgotten
    rmSync(join(store.dir, 'imports.json'));
    const again = await importSessions({ from: home, store, agent: 'claude-code' });
    assert.ok(again.traceIds.includes(ID), 'the file was read again');
    assert.deepEqual(await ids(store), [`claude-code:${OTHER}`]);
  });

  it('brings the session back once it grew (the agent went on in it): that is a version not forgotten', async () => {
    const { home, store, path } = await captured();
    await store.forgetTrace(ID);
    const last = JSON.parse(readFileSync(path, 'utf8').trim().split('\n').at(-1)!) as Record<string, unknown>;
    appendFileSync(
      path,
      `${JSON.stringify({ ...last, uuid: `${SESSION.slice(0, 8)}-0000-4000-8000-999999999999`, parentUuid: last.uuid, type: 'user', message: { role: 'user', content: 'And now the shipping total.' }, toolUseResult: undefined })}\n`,
    );
    await importSessions({ from: home, store, agent: 'claude-code' });
    assert.ok((await ids(store)).includes(ID));
  });

  it('forgets nothing for an id the store does not hold', async () => {
    const { store } = await captured();
    assert.equal(await store.forgetTrace('claude-code:not-stored'), undefined);
    assert.equal((await ids(store)).length, 2);
  });
});
