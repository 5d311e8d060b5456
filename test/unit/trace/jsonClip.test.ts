import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clipLimitsFor, JsonStringClipper, type JsonClipLimits } from '../../../src/core/trace/jsonClip';
import { readLines } from '../../../src/core/trace/lines';
import { clipMiddle } from '../../../src/core/util/text';
import { tempDir } from '../../../testing/tmp';

const LIMITS: JsonClipLimits = { headBytes: 300, tailBytes: 400 };
const CUT = /\[\.\.\. (\d+) characters cut \.\.\.\]/;
const CUT_SPLIT = /\[\.\.\. \d+ characters cut \.\.\.\]/;

/** Clips `json` fed in pieces cut at `splits` (byte offsets). */
function clip(json: string, limits = LIMITS, splits: number[] = []): string {
  const bytes = Buffer.from(json, 'utf8');
  const clipper = new JsonStringClipper(limits);
  let from = 0;
  for (const at of [...splits.filter((s) => s > 0 && s < bytes.length).sort((a, b) => a - b), bytes.length]) {
    // each piece in its own buffer, as a reused read buffer would be
    const piece = Buffer.from(bytes.subarray(from, at));
    clipper.write(piece, 0, piece.length);
    from = at;
  }
  return clipper.end().toString('utf8');
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = ['a', 'b', ' ', '\n', '"', '\\', 'é', '€', '😀', '\u0001', '\t', '/', '{', '}', 'z', '0'];

function randomText(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return text;
}

describe('cutting long JSON strings on the raw bytes', () => {
  it('keeps short strings and the structure byte for byte', () => {
    const json = JSON.stringify({
      type: 'user',
      message: { content: [{ type: 'text', text: 'a "quoted" \\ word é 😀' }] },
      n: [1, 2, null],
    });
    assert.equal(clip(json), json);
    assert.equal(clip(json, LIMITS, [1, 5, 17, 40, 41, 42]), json);
  });

  it('cuts a long string to its head, a marker and its tail, and the line still parses', () => {
    const long = `${'h'.repeat(5000)}MIDDLE${'t'.repeat(5000)}`;
    const out = JSON.parse(clip(JSON.stringify({ a: 'short', output: long, exit: 1 })));
    assert.equal(out.a, 'short');
    assert.equal(out.exit, 1);
    const [head, tail] = out.output.split(CUT_SPLIT);
    assert.ok(long.startsWith(out.output.slice(0, 300)));
    assert.ok(long.endsWith(out.output.slice(-400)));
    assert.ok(!out.output.includes('MIDDLE'));
    assert.equal(head.length, 300);
    assert.equal(Number(CUT.exec(out.output)?.[1]), long.length - 300 - 400);
    assert.ok(tail !== undefined);
  });

  it('gives the same result however the line is split into pieces, for escapes, quotes and multi-byte characters', () => {
    const next = rng(7);
    for (let round = 0; round < 200; round++) {
      const value = {
        short: randomText(next, Math.floor(next() * 50)),
        long: randomText(next, 600 + Math.floor(next() * 3000)),
        list: [randomText(next, Math.floor(next() * 900)), 'x'],
      };
      const json = JSON.stringify(value);
      const whole = clip(json);
      const splits = Array.from({ length: 1 + Math.floor(next() * 6) }, () =>
        Math.floor(next() * Buffer.byteLength(json)),
      );
      assert.equal(clip(json, LIMITS, splits), whole, `round ${round}`);
      const borrowing = new JsonStringClipper(LIMITS, true);
      const bytes = Buffer.from(json);
      borrowing.write(bytes, 0, bytes.length);
      assert.equal(borrowing.end().toString('utf8'), whole, `round ${round}: borrowed`);
      const parsed = JSON.parse(whole);
      assert.equal(parsed.short, value.short);
      const [head, tail] = String(parsed.long).split(CUT_SPLIT);
      if (tail === undefined) {
        assert.equal(parsed.long, value.long);
      } else {
        assert.ok(value.long.startsWith(head), `round ${round}: head is a prefix`);
        assert.ok(value.long.endsWith(tail), `round ${round}: tail is a suffix`);
        assert.ok(head.length >= 300 / 6 && tail.length >= 400 / 6 - 1, `round ${round}: ends kept`);
      }
    }
  });

  it('cuts strings inside the value of the `under` key harder, only at the top level, however the line is split', () => {
    const limits: JsonClipLimits = { ...LIMITS, under: { key: 'extra', headBytes: 20, tailBytes: 30 } };
    const long = `${'a'.repeat(600)}${'z'.repeat(600)}`; // under LIMITS' cut length
    const record = {
      type: 'user',
      message: { content: long, extra: long },
      extra: { stdout: long, list: [long, 'short'], flag: true, nested: { deeper: long } },
      after: long,
      label: 'extra',
    };
    const json = JSON.stringify(record);
    const whole = clip(json, limits);
    const out = JSON.parse(whole);
    const kept = (text: string) => text.split(CUT_SPLIT).join('').length;
    assert.equal(out.message.content, long, 'under the limit for ordinary strings');
    assert.equal(out.message.extra, long, 'a key of the same name deeper down is not the top-level one');
    assert.equal(out.after, long, 'the value after it is ordinary again');
    assert.ok(kept(out.extra.stdout) <= 50 && out.extra.stdout.startsWith('aaaa') && out.extra.stdout.endsWith('zzzz'));
    assert.ok(kept(out.extra.list[0]) <= 50 && kept(out.extra.nested.deeper) <= 50);
    assert.equal(out.extra.list[1], 'short');
    assert.equal(out.extra.flag, true);
    assert.equal(out.label, 'extra');
    const bytes = Buffer.byteLength(json);
    for (const at of [1, 10, 11, 12, 40, 900, 1000, 2000, 2500, 3000, 4000, bytes - 5])
      assert.equal(clip(json, limits, [at, at + 7]), whole, `split at ${at}`);
    // a string value of the key itself
    const asString = JSON.parse(clip(JSON.stringify({ extra: long, other: long }), limits));
    assert.ok(kept(asString.extra) <= 50);
    assert.equal(asString.other, long);
  });

  it('leaves JSON nested in a string parseable (Codex shell output)', () => {
    const inner = JSON.stringify({ output: `${'line "x" \\ é\n'.repeat(2000)}`, metadata: { exit_code: 2 } });
    const out = JSON.parse(clip(JSON.stringify({ type: 'function_call_output', output: inner })));
    const shell = JSON.parse(out.output);
    assert.equal(shell.metadata.exit_code, 2);
    assert.match(shell.output, CUT);
  });

  it('leaves an unterminated line unparseable, so it is reported as malformed', () => {
    const json = JSON.stringify({ output: 'x'.repeat(5000) }).slice(0, 3000);
    assert.throws(() => JSON.parse(clip(json)));
  });

  it('keeps what clipMiddle keeps, so clipMiddle counts what the raw cut removed and cuts nothing more', () => {
    const long = 'a'.repeat(100_000);
    const out = JSON.parse(clip(JSON.stringify({ output: long }), clipLimitsFor(2000))).output as string;
    const clipped = clipMiddle(out, 2000);
    assert.equal(clipped.truncatedFrom, 100_000);
    assert.equal(clipped.text, out, 'not cut a second time');
    // the same head and tail as clipMiddle of the whole text; only the marker is inline (it may sit in nested JSON)
    assert.equal(
      out.replace(CUT, (m) => `\n${m}\n`),
      clipMiddle(long, 2000).text,
    );
  });

  it('counts characters, not bytes, for escapes, multi-byte characters and surrogate pairs', () => {
    const next = rng(11);
    let cut = 0;
    for (let round = 0; round < 60; round++) {
      const long = randomText(next, 4000 + Math.floor(next() * 20_000));
      const json = JSON.stringify({ output: long });
      const out = JSON.parse(clip(json, clipLimitsFor(2000), [Math.floor(next() * json.length)])).output as string;
      if (!CUT.test(out)) continue;
      cut++;
      const [head, tail] = out.split(CUT_SPLIT);
      assert.ok(long.startsWith(head) && long.endsWith(tail), `round ${round}: head and tail of the text`);
      assert.ok(out.length <= 2000, `round ${round}: ${out.length} characters`);
      assert.equal(clipMiddle(out, 2000).text, out, `round ${round}: clipMiddle leaves it`);
      // a token boundary is near in this alphabet, so little is given up for it
      assert.ok(head.length > 700 && tail.length > 1050, `round ${round}: ${head.length} + ${tail.length}`);
    }
    assert.ok(cut > 40, `${cut} of 60 cut`);
  });

  it('reads a line far over the line limit when its size is in long strings', async () => {
    const path = join(tempDir('combee-clip-'), 'big.jsonl');
    const huge = `${'start '.repeat(10)}${'y'.repeat(6_000_000)}${' end'.repeat(10)}`;
    writeFileSync(
      path,
      `${JSON.stringify({ n: 1 })}\n${JSON.stringify({ n: 2, output: huge })}\n${JSON.stringify({ n: 3 })}\n`,
    );
    const seen: Array<{ n: number; output?: string }> = [];
    const result = await readLines(path, (l) => seen.push(JSON.parse(l.text)), {
      maxLineBytes: 1_000_000,
      clipStrings: clipLimitsFor(1000),
    });
    assert.deepEqual(
      seen.map((r) => r.n),
      [1, 2, 3],
    );
    assert.equal(result.skippedLongLines, 0);
    assert.ok(seen[1].output!.startsWith('start start'));
    assert.ok(seen[1].output!.endsWith('end end'));
    assert.ok(seen[1].output!.length < 5000);
  });
});
