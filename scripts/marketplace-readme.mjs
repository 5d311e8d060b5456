// The .vsix carries the user-facing part of README.md (between its marketplace markers, minus the skipped parts):
// users need no build notes, and the package carries none of the repository's other documents.
// Usage: node scripts/marketplace-readme.mjs [<out>]   (default .combee-build/README.md, what `npm run package` ships)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const begin = readme.indexOf('<!-- marketplace:begin');
const end = readme.indexOf('<!-- marketplace:end -->');
if (begin < 0 || end < begin) throw new Error('README.md: marketplace markers missing');
const title = readme.slice(0, begin);
const body = readme
  .slice(readme.indexOf('-->', begin) + 3, end)
  .replace(/<!-- marketplace:skip-begin -->[\s\S]*?<!-- marketplace:skip-end -->\n?/g, '')
  // A link to a repository file the package does not carry (docs/, CONTRIBUTING.md) keeps its text only; an image
  // must be one the package ships (media/, see .vscodeignore), left relative (packaged with --no-rewrite-relative-links).
  .replace(/(!?)\[((?:[^[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)/g, (link, bang, text, target) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('media/')) return link;
    if (bang) throw new Error(`README.md: the image ${target} is not in media/, so the package would not carry it`);
    return text;
  });
const out = resolve(process.argv[2] ?? join(root, '.combee-build', 'README.md'));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${title.trim()}\n${body.trimEnd()}\n`);
console.log(`marketplace README: ${out}`);
