// `combee bench secrets [--json] [--out <folder>]`: recall and false positives of the redaction on the project's
// secret corpus (test/support/secretCorpus.ts, secretFileCorpus.ts), and the redaction's speed on a fixed text.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Step, TraceDraft } from '../../src/core/trace/model';
import { normalizeTrace } from '../../src/core/trace/normalize';
import { createRedactor } from '../../src/core/trace/redact';
import { reflectionPrompt } from '../../src/core/llm/prompts';
import { emptyPlaybook } from '../../src/core/playbook/markdown';
import { condenseTrace } from '../../src/core/trace/condense';
import { withEnforceHook } from '../../src/core/assets/enforce/claudeSettings';
import { CLAUDE_SETTINGS_PATH, renderEnforcement } from '../../src/core/assets/enforce/render';
import { storedText } from '../../src/core/assets/storedText';
import { parsePlaybook } from '../../src/core/playbook/markdown';
import { buildCorpus, LOOK_ALIKES, type SecretShape } from '../../testing/secretCorpus';
import { buildHeldoutCorpus, HELDOUT_LOOK_ALIKES } from '../../testing/secretCorpusHeldout';
import { buildSecretFiles, NOT_SECRET_FILES, type SecretFile } from '../../testing/secretFileCorpus';

export const SECRETS_USAGE = 'combee bench secrets [--json] [--out <folder>]';
/** Shapes of the corpus before the wider set was added (they come first). */
const FIRST_SET = 117;

const leaks = (text: string, needles: readonly string[]) =>
  needles.some((n) => {
    for (let i = 0; i + 8 <= n.length; i++) if (text.includes(n.slice(i, i + 8))) return true;
    return false;
  });

/** The text forms a shape is tried in; each must come out with no piece of it. */
function forms(shape: SecretShape): Array<[string, string[]]> {
  const b64 = Buffer.from(shape.text).toString('base64');
  return [
    [`before ${shape.text} after`, shape.needles],
    [JSON.stringify({ command: `cd app\n${shape.text}\necho done` }), shape.needles],
    [`echo ${b64} | base64 -d`, [b64]],
    [`https://x.example/?q=${encodeURIComponent(shape.text)}&page=2`, shape.needles],
  ];
}

function draft(steps: Step[]): TraceDraft {
  return {
    id: 'bench:secret-files',
    agent: 'claude-code',
    source: { path: 'b', bytes: 1 },
    steps,
    unknown: {},
    warnings: [],
  };
}

/** A Write of the file, a Read of it and a `cat`, with their results, as the importer stores them. */
function fileSteps(file: Pick<SecretFile, 'path' | 'content'>): Step[] {
  return [
    {
      index: 0,
      kind: 'tool_call',
      callId: 'w',
      tool: 'Write',
      input: JSON.stringify({ file_path: file.path, content: file.content }),
    },
    { index: 1, kind: 'tool_call', callId: 'r', tool: 'Read', input: JSON.stringify({ file_path: file.path }) },
    { index: 2, kind: 'tool_result', callId: 'r', output: file.content, isError: false },
    {
      index: 3,
      kind: 'tool_call',
      callId: 'c',
      tool: 'Bash',
      command: `cat ${file.path}`,
      input: JSON.stringify({ command: `cat ${file.path}` }),
    },
    { index: 4, kind: 'tool_result', callId: 'c', output: file.content, isError: false },
  ];
}

/**
 * Where a secret goes: a session's text to the stored session, its title and a model's request; a value of
 * `.claude/settings.json`'s `env` to the stored proposal and the undo stack when Combee adds its hook.
 */
const SINKS = ['store', 'title', 'model request', 'settings env'] as const;
type Sink = (typeof SINKS)[number];

/**
 * The shape said by the user (also the session's title), echoed by the agent, run as a command and printed by it,
 * imported as the importer does; then each sink's text: the stored session, its title, the reflection request.
 */
function sinkTexts(shape: SecretShape): Record<Sink, string> {
  const steps: Step[] = [
    { index: 0, kind: 'user', text: `note: ${shape.text}` },
    { index: 1, kind: 'assistant', text: `Noted: ${shape.text}` },
    {
      index: 2,
      kind: 'tool_call',
      callId: 'c',
      tool: 'Bash',
      command: `printf '%s\\n' '${shape.text.replace(/'/g, "'\\''")}'`,
      input: JSON.stringify({ command: `printf '%s\\n' '${shape.text.replace(/'/g, "'\\''")}'` }),
    },
    { index: 3, kind: 'tool_result', callId: 'c', output: shape.text, isError: false },
  ];
  const trace = normalizeTrace(
    { ...draft(steps), id: 'bench:sinks', title: shape.text.split('\n')[0] },
    createRedactor({ homePaths: false }),
  );
  const { title, ...stored } = trace;
  return {
    store: JSON.stringify(stored),
    title: title ?? '',
    'model request': JSON.stringify(reflectionPrompt(condenseTrace(trace).text, emptyPlaybook())),
    'settings env': settingsSinkText(shape),
  };
}

const ENFORCED_PLAYBOOK = parsePlaybook(
  '## Setup\n<!-- combee:enforced [setu-00001] claude-code: `npm install` (bench) -->\n[setu-00001] helpful=0 harmful=0 :: Never run `npm install`.\n',
);

/** The shape as an env value of the team's settings: the proposal adding the hook, and what an undo entry keeps. */
function settingsSinkText(shape: SecretShape): string {
  const settings = `{\n  "env": { "TEAM_VALUE": ${JSON.stringify(shape.text)} },\n  "model": "opus"\n}\n`;
  const files = renderEnforcement({
    playbook: ENFORCED_PLAYBOOK,
    readFile: (rel) => (rel === CLAUDE_SETTINGS_PATH ? settings : undefined),
  });
  const written = withEnforceHook(settings, true) ?? '';
  return JSON.stringify([files, storedText(CLAUDE_SETTINGS_PATH, settings), storedText(CLAUDE_SETTINGS_PATH, written)]);
}

/** Per sink, the shapes that leave a piece of a secret there. */
export function sinkLeaks(corpus: readonly SecretShape[]): Record<Sink, string[]> {
  const leaked: Record<Sink, string[]> = { store: [], title: [], 'model request': [], 'settings env': [] };
  for (const shape of corpus) {
    const texts = sinkTexts(shape);
    for (const sink of SINKS) if (leaks(texts[sink], shape.needles)) leaked[sink].push(shape.name);
  }
  return leaked;
}

interface Figures {
  shapes: { first: [number, number]; wider: [number, number]; placements: [number, number] };
  secretFiles: { files: [number, number]; placements: [number, number] };
  falsePositives: { lookAlikes: [number, number]; fileLookAlikes: [number, number]; otherFiles: [number, number] };
  speed: { megabytes: number; bestMBps: number };
  /** The held-out corpus (testing/secretCorpusHeldout.ts) in the four forms, and its look-alikes changed. */
  heldout: { shapes: [number, number]; placements: [number, number]; leaked: string[]; lookAlikes: [number, number] };
  /** Shapes leaking at each sink, main and held-out corpora. */
  sinks: { main: Record<Sink, string[]>; heldout: Record<Sink, string[]> };
}

function measure(): Figures {
  const corpus = buildCorpus();
  const shapeClean = corpus.map((shape) =>
    forms(shape).map(([text, needles]) => !leaks(createRedactor({ homePaths: false }).redact(text), needles)),
  );
  const whole = (ok: boolean[]) => ok.every(Boolean);
  const count = (list: boolean[]): [number, number] => [list.filter(Boolean).length, list.length];

  const files = buildSecretFiles();
  const filePlacements = files.map((file) => {
    const trace = normalizeTrace(draft(fileSteps(file)), createRedactor({ homePaths: false }));
    return trace.steps.map((s) => !leaks(JSON.stringify(s), file.needles));
  });
  const fileKept = files.flatMap((file) => {
    const trace = normalizeTrace(draft(fileSteps(file)), createRedactor({ homePaths: false }));
    const output = (trace.steps[2] as Extract<Step, { kind: 'tool_result' }>).output;
    return file.keep.map((k) => output.includes(k));
  });
  const otherFiles = NOT_SECRET_FILES.map((file) => {
    const trace = normalizeTrace(draft(fileSteps(file)), createRedactor({ homePaths: false }));
    return (trace.steps[2] as Extract<Step, { kind: 'tool_result' }>).output === file.content;
  });
  const lookAlikes = LOOK_ALIKES.map((t) => createRedactor({ homePaths: false }).redact(t) === t);
  const heldout = buildHeldoutCorpus();
  const heldoutClean = heldout.map((shape) =>
    forms(shape).map(([text, needles]) => !leaks(createRedactor({ homePaths: false }).redact(text), needles)),
  );
  const heldoutLookAlikes = HELDOUT_LOOK_ALIKES.map((t) => createRedactor({ homePaths: false }).redact(t) === t);

  // speed: ordinary session text with a secret every few KB, redacted in 64 KB pieces as tool outputs are
  const line =
    'ok  src/cart/total.test.ts > computes the total with tax (3 ms) token_count=12 see https://x.example/a\n';
  const piece =
    line.repeat(Math.ceil(65_536 / line.length)).slice(0, 60_000) +
    corpus
      .map((s) => s.text)
      .slice(0, 6)
      .join('\n');
  const pieces = 320;
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const redactor = createRedactor({ homePaths: false });
    const t0 = performance.now();
    for (let i = 0; i < pieces; i++) redactor.redact(`${i}${piece}`);
    best = Math.min(best, performance.now() - t0);
  }
  const megabytes = (pieces * piece.length) / 1e6;
  return {
    shapes: {
      first: count(shapeClean.slice(0, FIRST_SET).map(whole)),
      wider: count(shapeClean.slice(FIRST_SET).map(whole)),
      placements: count(shapeClean.flat()),
    },
    secretFiles: { files: count(filePlacements.map(whole)), placements: count(filePlacements.flat()) },
    falsePositives: {
      lookAlikes: count(lookAlikes.map((kept) => !kept)),
      fileLookAlikes: count(fileKept.map((kept) => !kept)),
      otherFiles: count(otherFiles.map((kept) => !kept)),
    },
    speed: { megabytes: Math.round(megabytes * 10) / 10, bestMBps: Math.round((megabytes / (best / 1000)) * 10) / 10 },
    heldout: {
      shapes: count(heldoutClean.map(whole)),
      placements: count(heldoutClean.flat()),
      leaked: heldout.filter((_, i) => !whole(heldoutClean[i])).map((shape) => shape.name),
      lookAlikes: count(heldoutLookAlikes.map((kept) => !kept)),
    },
    sinks: { main: sinkLeaks(corpus), heldout: sinkLeaks(heldout) },
  };
}

export async function runSecretsBench(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const outAt = argv.indexOf('--out');
  const out = outAt >= 0 ? argv[outAt + 1] : join('bench', 'results');
  const f = measure();
  const pair = ([a, b]: [number, number]) => `${a}/${b}`;
  if (json) process.stdout.write(`${JSON.stringify(f, null, 2)}\n`);
  else
    process.stdout.write(
      [
        `shapes fully redacted (plain, JSON-escaped, base64, URL-encoded): first set ${pair(f.shapes.first)}, wider set ${pair(f.shapes.wider)}; placements ${pair(f.shapes.placements)}`,
        `secret-bearing files with no value left (Write input, Read and cat outputs): ${pair(f.secretFiles.files)}; steps ${pair(f.secretFiles.placements)}`,
        `false positives: look-alikes changed ${pair(f.falsePositives.lookAlikes)}, look-alike lines of secret files lost ${pair(f.falsePositives.fileLookAlikes)}, other files changed ${pair(f.falsePositives.otherFiles)}`,
        `held-out corpus fully redacted (the four forms): ${pair(f.heldout.shapes)} shapes, placements ${pair(f.heldout.placements)}${f.heldout.leaked.length ? ` (leaked: ${f.heldout.leaked.join('; ')})` : ''}; its look-alikes changed ${pair(f.heldout.lookAlikes)}`,
        `shapes leaking at each sink (store, title, model request, settings env): main ${SINKS.map((k) => f.sinks.main[k].length).join(', ')}; held-out ${SINKS.map((k) => f.sinks.heldout[k].length).join(', ')}${[...new Set(SINKS.flatMap((k) => [...f.sinks.main[k], ...f.sinks.heldout[k]]))].map((n) => `\n  leaks: ${n}`).join('')}`,
        `redaction speed: ${f.speed.megabytes} MB in 64 KB pieces, best of 3: ${f.speed.bestMBps} MB/s`,
        '',
      ].join('\n'),
    );
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'secrets.json'), `${JSON.stringify(f, null, 2)}\n`);
  return 0;
}
