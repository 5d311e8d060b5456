#!/usr/bin/env node
// Writes the benchmark corpus (deterministic: same size → same bytes) outside the repository.
// Usage: node bench/generate-corpus.mjs [--size small|full|short|mixed|many] [--dir <folder>]
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { plan, writeFile, SIZES } from './corpus.mjs';

// any change to the generator's code makes a new corpus
export const GENERATOR_VERSION = createHash('sha256')
  .update(readFileSync(new URL('./corpus.mjs', import.meta.url)))
  .digest('hex')
  .slice(0, 16);

export function corpusDir(
  size,
  base = process.env.COMBEE_BENCH_DIR
    ? resolve(process.env.COMBEE_BENCH_DIR)
    : join(homedir(), '.cache', 'combee-bench', 'corpus'),
) {
  return join(base, size);
}

/** The manifest when the corpus on disk matches it (every file present with its size), else undefined. */
export function readManifest(root) {
  const path = join(root, 'manifest.json');
  if (!existsSync(path)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    if (manifest.version !== GENERATOR_VERSION) return undefined;
    for (const file of manifest.files) {
      const size = statSync(join(root, file.path), { throwIfNoEntry: false })?.size;
      // a crashed append run leaves files longer than planned: the bench truncates them back
      if (size === undefined || size < file.bytes) return undefined;
    }
    return manifest;
  } catch {
    return undefined;
  }
}

export function generate(size, root, log = (m) => process.stderr.write(`${m}\n`)) {
  const existing = readManifest(root);
  if (existing) {
    log(
      `corpus ${size} already at ${root} (${(existing.totalBytes / 1e6).toFixed(0)} MB, ${existing.files.length} files)`,
    );
    return existing;
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const files = plan(size);
  const started = Date.now();
  let total = 0;
  let secrets = 0;
  const written = [];
  for (const [i, file] of files.entries()) {
    const result = writeFile(root, file);
    total += result.bytes;
    secrets += result.secrets;
    const { multiMb: _multiMb, multiMbRange: _multiMbRange, hugeLine: _hugeLine, ...kept } = file;
    written.push({ ...kept, bytes: result.bytes });
    if ((i + 1) % 500 === 0 || i === 0)
      log(
        `  ${i + 1}/${files.length} files, ${(total / 1e6).toFixed(0)} MB, ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
  }
  const manifest = {
    version: GENERATOR_VERSION,
    size,
    totalBytes: total,
    secretsPlanted: secrets,
    claudeBytes: written.filter((f) => f.agent === 'claude-code').reduce((n, f) => n + f.bytes, 0),
    claudeFiles: written.filter((f) => f.agent === 'claude-code').length,
    codexFiles: written.filter((f) => f.agent === 'codex').length,
    largestFile: Math.max(...written.map((f) => f.bytes)),
    generatedIn: (Date.now() - started) / 1000,
    files: written,
  };
  writeFileSync(join(root, 'manifest.json'), JSON.stringify(manifest));
  log(
    `corpus ${size}: ${(total / 1e6).toFixed(0)} MB in ${files.length} files (${secrets} planted secrets) at ${root}, ${manifest.generatedIn.toFixed(0)} s`,
  );
  return manifest;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { size: { type: 'string', default: 'small' }, dir: { type: 'string' } } });
  if (!(values.size in SIZES)) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);
  generate(values.size, values.dir ? resolve(values.dir) : corpusDir(values.size));
}
