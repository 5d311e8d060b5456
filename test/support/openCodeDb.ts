import { writeFileSync } from 'node:fs';
import initSqlJs, { type SqlValue } from 'sql.js';

// OpenCode ≥1.2 databases made with sql.js, shared by the reader's tests and the fuzzing.

// The tables of OpenCode ≥1.2 (packages/opencode/src/session/session.sql.ts), trimmed to the columns read or required.
export const OPENCODE_SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL,
  version text NOT NULL, share_url text, cost real NOT NULL DEFAULT 0, time_created integer NOT NULL, time_updated integer NOT NULL, time_archived integer);
CREATE INDEX session_parent_idx ON session (parent_id);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL, status text NOT NULL, priority text NOT NULL, position integer NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, PRIMARY KEY (session_id, position));
`;

export const T0 = 1770000000000;
export const PARENT = 'ses_3a1f0c2d9ffeAbCdEf012345';
export const CHILD = 'ses_3a1f0c2d9ffeChild0000001';

interface Row {
  id: string;
  session: string;
  at: number;
  data: unknown;
}
interface PartRow {
  id: string;
  message: string;
  session: string;
  data: unknown;
}

/** Synthetic rows in the message-v2 shapes of research §8; messages inserted out of time order. */
function rows(): { messages: Row[]; parts: PartRow[] } {
  const messages: Row[] = [
    {
      id: 'msg_c03',
      session: PARENT,
      at: T0 + 30_000,
      data: {
        role: 'assistant',
        time: { created: T0 + 30_000, completed: T0 + 40_000 },
        parentID: 'msg_c01',
        modelID: 'claude-sonnet-4-5',
        providerID: 'anthropic',
        mode: 'build',
        path: { cwd: '/home/dev/shop', root: '/home/dev/shop' },
        cost: 0.01,
        tokens: { input: 900, output: 120, reasoning: 0, cache: { read: 0, write: 0 } },
        finish: 'stop',
      },
    },
    {
      id: 'msg_c01',
      session: PARENT,
      at: T0 + 10_000,
      data: {
        role: 'user',
        time: { created: T0 + 10_000 },
        agent: 'build',
        model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' },
      },
    },
    {
      id: 'msg_c02',
      session: PARENT,
      at: T0 + 20_000,
      data: {
        role: 'assistant',
        time: { created: T0 + 20_000, completed: T0 + 29_000 },
        parentID: 'msg_c01',
        modelID: 'claude-sonnet-4-5',
        providerID: 'anthropic',
        path: { cwd: '/home/dev/shop', root: '/home/dev/shop' },
        finish: 'tool-calls',
      },
    },
    { id: 'msg_c04', session: PARENT, at: T0 + 50_000, data: { role: 'system', time: { created: T0 + 50_000 } } },
    { id: 'msg_k01', session: CHILD, at: T0 + 60_000, data: { role: 'user', time: { created: T0 + 60_000 } } },
    {
      id: 'msg_k02',
      session: CHILD,
      at: T0 + 61_000,
      data: {
        role: 'assistant',
        time: { created: T0 + 61_000, completed: T0 + 62_000 },
        modelID: 'gpt-5.5',
        error: { name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } },
      },
    },
  ];
  const tool = (callID: string, name: string, state: unknown) => ({ type: 'tool', callID, tool: name, state });
  const parts: PartRow[] = [
    {
      id: 'prt_c01a',
      message: 'msg_c01',
      session: PARENT,
      data: { type: 'text', text: 'the cart total is wrong when a coupon is applied, fix it' },
    },
    {
      id: 'prt_c01b',
      message: 'msg_c01',
      session: PARENT,
      data: { type: 'file', mime: 'text/plain', filename: 'cart.ts', url: 'file:///home/dev/shop/src/cart.ts' },
    },
    {
      id: 'prt_c01c',
      message: 'msg_c01',
      session: PARENT,
      data: { type: 'text', text: 'Called the Read tool with {"filePath":"src/cart.ts"}', synthetic: true },
    },
    { id: 'prt_c02a', message: 'msg_c02', session: PARENT, data: { type: 'step-start', snapshot: 'a1' } },
    {
      id: 'prt_c02b',
      message: 'msg_c02',
      session: PARENT,
      data: { type: 'reasoning', text: 'Run the tests first.', time: { start: T0 + 20_500 } },
    },
    {
      id: 'prt_c02c',
      message: 'msg_c02',
      session: PARENT,
      data: tool('toolu_01', 'bash', {
        status: 'completed',
        input: { command: 'pnpm test cart', description: 'Run cart tests' },
        output: '1 failing\n  cart applies coupon once',
        metadata: { exit: 1 },
        title: 'pnpm test cart',
        time: { start: T0 + 21_000, end: T0 + 24_000 },
      }),
    },
    {
      id: 'prt_c02d',
      message: 'msg_c02',
      session: PARENT,
      data: tool('toolu_02', 'edit', {
        status: 'completed',
        input: { filePath: '/home/dev/shop/src/cart.ts', oldString: 'total -= c', newString: 'total -= c.amount' },
        output: 'Edit applied successfully.',
        time: { start: T0 + 25_000, end: T0 + 25_500 },
      }),
    },
    {
      id: 'prt_c02e',
      message: 'msg_c02',
      session: PARENT,
      data: { type: 'step-finish', reason: 'tool-calls', tokens: { input: 1, output: 1 }, cost: 0 },
    },
    { id: 'prt_c02f', message: 'msg_c02', session: PARENT, data: '{"type":"te' },
    {
      id: 'prt_c03a',
      message: 'msg_c03',
      session: PARENT,
      data: tool('toolu_03', 'bash', {
        status: 'completed',
        input: { command: 'pnpm test cart' },
        output: '3 passing',
        metadata: { exit: 0 },
        time: { start: T0 + 31_000, end: T0 + 33_000 },
      }),
    },
    { id: 'prt_c03b', message: 'msg_c03', session: PARENT, data: { type: 'hologram', payload: 1 } },
    {
      id: 'prt_c03c',
      message: 'msg_c03',
      session: PARENT,
      data: {
        type: 'text',
        text: 'The coupon was subtracted as an object; it uses its amount now and the tests pass.',
        time: { start: T0 + 34_000 },
      },
    },
    {
      id: 'prt_k01a',
      message: 'msg_k01',
      session: CHILD,
      data: { type: 'text', text: 'find where coupons are validated' },
    },
    {
      id: 'prt_k02a',
      message: 'msg_k02',
      session: CHILD,
      data: tool('toolu_k1', 'bash', { status: 'denied', input: { command: 'rm -rf node_modules' } }),
    },
  ];
  return { messages, parts };
}

let sql: Awaited<ReturnType<typeof initSqlJs>> | undefined;

/** A database made with sql.js itself, exported to `path`. */
export async function writeDb(path: string, schema: string, inserts: Array<[string, SqlValue[]]>): Promise<Buffer> {
  sql ??= await initSqlJs();
  const db = new sql.Database();
  db.exec(schema);
  for (const [statement, params] of inserts) db.run(statement, params);
  const bytes = Buffer.from(db.export());
  db.close();
  writeFileSync(path, bytes);
  return bytes;
}

export async function writeOpenCodeDb(path: string): Promise<Buffer> {
  const { messages, parts } = rows();
  const inserts: Array<[string, SqlValue[]]> = [
    ['INSERT INTO project VALUES (?, ?, ?, ?, ?, ?)', ['prj_1', '/home/dev/shop', 'git', 'shop', T0, T0]],
    [
      'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [PARENT, 'prj_1', null, 'brave-cart', '/home/dev/shop', 'Fix the coupon total', '1.2.10', T0, T0 + 45_000],
    ],
    [
      'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        CHILD,
        'prj_1',
        PARENT,
        'calm-coupon',
        '/home/dev/shop',
        'Find coupon validation (@general subagent)',
        '1.2.10',
        T0 + 59_000,
        T0 + 62_000,
      ],
    ],
    [
      'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ['ses_empty', 'prj_1', null, 'empty', '/home/dev/shop', 'New session', '1.2.10', T0 + 70_000, T0 + 70_000],
    ],
    ['INSERT INTO todo VALUES (?, ?, ?, ?, ?, ?, ?)', [PARENT, 'run tests', 'completed', 'high', 0, T0, T0]],
  ];
  for (const m of messages)
    inserts.push(['INSERT INTO message VALUES (?, ?, ?, ?, ?)', [m.id, m.session, m.at, m.at, JSON.stringify(m.data)]]);
  for (const p of parts)
    inserts.push([
      'INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)',
      [p.id, p.message, p.session, T0, T0, typeof p.data === 'string' ? p.data : JSON.stringify(p.data)],
    ]);
  return writeDb(path, OPENCODE_SCHEMA, inserts);
}

/** The fields of a storage file the migration moves into columns. */
interface StoredFile {
  id?: unknown;
  sessionID?: unknown;
  parentID?: string | null;
  slug?: string;
  directory?: string;
  title?: string;
  version?: string;
  time?: { created?: number; updated?: number };
}

/**
 * The ≤1.1 JSON storage (`session/<project>/<id>.json`, `message/<session>/*.json`, `part/<message>/*.json`, keyed by
 * their path under storage/) moved into the database, as OpenCode's own migration does: each file's JSON becomes
 * its row's `data`.
 */
export async function openCodeDbFromStorage(path: string, files: Record<string, Buffer>): Promise<Buffer> {
  const inserts: Array<[string, SqlValue[]]> = [];
  const projects = new Set<string>();
  const time = (value: StoredFile) => value.time?.created ?? T0;
  for (const [rel, bytes] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    const [kind, owner, name] = rel.split('/');
    if (!name?.endsWith('.json')) continue;
    const value = JSON.parse(bytes.toString('utf8')) as StoredFile;
    const id = typeof value.id === 'string' ? value.id : name.replace(/\.json$/, '');
    if (kind === 'session') {
      if (!projects.has(owner))
        inserts.push([
          'INSERT INTO project VALUES (?, ?, ?, ?, ?, ?)',
          [owner, value.directory ?? '/', 'git', owner, T0, T0],
        ]);
      projects.add(owner);
      inserts.push([
        'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          id,
          owner,
          value.parentID ?? null,
          value.slug ?? id,
          value.directory ?? '/',
          value.title ?? '',
          value.version ?? '',
          time(value),
          value.time?.updated ?? time(value),
        ],
      ]);
    } else if (kind === 'message') {
      inserts.push([
        'INSERT INTO message VALUES (?, ?, ?, ?, ?)',
        [id, owner, time(value), time(value), JSON.stringify(value)],
      ]);
    } else if (kind === 'part') {
      inserts.push([
        'INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)',
        [id, owner, typeof value.sessionID === 'string' ? value.sessionID : '', T0, T0, JSON.stringify(value)],
      ]);
    }
  }
  return writeDb(path, OPENCODE_SCHEMA, inserts);
}

/** `count` sessions of a few kB each (a bash call with its output, an answer): many pages, interior ones too. */
export async function writeManyOpenCodeSessions(path: string, count: number): Promise<Buffer> {
  const inserts: Array<[string, SqlValue[]]> = [
    ['INSERT INTO project VALUES (?, ?, ?, ?, ?, ?)', ['prj_1', '/home/dev/shop', 'git', 'shop', T0, T0]],
  ];
  for (let i = 0; i < count; i++) {
    const session = `ses_many${String(i).padStart(6, '0')}`;
    const at = T0 + i * 10_000;
    inserts.push([
      'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [session, 'prj_1', null, `slug-${i}`, '/home/dev/shop', `Fix test ${i}`, '1.2.10', at, at + 5000],
    ]);
    const user = `msg_${i}_u`;
    const assistant = `msg_${i}_a`;
    inserts.push([
      'INSERT INTO message VALUES (?, ?, ?, ?, ?)',
      [user, session, at, at, JSON.stringify({ role: 'user', time: { created: at } })],
    ]);
    inserts.push([
      'INSERT INTO message VALUES (?, ?, ?, ?, ?)',
      [
        assistant,
        session,
        at + 1000,
        at + 1000,
        JSON.stringify({
          role: 'assistant',
          time: { created: at + 1000 },
          modelID: 'claude-sonnet-4-5',
          finish: 'stop',
        }),
      ],
    ]);
    const part = (id: string, message: string, data: unknown): [string, SqlValue[]] => [
      'INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)',
      [id, message, session, at, at, JSON.stringify(data)],
    ];
    inserts.push(
      part(`prt_${i}_1`, user, {
        type: 'text',
        text: `fix failing test ${i}: ${'the cart total drifts when coupons stack; '.repeat(8)}`,
      }),
    );
    inserts.push(
      part(`prt_${i}_2`, assistant, {
        type: 'tool',
        callID: `call_${i}`,
        tool: 'bash',
        state: {
          status: 'completed',
          input: { command: `pnpm test cart${i}` },
          output: '  expected 10.00, received 10.01\n'.repeat(40),
          metadata: { exit: 1 },
        },
      }),
    );
    inserts.push(part(`prt_${i}_3`, assistant, { type: 'text', text: `The coupons of test ${i} are summed now.` }));
  }
  return writeDb(path, OPENCODE_SCHEMA, inserts);
}
