import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../../support/paths';

function files(dir: string, extensions = ['.ts']): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return files(full, extensions);
    return extensions.some((extension) => name.endsWith(extension)) ? [full] : [];
  });
}

const importsOf = (source: string) =>
  [
    ...source.matchAll(
      /(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3]);

describe('architecture', () => {
  it('src/core never imports vscode (nor the extension, webview or CLI layers)', () => {
    const offenders: string[] = [];
    for (const file of files(join(REPO_ROOT, 'src', 'core'))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (spec === 'vscode' || /(^|\/)(extension|webview|cli)(\/|$)/.test(spec))
          offenders.push(`${relative(REPO_ROOT, file)} → ${spec}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('the webview reaches the extension only through the shared protocol (and the pure layout core keeps with a run)', () => {
    const offenders: string[] = [];
    for (const file of files(join(REPO_ROOT, 'src', 'webview'))) {
      for (const spec of importsOf(readFileSync(file, 'utf8')))
        if (
          spec.startsWith('.') &&
          !/\/shared\/(protocol|stagesByModel)$|\/core\/learn\/record\/layout$/.test(spec) &&
          !spec.startsWith('./')
        )
          offenders.push(`${relative(REPO_ROOT, file)} → ${spec}`);
    }
    assert.deepEqual(offenders, []);
  });

  it('the layout both sides run (the learner and the webview) imports no layer and no Node or VS Code API', () => {
    const specs = importsOf(readFileSync(join(REPO_ROOT, 'src', 'core', 'learn', 'record', 'layout.ts'), 'utf8'));
    assert.deepEqual(specs, ['d3-dag']);
  });

  it('benchmarks share support code with the tests through testing/, never by importing test/', () => {
    const offenders: string[] = [];
    for (const file of files(join(REPO_ROOT, 'bench'), ['.ts', '.mjs']))
      for (const spec of importsOf(readFileSync(file, 'utf8')))
        if (/^(\.\.\/)+test\//.test(spec)) offenders.push(`${relative(REPO_ROOT, file)} → ${spec}`);
    assert.deepEqual(offenders, []);
  });

  it('the checker catches a vscode import (it is not vacuous)', () => {
    assert.deepEqual(importsOf("import * as vscode from 'vscode';\nconst x = require('vscode');"), [
      'vscode',
      'vscode',
    ]);
  });
});
