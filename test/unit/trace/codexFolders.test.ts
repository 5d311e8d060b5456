import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importSessions } from '../../../src/core/import/importer';
import { TraceStore } from '../../../src/core/store/traceStore';
import type { Trace } from '../../../src/core/trace/model';
import { openingOf, recurringOpenings } from '../../../src/core/trace/recurringOpenings';
import { relativeWorkdir } from '../../../src/core/trace/workdir';
import { tempDir } from '../../../testing/tmp';
import { titleLine } from '../../../src/core/util/text';

const titleOf = (text: string) => titleLine(text);

// Codex rollouts written from the rollout format (session_meta, turn_context, response_item, event_msg envelopes):
// each call's folder, header-only rollouts, and prompts the agent expanded at the start of sessions.

const jsonl = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
const env = (timestamp: string, type: string, payload: unknown) => ({ timestamp, type, payload });
const CWD = '/home/dev/shop';

function rollout(dir: string, n: number, body: unknown[]): string {
  const id = `0199aaaa-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const day = join(dir, 'sessions', '2026', '11', '02');
  mkdirSync(day, { recursive: true });
  const path = join(day, `rollout-2026-11-02T09-00-0${n}-${id}.jsonl`);
  const t = '2026-11-02T09:00:00.000Z';
  writeFileSync(
    path,
    jsonl([
      env(t, 'session_meta', { id, timestamp: t, cwd: CWD, cli_version: '0.92.0', source: 'cli' }),
      env(t, 'turn_context', { cwd: CWD, model: 'gpt-5.2-codex' }),
      ...body,
    ]),
  );
  return path;
}

const said = (text: string) => [
  env('2026-11-02T09:00:01.000Z', 'response_item', {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text }],
  }),
  env('2026-11-02T09:00:01.000Z', 'event_msg', { type: 'user_message', message: text }),
];

const shellCall = (callId: string, command: string, workdir?: string) =>
  env('2026-11-02T09:00:02.000Z', 'response_item', {
    type: 'function_call',
    name: 'shell_command',
    call_id: callId,
    arguments: JSON.stringify(workdir === undefined ? { command } : { command, workdir }),
  });

async function importDir(
  dir: string,
): Promise<{ traces: Trace[]; summary: Awaited<ReturnType<typeof importSessions>> }> {
  const store = new TraceStore(tempDir('combee-codex-store-'));
  const summary = await importSessions({ from: dir, store });
  return { traces: await store.listTraces(), summary };
}

describe('Codex: the folder of each call', () => {
  it('is made relative to the session’s folder when inside it, and kept exactly otherwise', () => {
    assert.equal(relativeWorkdir('/home/dev/shop', CWD), '.');
    assert.equal(relativeWorkdir('/home/dev/shop/', CWD), '.');
    assert.equal(relativeWorkdir('/home/dev/shop/app/web', CWD), 'app/web');
    assert.equal(relativeWorkdir('/home/dev/shopfront', CWD), '/home/dev/shopfront');
    assert.equal(relativeWorkdir('/tmp/build', CWD), '/tmp/build');
    assert.equal(relativeWorkdir('/home/dev/shop/../other', CWD), '/home/dev/shop/../other');
    assert.equal(relativeWorkdir('app', CWD), 'app');
    assert.equal(relativeWorkdir('C:\\work\\shop\\app', 'C:\\work\\shop'), 'app');
    assert.equal(relativeWorkdir('/tmp/x', undefined), '/tmp/x');
  });

  it('is kept on every tool-call step that names one, for shell calls and local_shell actions', async () => {
    const dir = tempDir('combee-codex-workdir-');
    rollout(dir, 1, [
      ...said('build the web app'),
      shellCall('c1', 'pnpm build', '/home/dev/shop/app'),
      shellCall('c2', 'ls', CWD),
      shellCall('c3', 'make', '/opt/toolchain'),
      shellCall('c4', 'git status'),
      env('2026-11-02T09:00:03.000Z', 'response_item', {
        type: 'local_shell_call',
        call_id: 'c5',
        action: { type: 'exec', command: ['bash', '-lc', 'pnpm test'], working_directory: '/home/dev/shop/app' },
      }),
    ]);
    const { traces } = await importDir(dir);
    const folders = traces[0].steps.flatMap((s) => (s.kind === 'tool_call' ? [[s.callId, s.workdir]] : []));
    assert.deepEqual(folders, [
      ['c1', 'app'],
      ['c2', '.'],
      ['c3', '/opt/toolchain'],
      ['c4', undefined],
      ['c5', 'app'],
    ]);
  });
});

describe('Codex: a rollout with a header only', () => {
  it('is skipped as empty, not warned about', async () => {
    const dir = tempDir('combee-codex-empty-');
    const path = rollout(dir, 1, []);
    rollout(dir, 2, said('fix the cart total'));
    const { traces, summary } = await importDir(dir);
    assert.equal(traces.length, 1);
    assert.deepEqual(summary.warningMessages, []);
    assert.equal(summary.skipped.empty, 1);
    assert.deepEqual(summary.skippedSamples.empty, [path]);
  });
});

describe('Codex: prompts expanded at the start of sessions', () => {
  const persona = (agent: string) =>
    `Take on the persona defined in the project's agent folder and keep it until told to stop.\nLoad agents/${agent}.md, greet the user, show its menu and wait for a choice.`;

  it('recur at the start of many sessions: marked as context, the title is the user’s own first words', async () => {
    const dir = tempDir('combee-codex-persona-');
    rollout(dir, 1, [...said(persona('architect')), ...said('design the payment module')]);
    rollout(dir, 2, [...said(persona('product manager')), ...said('write the brief for refunds')]);
    rollout(dir, 3, [...said(persona('architect')), ...said('review the data model')]);
    rollout(dir, 4, said('why does the cart total round down?'));
    const { traces } = await importDir(dir);
    const byTitle = traces.map((t) => t.title).sort();
    assert.deepEqual(byTitle, [
      'design the payment module',
      'review the data model',
      'why does the cart total round down?',
      'write the brief for refunds',
    ]);
    for (const trace of traces) {
      const users = trace.steps.filter((s) => s.kind === 'user');
      if (users.length === 2) {
        assert.equal(users[0].kind === 'user' && users[0].isMeta, true);
        assert.equal(users[1].kind === 'user' && users[1].isMeta, undefined);
      } else {
        assert.equal(users[0].kind === 'user' && users[0].isMeta, undefined);
      }
    }
  });

  it('are told by recurrence, not wording: one long first message, or the same one twice (a fork), is the user’s', () => {
    const long = 'Please migrate the checkout service from the legacy payment gateway to the new provider API.';
    assert.deepEqual([...recurringOpenings([openingOf(long)])], []);
    assert.deepEqual([...recurringOpenings([openingOf(long), openingOf(long)])], []);
    assert.equal(recurringOpenings([openingOf(long), openingOf(long), openingOf(long)]).size, 1);
    assert.equal(recurringOpenings([openingOf(`${long} Start with refunds.`), openingOf(`${long} Then tax.`)]).size, 1);
    // a short message is never taken for a template, however often it is typed
    assert.deepEqual([...recurringOpenings(['continue', 'continue', 'continue'].map(openingOf))], []);
  });

  it('are found across the import, also when the other sessions were imported before (their openings are kept)', async () => {
    const dir = tempDir('combee-codex-persona-later-');
    const store = new TraceStore(tempDir('combee-codex-store-'));
    rollout(dir, 1, [...said(persona('architect')), ...said('design the payment module')]);
    await importSessions({ from: dir, store });
    // alone, nothing recurs: its first message is the user's as far as anyone can tell
    assert.deepEqual(
      (await store.listTraces()).map((t) => t.title),
      [titleOf(persona('architect'))],
    );
    const index = await store.loadIndex();
    assert.deepEqual(
      Object.values(index.files).map((f) => f.opening),
      [openingOf(persona('architect'))],
    );
    rollout(dir, 2, [...said(persona('analyst')), ...said('list the risks')]);
    await importSessions({ from: dir, store });
    const titles = (await store.listTraces()).map((t) => t.title);
    assert.ok(titles.includes('list the risks'), titles.join(' | '));
  });
});
