import assert from 'node:assert/strict';
import { emptySessionsReport, shortPath } from '../../../src/core/service/emptySessionsText';
import type { SessionPage } from '../../../src/core/service/sessionList';

const page = (folders: Array<{ cwd: string; sessions: number }>, sessions: number): SessionPage => ({
  rows: [],
  total: 0,
  byContributor: [],
  elsewhere: { sessions, folders },
});
const SEARCHED = ['Claude Code: ~/.claude/projects', 'Codex: ~/.codex/sessions (not on this machine)'];

describe('the Sessions view with nothing to list', () => {
  it('names this workspace, where sessions were searched, and the other folders the sessions belong to', () => {
    const text = emptySessionsReport(
      ['/home/ada/src/shop'],
      page(
        [
          { cwd: '/home/ada/src/api', sessions: 20 },
          { cwd: '/srv/tools', sessions: 6 },
        ],
        28,
      ),
      SEARCHED,
      '/home/ada',
    );
    assert.equal(
      text,
      [
        'No agent session ran in this workspace (~/src/shop).',
        '',
        'Searched (2):',
        '  Claude Code: ~/.claude/projects',
        '  Codex: ~/.codex/sessions (not on this machine)',
        '',
        '28 session(s) found belong to other folders; open one of them to learn from its sessions:',
        '  ~/src/api (20)',
        '  /srv/tools (6)',
        '  and 2 more',
        '',
        'Import Sessions… reads a folder of session logs once; Add Session Folders (combee.sources.extraFolders) watches one.',
        '',
      ].join('\n'),
    );
  });

  it('says when no session was found anywhere, and when no folder is open', () => {
    const text = emptySessionsReport([], page([], 0), SEARCHED, '/home/ada');
    assert.match(text, /^No agent session ran in this workspace \(no folder is open\)\./);
    assert.match(text, /^No session was found in those folders yet\.$/m);
  });

  it('says how many sessions ran here when there are some (the page opens from the palette too)', () => {
    const text = emptySessionsReport(['/home/ada/src/shop'], { ...page([], 0), total: 3 }, SEARCHED, '/home/ada');
    assert.match(text, /^3 session\(s\) ran in this workspace \(~\/src\/shop\)\./);
  });

  it('shortens only paths under the home folder itself', () => {
    assert.equal(shortPath('/home/ada/src', '/home/ada'), '~/src');
    assert.equal(shortPath('/home/adam/src', '/home/ada'), '/home/adam/src');
  });
});
