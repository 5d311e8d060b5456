// The .vsix carries the user-facing part of README.md (between its marketplace markers, minus the skipped parts):
// vsce cannot resolve the repository README's relative images without a repository URL, and users need no build notes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const begin = readme.indexOf('<!-- marketplace:begin');
const end = readme.indexOf('<!-- marketplace:end -->');
if (begin < 0 || end < begin) throw new Error('README.md: marketplace markers missing');
const title = readme.slice(0, begin);
const body = readme
  .slice(readme.indexOf('-->', begin) + 3, end)
  .replace(/<!-- marketplace:skip-begin -->[\s\S]*?<!-- marketplace:skip-end -->\n?/g, '');
const out = join(root, '.combee-build', 'README.md');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${title.trim()}\n${body.trimEnd()}\n`);
console.log(`marketplace README: ${out}`);
