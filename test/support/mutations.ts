import { seededRandom } from '../../src/core/learn/random';
/** Seeded damage done to a session file: the same seed gives the same bytes, run after run. */

/** The same seeded generator as the learning run's shuffle. */
export const seeded = seededRandom;

type Rng = () => number;
const pick = (rng: Rng, n: number) => Math.floor(rng() * n);

const lines = (b: Buffer) => b.toString('latin1').split('\n');
const join = (l: string[]) => Buffer.from(l.join('\n'), 'latin1');
/** Inserts `line` before a random line (never after a trailing newline's empty tail). */
function insertLine(b: Buffer, line: string, rng: Rng, at?: number): Buffer {
  const l = lines(b);
  const last = l[l.length - 1] === '' ? l.length - 1 : l.length;
  l.splice(at ?? pick(rng, last + 1), 0, line);
  return join(l);
}

const DEEP = 10_000;
const HUGE_LINE_BYTES = 1024 * 1024;
export const FUZZ_MAX_LINE_BYTES = 256 * 1024;

export interface Mutation {
  kind: string;
  apply(content: Buffer, rng: Rng): Buffer;
  /** How many seeded variants of it each sample gets. */
  variants: number;
  /** It only adds lines, or adds to a record: a line-oriented log (JSONL, Aider's Markdown) keeps every session. */
  keepsLines?: true;
}

export const MUTATIONS: Mutation[] = [
  { kind: 'truncate', variants: 4, apply: (b, rng) => b.subarray(0, 1 + pick(rng, Math.max(1, b.length - 1))) },
  {
    kind: 'flip bytes',
    variants: 4,
    apply: (b, rng) => {
      const out = Buffer.from(b);
      for (let n = 1 + pick(rng, 4); n > 0; n--) out[pick(rng, out.length)] ^= 1 << pick(rng, 8);
      return out;
    },
  },
  {
    kind: 'malformed line',
    keepsLines: true,
    variants: 2,
    apply: (b, rng) => insertLine(b, '{"type": "user", "message": {"content": "cut off her', rng),
  },
  {
    kind: 'unknown record type',
    keepsLines: true,
    variants: 2,
    apply: (b, rng) =>
      insertLine(b, JSON.stringify({ type: 'x-future-record', payload: { id: 7 }, data: { any: true } }), rng),
  },
  // The reported case: the first lines hold a malformed line and a record type the agent may add later.
  {
    kind: 'malformed + unknown at the head',
    keepsLines: true,
    variants: 1,
    apply: (b, rng) =>
      insertLine(
        insertLine(b, JSON.stringify({ type: 'x-future-record', payload: { id: 7 } }), rng, 0),
        '{"oops',
        rng,
        0,
      ),
  },
  {
    kind: 'deep nesting',
    keepsLines: true,
    variants: 1,
    apply: (b, rng) => insertLine(b, `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`, rng),
  },
  {
    kind: 'deep nesting, unclosed',
    keepsLines: true,
    variants: 1,
    apply: (b, rng) => insertLine(b, '{"a":'.repeat(DEEP), rng),
  },
  {
    // A real record of the sample with one more, deeply nested key: the reader takes it, and keeps what it does not know.
    kind: 'deep nesting in a record',
    keepsLines: true,
    variants: 2,
    apply: (b, rng) => {
      const l = lines(b);
      const records = l
        .map((line, i) => [line.trimEnd(), i] as const)
        .filter(([line]) => line.startsWith('{') && line.endsWith('}'));
      if (records.length === 0) return insertLine(b, `{"x-deep":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`, rng);
      const [line, i] = records[pick(rng, records.length)];
      l[i] = `${line.slice(0, -1)},"x-deep":${'['.repeat(DEEP)}"x"${']'.repeat(DEEP)}}`;
      return join(l);
    },
  },
  {
    // The same, one level down or more (a tool's input, a message's content): where readers serialize what they keep.
    kind: 'deep nesting inside a value',
    keepsLines: true,
    variants: 3,
    apply: (b, rng) => {
      const text = b.toString('latin1');
      const spots: number[] = [];
      for (let i = text.indexOf(':{"'); i !== -1; i = text.indexOf(':{"', i + 1)) spots.push(i + 2);
      if (spots.length === 0) return b;
      const at = spots[pick(rng, spots.length)];
      return Buffer.from(
        `${text.slice(0, at)}"x-deep":${'['.repeat(DEEP)}${']'.repeat(DEEP)},${text.slice(at)}`,
        'latin1',
      );
    },
  },
  { kind: 'reverse lines', variants: 1, apply: (b) => join(lines(b).reverse()) },
  {
    kind: 'duplicate lines',
    keepsLines: true,
    variants: 2,
    apply: (b, rng) => {
      const l = lines(b);
      for (let n = 1 + pick(rng, 3); n > 0; n--) {
        const i = pick(rng, l.length);
        l.splice(i, 0, l[i]);
      }
      return join(l);
    },
  },
  {
    kind: 'empty lines',
    keepsLines: true,
    variants: 1,
    apply: (b, rng) => insertLine(insertLine(b, '', rng), '   ', rng, 0),
  },
  {
    kind: 'CRLF',
    keepsLines: true,
    variants: 1,
    apply: (b) => Buffer.from(b.toString('latin1').replace(/\n/g, '\r\n'), 'latin1'),
  },
  { kind: 'BOM', keepsLines: true, variants: 1, apply: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) },
  {
    kind: 'invalid UTF-8',
    variants: 2,
    apply: (b, rng) => {
      const at = pick(rng, b.length + 1);
      return Buffer.concat([
        b.subarray(0, at),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
        b.subarray(at),
      ]);
    },
  },
  {
    kind: 'huge line',
    keepsLines: true,
    variants: 1,
    apply: (b, rng) => insertLine(b, JSON.stringify({ type: 'user', blob: 'x'.repeat(HUGE_LINE_BYTES) }), rng),
  },
];

/** Every mutation variant, with its own seed derived from the sample and variant (stable across runs). */
export function mutationsOf(sampleIndex: number): Array<{ label: string; mutation: Mutation; seed: number }> {
  return MUTATIONS.flatMap((mutation, m) =>
    Array.from({ length: mutation.variants }, (_, v) => ({
      label: mutation.variants > 1 ? `${mutation.kind} #${v + 1}` : mutation.kind,
      mutation,
      seed: (sampleIndex + 1) * 7919 + m * 104_729 + v * 15_485_863,
    })),
  );
}
