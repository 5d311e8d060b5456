import assert from 'node:assert/strict';
import { importSessions } from '../../../src/core/import/importer';
import { TraceStore } from '../../../src/core/store/traceStore';
import { readerVersion } from '../../../src/core/trace/sources';
import { writeClaudeSession } from '../../../testing/claudeSessions';
import { tempDir } from '../../../testing/tmp';

describe('reader versions', () => {
  it('read again in full a file an older version of its reader imported, even unchanged, and only once', async () => {
    const home = tempDir('combee-reader-version-');
    writeClaudeSession(home, '44444444-aaaa-4bbb-8ccc-000000000004', '/home/dev/shop', [{ user: 'fix the cart' }]);
    const store = new TraceStore(tempDir('combee-reader-version-store-'));
    const first = await importSessions({ from: home, store });
    assert.equal(first.sessions, 1);
    const index = await store.loadIndex();
    const [entry] = Object.values(index.files);
    assert.equal(entry.readerVersion, readerVersion('claude-code'));
    assert.equal((await importSessions({ from: home, store })).unchangedFiles, 1);
    // as an import before the reader's last change left it
    delete entry.readerVersion;
    await store.saveIndex(index);
    const again = await importSessions({ from: home, store });
    assert.deepEqual([again.unchangedFiles, again.sessions, again.resumedFiles], [0, 1, 0]);
    assert.equal((await importSessions({ from: home, store })).unchangedFiles, 1);
    assert.equal((await store.listTraces()).length, 1);
  });
});
