import assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/args';
import { replayedFlags } from '../../../src/cli/commands/resumeFlags';

// A saved Batch API run is a file in the store: what a resume replays of it can never choose an endpoint, a key,
// a path or a write.

describe('what a resume replays of a saved command line', () => {
  const saved = [
    ...['--provider', 'openai', '--base-url', 'https://api.example.com/v1', '--model', 'gpt-x', '--seed', '5'],
    ...['--targets=agents-md,claude-md', '--window-days', '0', '--json', '--batch-api', '--no-wait'],
  ];

  it('keeps what shapes the learning, given the same endpoint again', () => {
    assert.deepEqual(replayedFlags(saved, ['--base-url', 'https://api.example.com/v1'], 'b1'), [
      ...['--provider', 'openai', '--model', 'gpt-x', '--seed', '5', '--targets=agents-md,claude-md'],
      ...['--window-days', '0', '--json', '--batch-api'],
    ]);
  });

  it('refuses to resume toward a saved endpoint the command line does not name', () => {
    assert.throws(() => replayedFlags(saved, [], 'b1'), UsageError);
    assert.throws(
      () => replayedFlags(saved, ['--base-url=https://elsewhere.example/v1'], 'b1'),
      /submitted to https:\/\/api\.example\.com\/v1: resume it with --base-url/,
    );
  });

  it('drops every saved flag that writes, reads a path or widens where data may go (a tampered store)', () => {
    const tampered = [
      ...['--apply', '--pr-body', '/tmp/pr.md', '--out=/tmp/x', '--reduce', '/etc', '--store', '/tmp/s'],
      ...['--workspace', '/', '--playbook', '../../x.md', '--allow-insecure-http', '--shard', '1/2', '--seed', '9'],
    ];
    assert.deepEqual(replayedFlags(tampered, [], 'b2'), ['--seed', '9']);
  });
});
