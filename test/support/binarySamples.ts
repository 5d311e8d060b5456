import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeCursorUser, writeManyComposers } from './cursorStateDb';
import { files, type FuzzSample } from './fuzzSamples';
import { openCodeDbFromStorage, writeManyOpenCodeSessions, writeOpenCodeDb } from './openCodeDb';
import { FIXTURES, hasSharedTraces, SHARED_TRACES } from './paths';
import { tempDir } from '../../testing/tmp';
import { rawFrame } from './zstdFrames';

/** A session store in a binary container: a SQLite database (with its `-wal` among the companions) or a `.jsonl.zst`. */
export interface BinarySample extends FuzzSample {
  container: 'sqlite' | 'zst';
}

// Where the agents keep them (the readers take a damaged file at these places as theirs).
const CURSOR_USER = '.config/Cursor/User';
const CURSOR_WORKSPACE = `${CURSOR_USER}/workspaceStorage/6c1f0e2d3b4a59687766554433221100`;
const OPENCODE_DB = '.local/share/opencode/opencode.db';
const CODEX_DAY = '.codex/sessions/2026/05/04';
const ZST_NAME = 'rollout-2026-05-04T10-11-12-019e0a1b-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl.zst';

/** A sample known by name when the tests are declared, built (with sql.js, asynchronously) when its test runs. */
export interface BinarySampleSpec {
  name: string;
  container: 'sqlite' | 'zst';
  load(): Promise<BinarySample>;
}

function sqlite(
  name: string,
  target: string,
  make: (dir: string) => Promise<{ content: Buffer; companions?: Record<string, Buffer> }>,
): BinarySampleSpec {
  return {
    name,
    container: 'sqlite',
    load: async () => ({
      name,
      target,
      container: 'sqlite',
      companions: {},
      ...(await make(tempDir('combee-fuzz-sample-'))),
    }),
  };
}

function sqliteSamples(): BinarySampleSpec[] {
  const samples = [
    sqlite('builder/cursor global state.vscdb', `${CURSOR_USER}/globalStorage/state.vscdb`, async (dir) => ({
      content: readFileSync((await writeCursorUser(dir)).global),
    })),
    sqlite('builder/cursor workspace state.vscdb', `${CURSOR_WORKSPACE}/state.vscdb`, async (dir) => {
      const { workspace } = await writeCursorUser(dir);
      return {
        content: readFileSync(workspace),
        companions: { [`${CURSOR_WORKSPACE}/workspace.json`]: readFileSync(join(workspace, '..', 'workspace.json')) },
      };
    }),
    sqlite('builder/cursor state.vscdb with 40 composers', `${CURSOR_USER}/globalStorage/state.vscdb`, async (dir) => ({
      content: await writeManyComposers(join(dir, 'state.vscdb'), 40),
    })),
    sqlite('builder/opencode.db', OPENCODE_DB, async (dir) => ({
      content: await writeOpenCodeDb(join(dir, 'opencode.db')),
    })),
    sqlite('builder/opencode.db with 40 sessions', OPENCODE_DB, async (dir) => ({
      content: await writeManyOpenCodeSessions(join(dir, 'opencode.db'), 40),
    })),
    // Made with the sqlite3 CLI in WAL mode (page size 512), copied while open: the session's later messages are in the -wal.
    sqlite('fixtures/sqlite-wal opencode.db with its -wal', OPENCODE_DB, async () => ({
      content: readFileSync(join(FIXTURES, 'sqlite-wal', 'opencode.db')),
      companions: { [`${OPENCODE_DB}-wal`]: readFileSync(join(FIXTURES, 'sqlite-wal', 'opencode.db-wal')) },
    })),
  ];
  // The shared JSON storage sessions, moved into a database as OpenCode's migration does.
  const storage = join(SHARED_TRACES, 'opencode', 'agent-sessions_storage_v2');
  if (hasSharedTraces && existsSync(storage)) {
    samples.push(
      sqlite('shared/opencode storage_v2 as opencode.db', OPENCODE_DB, async (dir) => {
        const tree = Object.fromEntries(
          files(storage).map((p) => [relative(storage, p).split('\\').join('/'), readFileSync(p)]),
        );
        return { content: await openCodeDbFromStorage(join(dir, 'opencode.db'), tree) };
      }),
    );
  }
  return samples;
}

function zstSamples(): BinarySampleSpec[] {
  // Compressed by the zstd CLI as two frames split inside a line (see codexZst.test.ts).
  const samples: BinarySample[] = [
    {
      name: 'fixtures/zst rollout (zstd -19, two frames)',
      target: `${CODEX_DAY}/${ZST_NAME}`,
      content: readFileSync(join(FIXTURES, 'zst', ZST_NAME)),
      companions: {},
      container: 'zst',
    },
  ];
  // The shared Codex rollouts, each in raw-block frames: a frame per 4 kB, so damage can hit any of several.
  for (const path of files(join(SHARED_TRACES, 'codex')).filter((p) => p.endsWith('.jsonl'))) {
    const text = readFileSync(path);
    const frames: Buffer[] = [];
    for (let at = 0; at < text.length; at += 4096) frames.push(rawFrame(text.subarray(at, at + 4096)));
    const id = `0199aaaa-0000-7000-8000-${String(samples.length).padStart(12, '0')}`;
    samples.push({
      name: `shared/codex/${relative(join(SHARED_TRACES, 'codex'), path)} as .zst`,
      target: `${CODEX_DAY}/rollout-2026-05-04T10-11-12-${id}.jsonl.zst`,
      content: Buffer.concat(frames),
      companions: {},
      container: 'zst',
    });
  }
  return samples.map((sample) => ({ name: sample.name, container: 'zst', load: async () => sample }));
}

/** Every binary sample the fuzzing damages: SQLite stores of Cursor and OpenCode, Codex's compressed rollouts. */
export function binarySamples(): BinarySampleSpec[] {
  return [...sqliteSamples(), ...zstSamples()];
}
