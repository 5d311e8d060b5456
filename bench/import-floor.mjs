#!/usr/bin/env node
// The floor of an import on a corpus: what any importer that decodes and parses every line as JSON and stores what it
// read as JSON must spend, with nothing else (no reader logic, no redaction, no validation, no cutting), on one thread.
// Compared with `bench/import.mjs`, it says how much of the import is the JSON work itself.
// Usage: node bench/import-floor.mjs [--size short|mixed|full|small] [--runs n]
import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { corpusDir, generate } from './generate-corpus.mjs';

const { values } = parseArgs({
  options: { size: { type: 'string', default: 'short' }, runs: { type: 'string', default: '3' } },
});
const cache = process.env.COMBEE_BENCH_DIR ?? join(homedir(), '.cache', 'combee-bench');
const root = corpusDir(values.size, join(cache, 'corpus'));
generate(values.size, root, (m) => process.stderr.write(`${m}\n`));

const files = [];
(function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.jsonl')) files.push(path);
  }
})(root);

/** One pass: `store` also serializes each file's records and writes them (as a store of what was read would). */
function pass(store) {
  const out = join(tmpdir(), `combee-floor-${process.pid}.jsonl`);
  const fd = openSync(out, 'w');
  let bytes = 0;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (const file of files) {
    const buffer = readFileSync(file);
    bytes += buffer.length;
    const records = [];
    let from = 0;
    for (let nl = buffer.indexOf(10); nl !== -1; nl = buffer.indexOf(10, from)) {
      const line = buffer.toString('utf8', from, nl);
      from = nl + 1;
      if (line) records.push(JSON.parse(line));
    }
    if (store) writeSync(fd, JSON.stringify(records));
  }
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  closeSync(fd);
  rmSync(out, { force: true });
  return { wallS, cpuS: (used.user + used.system) / 1e6, mb: bytes / 1e6 };
}

const best = (store) => {
  const all = Array.from({ length: Math.max(1, Number(values.runs)) }, () => pass(store));
  return all.reduce((a, b) => (b.cpuS < a.cpuS ? b : a));
};
for (const [name, store] of [
  ['decode + JSON.parse', false],
  ['decode + JSON.parse + JSON.stringify + write', true],
]) {
  const r = best(store);
  process.stdout.write(
    `${values.size}: ${files.length} files, ${r.mb.toFixed(0)} MB — ${name}: ${r.cpuS.toFixed(2)} s CPU on one thread (${(r.mb / r.cpuS).toFixed(0)} MB/s per core)\n`,
  );
}
