#!/usr/bin/env node
// What counting per session costs a run: every session of the learning corpus (1,000 simulated sessions, 22,000 steps,
// shaped like the learning benchmark's) judged against 60 rules in play, as learnWorkspace does each batch.
// Usage: node esbuild.mjs --tests && node bench/rule-evidence.mjs [--runs n]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../testing/fixtureWorkspace.mjs';

const require = createRequire(import.meta.url);
const out = (path) => require(join(REPO_ROOT, 'out', path));
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const { learningCorpus, plantedLessons } = out('bench/learn/corpus.js');
const { countBatch } = out('src/core/learn/rules/ruleCounting.js');
const { rulesInPlay } = out('src/core/learn/rules/inPlay.js');
const { parsePlaybook } = out('src/core/playbook/markdown.js');

const traces = learningCorpus(1000, plantedLessons(500), 2, 5).map((t) => ({
  ...t,
  agent: 'codex',
  startedAt: t.startedAt ?? '2026-11-01T00:00:00Z',
}));
const rules = Array.from(
  { length: 60 },
  (_, i) =>
    `[bat-${String(i + 1).padStart(5, '0')}] helpful=1 harmful=0 :: Run \`pnpm task${i}\` before \`pnpm test\`; never \`npm run task${i}\`.`,
);
const playbook = parsePlaybook(`## Build and test\n${rules.join('\n')}\n`);
const history = [
  {
    path: 'AGENTS.md',
    at: '2020-01-01T00:00:00.000Z',
    ruleIds: rules.map((r) => /** @type {RegExpExecArray} */ (/\[(.*?)\]/.exec(r))[1]),
  },
];
const reflections = traces.map((t) => ({ traceId: t.id, lessons: [], tags: [] }));
const steps = traces.reduce((n, t) => n + t.steps.length, 0);
const times = [];
for (let r = 0; r < Number(values.runs); r++) {
  const started = performance.now();
  countBatch(traces, reflections, playbook, { inPlay: (t) => rulesInPlay(t, history), counted: () => false });
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(
  `${traces.length} sessions (${steps} steps) × ${rules.length} rules in play: median ${times[Math.floor(times.length / 2)].toFixed(0)} ms, best ${times[0].toFixed(0)} ms (${times.length} runs in one process)`,
);
