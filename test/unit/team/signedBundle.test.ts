import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TraceStore } from '../../../src/core/store/traceStore';
import { parseAllowedSigners, type AllowedSigners } from '../../../src/core/team/allowedSigners';
import { BundleError, writeBundle } from '../../../src/core/team/bundle';
import { describeSigner } from '../../../src/core/team/bundleSignature';
import { corroborationOf } from '../../../src/core/team/corroboration';
import { importBundle } from '../../../src/core/team/importBundle';
import type { Trace } from '../../../src/core/trace/model';
import { keygenKey, keygenSign, nodeSshKey, nodeSshsig, sshKeygen, type NodeSshKey } from '../../support/sshSigning';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, user } from '../../../testing/traces';
import { screenRule } from '../../../src/core/trust/screenRule';

// A signed bundle: `<bundle>.sig` beside it, checked against the user's allowed signers before anything is read.

const NS = 'combee-bundle';
const NOW = new Date('2026-12-01T00:00:00.000Z');

function session(id: string, extra: Partial<Trace> = {}): Trace {
  return makeTrace(id, [user(`Run the tests before you push (${id}).`)], {
    cwd: '.',
    startedAt: '2026-11-10T10:00:00.000Z',
    endedAt: '2026-11-10T10:05:00.000Z',
    source: { path: `${id}.jsonl`, bytes: 100 },
    ...extra,
  });
}

async function bundleOf(root: string, name: string, exportedBy: string, traces: Trace[]): Promise<string> {
  const path = join(root, `${name}.combee-bundle`);
  await writeBundle(path, { exportedBy, newestSessionAt: '2026-11-20T00:00:00.000Z', workspaceName: 'ws' }, traces);
  return path;
}

const signWithNode = (key: NodeSshKey, path: string, namespace = NS) =>
  writeFileSync(`${path}.sig`, nodeSshsig(key, readFileSync(path), namespace));

function setup() {
  const root = tempDir('combee-signed-');
  const workspace = join(root, 'ws');
  mkdirSync(workspace, { recursive: true });
  const store = new TraceStore(join(root, 'store'));
  return { root, workspace, store };
}

const allowedOf = (lines: string[]): AllowedSigners => parseAllowedSigners(lines.join('\n'), 'allowed_signers');

describe('signed team bundles', () => {
  const alice = nodeSshKey('ssh-ed25519');
  const allowed = allowedOf([`alice@example.com ${alice.publicLine}`]);

  it('a valid signature by an allowed key makes its principal the verified contributor of every session', async () => {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'a', 'Alice S.', [session('claude-code:s1'), session('claude-code:s2')]);
    signWithNode(alice, path);
    const result = await importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed });
    assert.equal(result.signature.status, 'verified');
    assert.equal(result.imported, 2);
    assert.deepEqual(result.warnings, []);
    for (const trace of await store.listTraces()) {
      assert.equal(trace.contributor, 'alice@example.com');
      assert.equal(trace.signedBy, 'alice@example.com');
    }
    const summaries = await store.listSummaries();
    assert.equal(summaries[0].signedBy, 'alice@example.com');
    assert.equal(
      describeSigner(result.signature, result.bundle.exportedBy),
      'signed by alice@example.com (verified; exported as Alice S.)',
    );
  });

  it('a valid signature by a key not in the allowed signers is not verified: the name stays self-declared', async () => {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'm', 'alice@example.com', [session('claude-code:m1')]);
    const mallory = nodeSshKey('ssh-ed25519');
    signWithNode(mallory, path);
    const result = await importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed });
    assert.equal(result.signature.status, 'unverified');
    assert.equal(result.imported, 1);
    assert.equal(result.warnings.length, 1);
    assert.match(
      result.warnings[0],
      /signed with key SHA256:\S+, not verified \(allowed_signers: the key is not listed\)/,
    );
    const [trace] = await store.listTraces();
    assert.equal(trace.contributor, 'alice@example.com');
    assert.equal(trace.signedBy, undefined);
    assert.equal(
      describeSigner(result.signature, 'alice@example.com'),
      'exported by alice@example.com (self-declared)',
    );
  });

  it('with no allowed-signers file set, a good signature verifies nobody', async () => {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'a', 'alice', [session('claude-code:n1')]);
    signWithNode(alice, path);
    const result = await importBundle({ store, path, workspace, now: NOW });
    assert.equal(result.signature.status, 'unverified');
    assert.match(result.warnings[0], /no allowed-signers file is set/);
    assert.equal((await store.listTraces())[0].signedBy, undefined);
  });

  it('a bundle changed after it was signed is refused whole', async () => {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'a', 'alice', [session('claude-code:t1')]);
    signWithNode(alice, path);
    // re-exported with another session under the same signature
    await bundleOf(root, 'a', 'alice', [session('claude-code:t1'), session('claude-code:t2')]);
    await assert.rejects(
      importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed }),
      (error: Error) =>
        error instanceof BundleError && /does not match it: it changed after it was signed/.test(error.message),
    );
    assert.equal((await store.listSummaries()).length, 0);
    // a byte appended is a change too
    signWithNode(alice, path);
    appendFileSync(path, Buffer.from([0]));
    await assert.rejects(importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed }), BundleError);
  });

  it('a signature made for another namespace (a git commit signature) is refused', async () => {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'a', 'alice', [session('claude-code:g1')]);
    signWithNode(alice, path, 'git');
    await assert.rejects(
      importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed }),
      (error: Error) => error instanceof BundleError && /made for "git", not "combee-bundle"/.test(error.message),
    );
    assert.equal((await store.listSummaries()).length, 0);
  });

  it('a malformed or unsupported .sig is a counted warning: the bundle is read as unsigned', async () => {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'a', 'alice', [session('claude-code:w1')]);
    for (const text of ['garbage', '-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n']) {
      writeFileSync(`${path}.sig`, text);
      const result = await importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed });
      assert.equal(result.signature.status, 'unreadable');
      assert.equal(result.warnings.length, 1);
      assert.match(result.warnings[0], /\.sig is not a signature Combee can check: .*read as unsigned/);
    }
    assert.equal((await store.listTraces())[0].signedBy, undefined);
  });

  it('a .sig that is a symbolic link is not followed', async function () {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'a', 'alice', [session('claude-code:l1')]);
    writeFileSync(join(root, 'elsewhere.sig'), nodeSshsig(alice, readFileSync(path), NS));
    try {
      symlinkSync(join(root, 'elsewhere.sig'), `${path}.sig`);
    } catch {
      this.skip(); // no symbolic links here (Windows without the privilege)
    }
    const result = await importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed });
    assert.equal(result.signature.status, 'unreadable');
    assert.equal((await store.listTraces())[0].signedBy, undefined);
  });

  it('a bundle’s own lines cannot claim a session is signed', async () => {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'f', 'mallory', [session('claude-code:f1', { signedBy: 'alice@example.com' })]);
    await importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed });
    const [trace] = await store.listTraces();
    assert.equal(trace.contributor, 'mallory');
    assert.equal(trace.signedBy, undefined);
  });

  it('counts people by verified signer: two bundles signed by one key are one person, whatever names they give', async () => {
    const { root, workspace, store } = setup();
    const a = await bundleOf(root, 'a', 'alice', [session('claude-code:p1')]);
    const b = await bundleOf(root, 'b', 'bob', [session('claude-code:p2')]);
    signWithNode(alice, a);
    signWithNode(alice, b);
    for (const path of [a, b]) await importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed });
    const contributors = new Map((await store.listTraces()).map((t) => [t.id, t.contributor]));
    const support = [...contributors.keys()].map((traceId) => ({ traceId, steps: [0] }));
    assert.deepEqual(
      corroborationOf(support, (id) => contributors.get(id)),
      { people: 1, sessions: 2 },
    );
  });

  it('a verified signer is named as such, yet the rule its sessions alone show stays flagged team-only', async () => {
    const { root, workspace, store } = setup();
    const signed = await bundleOf(root, 'a', 'Alice', [session('claude-code:v1')]);
    signWithNode(alice, signed);
    const unsigned = await bundleOf(root, 'b', 'bob', [session('claude-code:v2')]);
    for (const path of [signed, unsigned])
      await importBundle({ store, path, workspace, now: NOW, allowedSigners: allowed });
    const traces = new Map((await store.listTraces()).map((t) => [t.id, t]));
    const flags = screenRule(
      {
        op: 'ADD',
        content: 'Run the tests before you push.',
        support: [...traces.keys()].map((traceId) => ({ traceId, steps: [0] })),
      },
      traces,
    );
    const teamOnly = flags.find((f) => f.kind === 'team-only');
    assert.ok(teamOnly, JSON.stringify(flags));
    assert.match(
      teamOnly.reason,
      /team bundles \(signed by "alice@example\.com" \(verified\); exported as "bob"; the names are self-declared\)/,
    );
  });

  it('a key whose line allows only other namespaces, or has expired, does not verify', async () => {
    const { root, workspace, store } = setup();
    const path = await bundleOf(root, 'a', 'alice', [session('claude-code:o1')]);
    signWithNode(alice, path);
    for (const line of [
      `alice@example.com namespaces="git" ${alice.publicLine}`,
      `alice@example.com valid-before="20261101Z" ${alice.publicLine}`,
    ]) {
      const result = await importBundle({ store, path, workspace, now: NOW, allowedSigners: allowedOf([line]) });
      assert.equal(result.signature.status, 'unverified');
    }
  });
});

describe('signed team bundles, signed with ssh-keygen', function () {
  before(function () {
    if (!sshKeygen()) {
      console.log(
        '    (ssh-keygen is not installed: the ssh-keygen signing flow is skipped; Node-signed bundles are tested above)',
      );
      this.skip();
    }
  });

  for (const type of ['ed25519', 'ecdsa', 'rsa'] as const) {
    it(`${type}: the documented flow (ssh-keygen -Y sign -n combee-bundle) verifies the signer`, async () => {
      const { root, workspace, store } = setup();
      const key = keygenKey(root, `id_${type}`, type);
      const path = await bundleOf(root, 'team', 'dana', [session(`claude-code:k-${type}`)]);
      keygenSign(key.path, path, NS);
      const allowedSigners = allowedOf([`dana@example.com,dana ${key.publicLine}`]);
      const result = await importBundle({ store, path, workspace, now: NOW, allowedSigners });
      assert.equal(result.signature.status, 'verified');
      assert.equal((await store.listTraces())[0].signedBy, 'dana');
    });
  }

  it('ssh-keygen signing for git (namespace "git") is refused', async () => {
    const { root, workspace, store } = setup();
    const key = keygenKey(root, 'id', 'ed25519');
    const path = await bundleOf(root, 'team', 'dana', [session('claude-code:k-git')]);
    keygenSign(key.path, path, 'git');
    await assert.rejects(
      importBundle({ store, path, workspace, now: NOW, allowedSigners: allowedOf([`dana ${key.publicLine}`]) }),
      BundleError,
    );
  });
});
