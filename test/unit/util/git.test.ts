import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gitToFile, runGit, tryGit } from '../../../src/core/util/git';
import { git, gitInstalled, partialCloneWithHostileRemote, writeIn } from '../../../testing/gitRepo';
import { tempDir } from '../../../testing/tmp';

// Every git command Combee runs goes through src/core/util/git.ts: what it refuses here, every reader refuses.

describe('git as Combee runs it', function () {
  before(function () {
    if (!gitInstalled()) this.skip();
  });

  it("fetches nothing: a blob a partial clone lacks stays missing, and the remote's upload-pack never runs", async () => {
    const origin = tempDir('combee-git-origin-');
    git(origin, ['init', '-q']);
    for (const [i, text] of ['first', 'second', 'third'].entries()) {
      writeIn(origin, 'team/bundle.txt', `${text}\n`);
      git(origin, ['add', '-A']);
      git(origin, ['commit', '-q', '-m', text], `2025-01-0${i + 1}T10:00:00Z`);
    }
    const outside = tempDir('combee-git-lazy-');
    const { clone, marker, missing } = partialCloneWithHostileRemote(origin, outside);
    await assert.rejects(runGit(clone, ['cat-file', '-p', missing]));
    assert.equal(await tryGit(clone, ['cat-file', 'blob', missing]), undefined);
    await assert.rejects(gitToFile(clone, ['cat-file', 'blob', missing], join(outside, 'out'), 1024));
    assert.equal(existsSync(marker), false, 'a lazy fetch ran the configured upload-pack');
    // what the clone has is still read
    assert.match(await runGit(clone, ['log', '--format=%s']), /third\nsecond\nfirst/);
  });
});
