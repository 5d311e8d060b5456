import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokenLinks, documentationFiles, headingAnchors, markdownLinks } from '../../support/markdownDocs';
import { REPO_ROOT } from '../../support/paths';

describe('documentation links', () => {
  it('every relative link of the README, CONTRIBUTING.md, docs/ and bench/README.md reaches a file and heading', () => {
    const files = documentationFiles(REPO_ROOT);
    assert.ok(files.includes('docs/architecture.md'), `docs/ was not read: ${files.join(', ')}`);
    assert.deepEqual(
      files.flatMap((file) => brokenLinks(join(REPO_ROOT, file), REPO_ROOT)),
      [],
    );
  });

  it('the packaged README links only to its own headings, the web, and images the package ships', () => {
    const dir = mkdtempSync(join(tmpdir(), 'combee-readme-'));
    try {
      const out = join(dir, 'README.md');
      const run = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'marketplace-readme.mjs'), out], {
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      const packaged = readFileSync(out, 'utf8');
      const anchors = headingAnchors(packaged);
      const wrong = markdownLinks(packaged)
        .filter(({ target, image }) =>
          target.startsWith('#')
            ? !anchors.has(target.slice(1))
            : !/^https?:/.test(target) && !(image && target.startsWith('media/')),
        )
        .map(({ target, line }) => `${line}: ${target}`);
      assert.deepEqual(wrong, []);
      assert.ok(packaged.includes('](media/'), 'the packaged README shows its screenshot');
      assert.deepEqual(brokenLinks(join(REPO_ROOT, 'README.md'), REPO_ROOT), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the check finds a missing file, a missing heading and a link out of the repository (it is not vacuous)', () => {
    const root = mkdtempSync(join(tmpdir(), 'combee-links-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'docs', 'a.md'), '# A page\n\n## Second, part (two)\n');
      writeFileSync(
        join(root, 'README.md'),
        [
          '# Title',
          '[ok](docs/a.md#second-part-two) [ok](#title) [web](https://example.com) `[code](nowhere.md)`',
          '[gone](docs/b.md) [no heading](docs/a.md#third) [out](../elsewhere.md) ![img](media/x.png)',
          '```',
          '[in a fence](fenced.md)',
          '```',
        ].join('\n'),
      );
      assert.deepEqual(brokenLinks(join(root, 'README.md'), root), [
        'README.md:3: docs/b.md (no such file)',
        'README.md:3: docs/a.md#third (no heading with that anchor)',
        'README.md:3: ../elsewhere.md (outside the repository)',
        'README.md:3: media/x.png (no such file)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('anchors follow GitHub: punctuation dropped, spaces as hyphens, repeats numbered', () => {
    const anchors = headingAnchors(
      '# Sessions view: 10,000 sessions\n## Figures\n### Figures\n## `combee.x` settings\n',
    );
    assert.deepEqual([...anchors], ['sessions-view-10000-sessions', 'figures', 'figures-1', 'combeex-settings']);
  });
});
