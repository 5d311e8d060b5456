import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { TraceStore } from '../../../src/core/store/traceStore';
import { capture } from '../../../testing/cliOutput';
import { keygenKey, keygenSign, nodeSshKey, nodeSshsig, sshKeygen } from '../../support/sshSigning';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, user } from '../../../testing/traces';
import { withGitConfig } from '../../support/gitConfig';

// `combee export` then `ssh-keygen -Y sign -n combee-bundle` then `combee import --bundle`: the documented flow.

async function exported(author: string) {
  const root = tempDir('combee-cli-signed-');
  const workspace = join(root, 'ws');
  mkdirSync(workspace, { recursive: true });
  const store = join(root, 'store');
  await new TraceStore(store).saveTrace(
    makeTrace('claude-code:one', [user('run the tests')], { cwd: workspace, endedAt: '2026-11-02T10:00:00.000Z' }),
  );
  const bundle = join(root, 'team.combee-bundle');
  const out = capture();
  const argv = ['export', '--bundle', bundle, '--workspace', workspace, '--store', store, '--author', author];
  assert.equal(await runCli(argv, out), 0, out.stderr.join('\n'));
  return { root, bundle, argv, out, bobWorkspace: workspace, bobStore: join(root, 'bob-store') };
}

describe('combee export / import --bundle with a signature', () => {
  it('export says how to sign, and removes a signature of the bundle it replaces', async () => {
    const s = await exported('alice');
    assert.match(s.out.stdout.join('\n'), /ssh-keygen -Y sign -n combee-bundle -f <your key> .*team\.combee-bundle/);
    const key = nodeSshKey('ssh-ed25519');
    writeFileSync(`${s.bundle}.sig`, nodeSshsig(key, readFileSync(s.bundle), 'combee-bundle'));
    const again = capture();
    assert.equal(await runCli(s.argv, again), 0);
    assert.equal(existsSync(`${s.bundle}.sig`), false);
    assert.match(again.stderr.join('\n'), /was the signature of the bundle this export replaced: removed/);
  });

  it('import --allowed-signers: "signed by … (verified)"; without the key listed, the name is self-declared', async () => {
    const s = await exported('Alice');
    const key = nodeSshKey('ssh-ed25519');
    writeFileSync(`${s.bundle}.sig`, nodeSshsig(key, readFileSync(s.bundle), 'combee-bundle'));
    const allowed = join(s.root, 'allowed_signers');
    writeFileSync(allowed, `alice@example.com ${key.publicLine}\n`);
    const base = ['import', '--bundle', s.bundle, '--workspace', s.bobWorkspace];
    const out = capture();
    await withGitConfig(join(s.root, 'none.gitconfig'), async () => {
      assert.equal(await runCli([...base, '--store', s.bobStore, '--allowed-signers', allowed], out), 0);
    });
    assert.match(
      out.stdout.join('\n'),
      /\(signed by alice@example\.com \(verified; exported as Alice\); newest session/,
    );
    assert.equal((await new TraceStore(s.bobStore).listTraces())[0].signedBy, 'alice@example.com');

    writeFileSync(allowed, `bob@example.com ${nodeSshKey('ssh-ed25519').publicLine}\n`);
    const other = capture();
    await withGitConfig(join(s.root, 'none.gitconfig'), async () => {
      assert.equal(await runCli([...base, '--store', join(s.root, 's2'), '--allowed-signers', allowed], other), 0);
    });
    assert.match(other.stdout.join('\n'), /\(exported by Alice \(self-declared\); newest session/);
    assert.match(other.stderr.join('\n'), /signed with key SHA256:\S+, not verified/);
  });

  it("takes the allowed signers from the user's global git config (gpg.ssh.allowedSignersFile)", async () => {
    const s = await exported('dana');
    const key = nodeSshKey('ecdsa-sha2-nistp256');
    writeFileSync(`${s.bundle}.sig`, nodeSshsig(key, readFileSync(s.bundle), 'combee-bundle'));
    const allowed = join(s.root, 'team_signers');
    writeFileSync(allowed, `dana ${key.publicLine}\n`);
    const gitconfig = join(s.root, 'user.gitconfig');
    writeFileSync(gitconfig, `[gpg "ssh"]\n\tallowedSignersFile = ${allowed}\n`);
    const out = capture();
    await withGitConfig(gitconfig, async () => {
      const argv = ['import', '--bundle', s.bundle, '--workspace', s.bobWorkspace, '--store', s.bobStore, '--json'];
      assert.equal(await runCli(argv, out), 0, out.stderr.join('\n'));
    });
    const [entry] = JSON.parse(out.stdout.join('\n')).bundles;
    assert.equal(entry.signature.status, 'verified');
    assert.deepEqual(entry.signature.principals, ['dana']);
  });

  it('a bundle whose signature fails is refused: exit 1, nothing imported', async () => {
    const s = await exported('alice');
    const key = nodeSshKey('ssh-ed25519');
    writeFileSync(`${s.bundle}.sig`, nodeSshsig(key, Buffer.from('another bundle'), 'combee-bundle'));
    const out = capture();
    const argv = ['import', '--bundle', s.bundle, '--workspace', s.bobWorkspace, '--store', s.bobStore];
    assert.equal(await withGitConfig(join(s.root, 'none'), () => runCli(argv, out)), 1);
    assert.match(out.stderr.join('\n'), /is refused: its signature \(key SHA256:\S+\) does not match it/);
    assert.equal((await new TraceStore(s.bobStore).listSummaries()).length, 0);
  });

  it('ssh-keygen end to end: export, sign with the documented command, import verified', async function () {
    if (!sshKeygen()) {
      console.log('    (ssh-keygen is not installed: skipped; the Node-signed cases above cover verification)');
      this.skip();
    }
    const s = await exported('erin');
    const key = keygenKey(s.root, 'id_ed25519', 'ed25519');
    keygenSign(key.path, s.bundle, 'combee-bundle');
    const allowed = join(s.root, 'allowed_signers');
    writeFileSync(allowed, `erin@example.com,erin namespaces="combee-bundle,git" ${key.publicLine}\n`);
    const out = capture();
    const argv = ['import', '--bundle', s.bundle, '--workspace', s.bobWorkspace, '--store', s.bobStore];
    assert.equal(
      await withGitConfig(join(s.root, 'none'), () => runCli([...argv, '--allowed-signers', allowed], out)),
      0,
    );
    assert.match(out.stdout.join('\n'), /\(signed by erin \(verified\); newest session/);
  });
});
