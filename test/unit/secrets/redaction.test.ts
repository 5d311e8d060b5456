import assert from 'node:assert/strict';
import { ruleStats } from '../../../src/core/secrets/engine';
import { redactDeep } from '../../../src/core/secrets/deep';
import { createRedactor } from '../../../src/core/trace/redact';
import { JsonStringClipper } from '../../../src/core/trace/jsonClip';
import { clipMiddle } from '../../../src/core/util/text';
import { importSessions } from '../../../src/core/import/importer';
import { TraceStore } from '../../../src/core/store/traceStore';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../../support/paths';
import { writeClaudeSession } from '../../../testing/claudeSessions';
import { tempDir } from '../../../testing/tmp';
import { buildCorpus, LOOK_ALIKES, type SecretShape } from '../../../testing/secretCorpus';

const corpus = buildCorpus();

/** Every 8-character piece of the shape's random parts found in `text`. */
function leaks(text: string, needles: readonly string[]): string[] {
  const found: string[] = [];
  for (const needle of needles)
    for (let i = 0; i + 8 <= needle.length; i++)
      if (text.includes(needle.slice(i, i + 8))) found.push(needle.slice(i, i + 8));
  return found;
}

function assertClean(out: string, shape: SecretShape, where: string, needles = shape.needles): void {
  const found = leaks(out, needles);
  assert.deepEqual(found, [], `${shape.name} (${where}) left ${found.slice(0, 3).join(', ')} in: ${out.slice(0, 400)}`);
}

const FILLER = 'lorem ipsum dolor sit amet, consectetur adipiscing elit; ';
const filler = (n: number) => FILLER.repeat(Math.ceil(n / FILLER.length)).slice(0, n);

describe('secret redaction', () => {
  it('covers at least 60 shapes of the common providers and categories, with a keyword for every rule', () => {
    assert.ok(corpus.length >= 60, `${corpus.length} shapes`);
    const stats = ruleStats();
    assert.ok(stats.providers >= 60, `${stats.providers} providers and categories`);
    assert.ok(stats.keywords > 100);
  });

  it("the reliability page's counts of rules, providers and keywords are the engine's", () => {
    const page = readFileSync(join(REPO_ROOT, 'docs', 'reliability.md'), 'utf8');
    const shapes = /\*\*Shapes: (\d+) rules for (\d+) providers and (\d+) categories\*\*/.exec(page);
    const keywords = /rules' keywords \((\d+):/.exec(page);
    assert.ok(shapes && keywords, 'the page states the counts');
    const stats = ruleStats();
    assert.deepEqual(
      { rules: Number(shapes[1]), providers: Number(shapes[2]) + Number(shapes[3]), keywords: Number(keywords[1]) },
      stats,
    );
  });

  it('removes every shape as written, inside JSON-escaped text, base64-encoded and URL-encoded, and counts each', () => {
    for (const shape of corpus) {
      const forms: Array<[string, string, string[]]> = [
        ['plain', `before ${shape.text} after`, shape.needles],
        ['JSON-escaped after \\n', JSON.stringify({ command: `cd app\n${shape.text}\necho done` }), shape.needles],
        [
          'base64',
          `echo ${Buffer.from(shape.text).toString('base64')} | base64 -d`,
          [Buffer.from(shape.text).toString('base64')],
        ],
        ['URL-encoded', `https://x.example/?q=${encodeURIComponent(shape.text)}&page=2`, shape.needles],
      ];
      for (const [form, input, needles] of forms) {
        const redactor = createRedactor({ homePaths: false });
        const out = redactor.redact(input);
        assertClean(out, shape, form, needles);
        assert.ok(redactor.count >= 1, `${shape.name} (${form}) not counted`);
        assert.match(out, /\[REDACTED:[a-z0-9-]+\]/);
      }
    }
  });

  it('keeps look-alikes byte for byte: hashes, digests, integrity strings, UUIDs, versions, settings, placeholders, publishable keys, e-mail, ids', () => {
    const redactor = createRedactor({ homePaths: false });
    for (const text of LOOK_ALIKES) assert.equal(redactor.redact(text), text);
    assert.equal(redactor.redact(LOOK_ALIKES.join('\n')), LOOK_ALIKES.join('\n'));
    assert.equal(redactor.count, 0);
  });

  it('a match that holds no secret does not hide one that starts inside it', () => {
    for (const text of [
      'set the key: DB_PASSWORD=Xk29fLq8ZpW3',
      'the key: +SECRET_KEY_BASE=78e60f005338982bb9af5c81090623f2a03abda430776e5e087b1f212fc98394',
      '"key": "export API_TOKEN=Xk29fLq8ZpW3vRt7"',
    ]) {
      const out = createRedactor({ homePaths: false }).redact(text);
      assert.ok(!out.includes('Xk29fLq8') && !out.includes('78e60f00'), out);
    }
  });

  it('a bare value goes on past a semicolon, but not into the next command of a shell line', () => {
    const redact = (text: string) => createRedactor({ homePaths: false }).redact(text);
    for (const text of [
      'DB_PASSWORD=Xk29;fLq8ZpW3',
      'password: Xk29fLq8;ZpW3;vRt7 and more',
      'SECRET=k9z;Xk29fLq8ZpW3"',
    ])
      assert.ok(!/Xk29|fLq8|ZpW3|vRt7/.test(redact(text)), redact(text));
    assert.equal(
      redact('export TOKEN=Xk29fLq8ZpW3; make test'),
      'export TOKEN=[REDACTED:secret-assignment]; make test',
    );
    assert.equal(redact('TOKEN=Xk29fLq8ZpW3;'), 'TOKEN=[REDACTED:secret-assignment];');
  });

  it('is idempotent: redacted text has nothing left to find, and the same input gives the same output', () => {
    const text = corpus.map((s) => s.text).join('\n');
    const first = createRedactor();
    const once = first.redact(text);
    const second = createRedactor();
    assert.equal(second.redact(once), once);
    assert.equal(second.count, 0);
    assert.equal(createRedactor().redact(text), once);
  });

  it('removes half a private key block: BEGIN without END and END without BEGIN, in plain and JSON-escaped text', () => {
    const key = corpus.find((s) => s.name === 'private key (RSA PRIVATE KEY)') as SecretShape;
    const lines = key.text.split('\n');
    const head = lines.slice(0, 3).join('\n');
    const tail = lines.slice(3).join('\n');
    for (const text of [
      `cat id_rsa\n${head}`,
      `${tail}\n$ ls`,
      JSON.stringify({ content: `${head}` }),
      JSON.stringify({ content: `${tail}\n` }),
    ]) {
      const out = createRedactor().redact(text);
      assertClean(out, key, text.slice(0, 30));
      assert.match(out, /\[REDACTED:private-key\]/);
    }
    assert.equal(
      createRedactor()
        .redact(`${head}\n[... 123 characters cut ...]\nthe end`)
        .endsWith('[... 123 characters cut ...]\nthe end'),
      true,
    );
  });

  it('a cut in clipMiddle falls outside secrets: for every shape, at every offset across it, no piece of it survives (head and tail cuts)', () => {
    for (const shape of corpus) {
      const len = shape.text.length;
      // head cut sweeping the secret
      const before = 600;
      const text = `${filler(before)} ${shape.text} ${filler(4 * (before + len) + 400)}`;
      for (let h = before - 2; h <= before + len + 3; h += 3) {
        const keep = Math.floor(h / 0.4);
        const out = createRedactor().redact(clipMiddle(text, keep + 40).text);
        assertClean(out, shape, `head cut near ${h - before}`);
      }
      // tail cut sweeping the secret
      const after = 300;
      const tailText = `${filler(3 * (len + after) + 1200)} ${shape.text} ${filler(after)}`;
      for (let t = after - 2; t <= after + len + 3; t += 3) {
        const keep = Math.ceil(t / 0.6);
        const out = createRedactor().redact(clipMiddle(tailText, keep + 40).text);
        assertClean(out, shape, `tail cut near ${len + after - t}`);
      }
    }
  });

  it('a cut on the raw bytes of a JSON string (before decoding) falls outside secrets too', () => {
    for (const shape of corpus) {
      const body = `${filler(3000)}\n${shape.text}\n${filler(3000)}`;
      const line = Buffer.from(JSON.stringify({ content: body }));
      const at = line.indexOf(JSON.stringify(shape.text).slice(1, 12));
      assert.ok(at > 0, shape.name);
      const span = Buffer.byteLength(JSON.stringify(shape.text)) - 2;
      for (let offset = -2; offset <= span + 2; offset += 7) {
        for (const side of ['head', 'tail'] as const) {
          const cutAt = at + offset - '{"content":"'.length;
          const stringBytes = line.length - '{"content":""}'.length;
          const limits =
            side === 'head' ? { headBytes: cutAt, tailBytes: 200 } : { headBytes: 200, tailBytes: stringBytes - cutAt };
          const clipper = new JsonStringClipper(limits);
          clipper.write(line, 0, line.length);
          const decoded = (JSON.parse(clipper.end().toString('utf8')) as { content: string }).content;
          assertClean(createRedactor().redact(decoded), shape, `${side} byte cut at ${offset}`);
        }
      }
    }
  });

  it('runs user patterns in linear time: nested quantifiers on long inputs simply complete', () => {
    const invalid: string[] = [];
    const redactor = createRedactor(
      { extraPatterns: ['(a+)+$', '(x+x+)+y', '(.*a){12}', '^(a|aa)*$', 'ACME-[0-9]{6}'] },
      (source, why) => invalid.push(`${source}: ${why}`),
    );
    assert.deepEqual(invalid, []);
    for (const input of [`${'a'.repeat(50_000)}!`, `${'x'.repeat(50_000)}`, `${'ab'.repeat(20_000)}`])
      assert.equal(typeof redactor.redact(input), 'string');
    assert.equal(redactor.redact('ticket ACME-123456 done'), 'ticket [REDACTED:custom] done');
    assert.equal(
      redactor.redact(`echo ${Buffer.from('the ticket is ACME-654321, see you').toString('base64')}`),
      'echo [REDACTED:base64-secret]',
    );
  });

  it('rejects patterns RE2 cannot run in linear time, naming the pattern and why', () => {
    const invalid: Array<[string, string]> = [];
    createRedactor(
      { extraPatterns: ['(\\w)\\1', '(?=secret)\\w+', '(?<=key=)\\w+', '(unclosed', 'ok-[0-9]+'] },
      (source, why) => invalid.push([source, why]),
    );
    assert.deepEqual(
      invalid.map(([s]) => s),
      ['(\\w)\\1', '(?=secret)\\w+', '(?<=key=)\\w+', '(unclosed'],
    );
    assert.match(invalid[0][1], /backreference/);
    assert.match(invalid[1][1], /lookahead and lookbehind/);
    assert.match(invalid[2][1], /lookahead and lookbehind/);
    assert.match(invalid[3][1], /not a valid RE2 pattern.*missing closing \)/);
  });

  it('an import with a nested-quantifier user pattern completes, and a pattern RE2 rejects is a counted warning naming it', async () => {
    const root = tempDir('combee-re2-');
    const home = join(root, '.claude');
    // the case: (a+)+$ on 28+ characters took 14 s and doubled with each one more in a backtracking engine
    writeClaudeSession(home, '7e2e7e2e-aaaa-4bbb-8ccc-000000000001', '/home/dev/shop', [
      { user: `${'a'.repeat(5_000)}!` },
      { bash: { command: 'echo ACME-123456', output: 'ACME-123456' } },
    ]);
    const store = new TraceStore(join(root, 'store'));
    const summary = await importSessions({
      from: home,
      store,
      redaction: { extraPatterns: ['(a+)+$', '(x+x+)+y', 'ACME-[0-9]{6}', '(\\w)\\1'] },
    });
    assert.equal(summary.sessions, 1);
    assert.equal(summary.warnings, 1);
    assert.match(
      summary.warningMessages[0],
      /invalid redaction pattern "\(\\\\w\)\\\\1": backreferences cannot run in linear time/,
    );
    const trace = await store.loadTrace('claude-code:7e2e7e2e-aaaa-4bbb-8ccc-000000000001');
    assert.ok(trace && !JSON.stringify(trace).includes('ACME-123456'));
  });
});

describe('redacting a JSON value', () => {
  const TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
  it('redacts object keys as well as values, keeping two keys that redact alike', () => {
    const redactor = createRedactor();
    const value = { plain: 1, [TOKEN]: { nested: `token ${TOKEN}` }, [`${TOKEN}x`]: 2, list: [{ [TOKEN]: true }] };
    const out = redactDeep(value, (text) => redactor.redact(text));
    const text = JSON.stringify(out);
    assert.ok(!text.includes(TOKEN), text);
    assert.equal(Object.keys(out).length, 4, text);
    assert.equal(out.plain, 1);
    // nothing to redact: the very same object back
    const clean = { a: { b: ['c'] } };
    assert.equal(
      redactDeep(clean, (t) => redactor.redact(t)),
      clean,
    );
  });
});
