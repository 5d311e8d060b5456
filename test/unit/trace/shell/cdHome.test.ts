import assert from 'node:assert/strict';
import { identities, parseLine } from '../../../../src/core/trace/shell';

// `cd ~/x` and `cd` alone go to a fixed place, the home folder: not under the folder the call ran in.

describe('shell: cd into the home folder', () => {
  it('places the commands after `cd ~/x` there, whatever folder the call ran in', () => {
    assert.equal(parseLine('cd ~/code/shop && pnpm lint').commands[1].cwd, '~/code/shop');
    assert.equal(parseLine('cd && ls').commands[1].cwd, '~');
    assert.equal(identities('cd ~/code/shop && pnpm lint', 'web')[0].cwd, '~/code/shop');
    assert.equal(identities('cd ../api && pnpm lint', 'web')[0].cwd, 'api');
    assert.equal(parseLine('cd web && cd /srv/app && make').commands[2].cwd, '/srv/app');
    assert.equal(parseLine('cd $DIR && make').commands[1].cwd, undefined);
  });
});
