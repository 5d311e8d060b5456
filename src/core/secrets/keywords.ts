import { endianness } from 'node:os';
import type { SecretRule } from './rule';

/**
 * The keyword pre-filter: one pass over a text through an Aho-Corasick automaton of every rule's keywords
 * (case-insensitive, as a flat transition table) finds which keywords occur and where, and on the way the base64 runs
 * and `%XX` escapes the encoded pass needs. Only rules whose keyword occurs run; anchored rules run only where it
 * occurs. The pass costs the same however many rules and keywords there are.
 */

export interface TextScan {
  /** Rule indices whose keyword occurs, ascending. */
  rules: readonly number[];
  /** For anchored rules: the offsets where one of their keywords starts, ascending. */
  anchors: ReadonlyMap<number, readonly number[]>;
  /** [start, end) pairs of runs of 24+ base64 characters that could be encoded text (mixed case, length a multiple of 4). */
  base64: readonly number[];
  /** A `%XX` escape occurs. */
  percent: boolean;
}

const ALPHABET = 128;
/** 1 for the characters of base64 (standard alphabet). */
const BASE64 = new Uint8Array(ALPHABET);
for (let c = 0; c < ALPHABET; c++) if (/[A-Za-z0-9+/]/.test(String.fromCharCode(c))) BASE64[c] = 1;
const MIN_BASE64_RUN = 24;
/** A character class: its column in the low six bits, this bit set for base64 characters. */
const COLUMN_MASK = 63;
const BASE64_BIT = 64;
const BASE64_SHIFT = 6;
/** Characters of a keyword the automaton looks for. */
const KEYWORD_PREFIX = 4;

// Scratch of the walk, grown when a text needs more (scans never overlap: JavaScript runs one at a time).
/** (state row, offset) pairs of the keyword ends of one walk. */
let END_SCRATCH: Int32Array = new Int32Array(8192);
/** Starts of the base64 runs of one walk; their number is `walked.runs`. */
let RUN_SCRATCH: Int32Array = new Int32Array(1024);
const walked = { runs: 0 };
const NO_RULES: number[] = [];
const NO_RUNS: number[] = [];
/** Shared by the texts without anchored keywords, never written to (`record` replaces it first). */
const NO_ANCHORS = new Map<number, number[]>();

interface Keyword {
  /** Lower case, whole. */
  text: string;
  rules: number[];
  anchored: number[];
}

/** The first characters of keywords: what the automaton looks for; a keyword is then checked whole where they end. */
interface Prefix {
  text: string;
  keywords: number[];
}

export class KeywordFilter {
  private readonly keywords: Keyword[] = [];
  private readonly prefixes: Prefix[] = [];
  /** column[char]: the table column of an ASCII character (upper-case letters share their lower-case one's; 0: a character of no keyword, so the table stays small enough for the cache). */
  private readonly column = new Uint8Array(ALPHABET);
  /**
   * classOf[unit]: the column (low six bits) and whether it is a base64 character (BASE64_BIT), for every UTF-16 unit:
   * one load per character and no branch, and the run counter is cleared by a mask instead of a multiply.
   */
  private readonly classOf = new Uint8Array(65536);
  private readonly width: number;
  /** delta[row + column]: the next state's row (a state's row is state × width, so the walk never multiplies). */
  private readonly delta: Uint16Array;
  /** Prefixes ending at each state: outputs[outStart[s] .. outStart[s + 1]). */
  private readonly outStart: Int32Array;
  private readonly outputs: Int32Array;
  /** Rows from this one on are states that end a prefix. */
  private readonly firstOutput: number;
  /** Per keyword and per rule: the stamp of the last scan that found it. */
  private readonly keywordSeen: Int32Array;
  private readonly ruleSeen: Int32Array;
  private stamp = 0;

  constructor(rules: readonly SecretRule[]) {
    const byText = new Map<string, Keyword>();
    const byPrefix = new Map<string, Prefix>();
    rules.forEach((rule, i) => {
      for (const raw of rule.keywords) {
        if (raw.length < 2 || /[^\x20-\x7e]/.test(raw))
          throw new Error(`keyword ${JSON.stringify(raw)} of ${rule.id}: two or more ASCII characters`);
        const text = raw.toLowerCase();
        let k = byText.get(text);
        if (!k) {
          k = { text, rules: [], anchored: [] };
          byText.set(text, k);
          this.keywords.push(k);
          // the automaton knows keywords by their first characters only, which keeps its table small enough to stay
          // in the cache between texts; where a prefix ends, its keywords are compared whole
          const start = text.slice(0, KEYWORD_PREFIX);
          let prefix = byPrefix.get(start);
          if (!prefix) {
            prefix = { text: start, keywords: [] };
            byPrefix.set(start, prefix);
            this.prefixes.push(prefix);
          }
          prefix.keywords.push(this.keywords.length - 1);
        }
        if (!k.rules.includes(i)) k.rules.push(i);
        if (rule.anchored && !k.anchored.includes(i)) k.anchored.push(i);
      }
    });
    // one column per character some keyword has (0: all others)
    const used = [...new Set(this.prefixes.flatMap((k) => [...k.text].map((ch) => ch.charCodeAt(0))))].sort(
      (x, y) => x - y,
    );
    used.forEach((c, i) => {
      this.column[c] = i + 1;
      if (c >= 97 && c <= 122) this.column[c - 32] = i + 1;
    });
    const width = used.length + 1;
    if (width > COLUMN_MASK + 1)
      throw new Error(`${width} keyword characters: the character classes hold ${COLUMN_MASK + 1}`);
    this.width = width;
    for (let c = 0; c < ALPHABET; c++) this.classOf[c] = this.column[c] | (BASE64[c] ? BASE64_BIT : 0);
    // the trie, in a flat table (-1: no child); typed arrays keep this start-up cost to a millisecond or two
    const capacity = this.prefixes.reduce((n, k) => n + k.text.length, 1);
    const child = new Int32Array(capacity * width).fill(-1);
    const ends: number[][] = [[]];
    let states = 1;
    this.prefixes.forEach((k, id) => {
      let s = 0;
      for (let j = 0; j < k.text.length; j++) {
        const col = this.column[k.text.charCodeAt(j)];
        if (child[s * width + col] < 0) {
          child[s * width + col] = states++;
          ends.push([]);
        }
        s = child[s * width + col];
      }
      ends[s].push(id);
    });
    // rows (state × width) are stored in 16 bits
    if (states * width > 65536) throw new Error('too many keyword states for the scan table');
    // failure links, breadth first, folded into a full transition table
    const delta = new Uint16Array(states * width);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let col = 0; col < width; col++) {
      const next = child[col];
      if (next >= 0) {
        delta[col] = next;
        queue.push(next);
      }
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      if (ends[fail[s]].length > 0) ends[s].push(...ends[fail[s]]);
      for (let col = 0; col < width; col++) {
        const next = child[s * width + col];
        if (next >= 0) {
          fail[next] = delta[fail[s] * width + col];
          delta[s * width + col] = next;
          queue.push(next);
        } else {
          delta[s * width + col] = delta[fail[s] * width + col];
        }
      }
    }
    // renumbered so that the states where a keyword ends come last: one comparison per character tells
    const order = [...Array(states).keys()].sort(
      (x, y) => Number(ends[x].length > 0) - Number(ends[y].length > 0) || x - y,
    );
    const rank = new Int32Array(states);
    order.forEach((old, i) => (rank[old] = i));
    const table = new Uint16Array(states * width);
    for (let old = 0; old < states; old++)
      for (let col = 0; col < width; col++) table[rank[old] * width + col] = rank[delta[old * width + col]] * width;
    this.delta = table;
    let first = order.findIndex((old) => ends[old].length > 0);
    if (first < 0) first = states;
    this.firstOutput = first * width;
    this.outStart = new Int32Array(states + 1);
    const flat: number[] = [];
    order.forEach((old, i) => {
      this.outStart[i] = flat.length;
      flat.push(...new Set(ends[old]));
    });
    this.outStart[states] = flat.length;
    this.outputs = Int32Array.from(flat);
    this.keywordSeen = new Int32Array(this.keywords.length);
    this.ruleSeen = new Int32Array(rules.length);
  }

  scan(text: string): TextScan {
    const noted = walk(text, this.delta, this.classOf, this.firstOutput);
    const runCount = walked.runs;
    const base64 = runCount === 0 ? NO_RUNS : measureRuns(text, RUN_SCRATCH, runCount);
    if (noted === 0) return { rules: NO_RULES, anchors: NO_ANCHORS, base64, percent: hasEscape(text) };
    const stamp = this.nextStamp();
    const found: number[] = [];
    const anchors = this.record(text, END_SCRATCH, noted, stamp, found);
    return { rules: this.rulesOf(found, stamp), anchors, base64, percent: hasEscape(text) };
  }

  /** A number no earlier scan of this filter used, so the seen marks need no clearing. */
  private nextStamp(): number {
    if (this.stamp === 0x7fffffff) {
      this.stamp = 0;
      this.keywordSeen.fill(0);
      this.ruleSeen.fill(0);
    }
    return ++this.stamp;
  }

  /** The rules of the keywords found, ascending. */
  private rulesOf(found: readonly number[], stamp: number): number[] {
    const rules: number[] = [];
    const seen = this.ruleSeen;
    for (const id of found) {
      for (const r of this.keywords[id].rules) {
        if (seen[r] === stamp) continue;
        seen[r] = stamp;
        rules.push(r);
      }
    }
    return rules.length > 1 ? rules.sort((a, b) => a - b) : rules;
  }

  /** The keywords whose prefix ends where noted (state row, offset) and which are there whole: marked found, and their start kept for anchored rules. */
  private record(text: string, ends: Int32Array, noted: number, stamp: number, found: number[]): Map<number, number[]> {
    const seen = this.keywordSeen;
    let anchors = NO_ANCHORS;
    for (let e = 0; e < noted; e += 2) {
      const s = (ends[e] / this.width) | 0;
      const i = ends[e + 1];
      for (let o = this.outStart[s]; o < this.outStart[s + 1]; o++) {
        const prefix = this.prefixes[this.outputs[o]];
        const start = i + 1 - prefix.text.length;
        for (const id of prefix.keywords) {
          const k = this.keywords[id];
          if (k.text.length > prefix.text.length && !occursAt(text, start, k.text)) continue;
          if (seen[id] !== stamp) {
            seen[id] = stamp;
            found.push(id);
          }
          if (k.anchored.length === 0) continue;
          if (anchors === NO_ANCHORS) anchors = new Map();
          for (const r of k.anchored) {
            const at = anchors.get(r);
            if (at === undefined) anchors.set(r, [start]);
            else if (at[at.length - 1] < start) at.push(start);
            else if (at[at.length - 1] !== start) insertSorted(at, start);
          }
        }
      }
    }
    return anchors;
  }

  get size(): number {
    return this.keywords.length;
  }
}

/** `keyword` (lower case) is in `text` at `start`, letters in either case. */
function occursAt(text: string, start: number, keyword: string): boolean {
  if (start + keyword.length > text.length) return false;
  for (let j = 0; j < keyword.length; j++) {
    const c = text.charCodeAt(start + j);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== keyword.charCodeAt(j)) return false;
  }
  return true;
}

/** A shorter keyword ending at the same place starts later: positions mostly arrive in order. */
function insertSorted(list: number[], value: number): void {
  let i = list.length - 1;
  while (i >= 0 && list[i] > value) i--;
  if (list[i] !== value) list.splice(i + 1, 0, value);
}

const RUN_REST = /[A-Za-z0-9+/]*/y;
/** The base64 runs starting at `starts` (each 24+ characters long), kept when they could be encoded text. */
function measureRuns(text: string, starts: Int32Array, count: number): readonly number[] {
  let runs = NO_RUNS;
  for (let r = 0; r < count; r++) {
    const start = starts[r];
    RUN_REST.lastIndex = start + MIN_BASE64_RUN;
    RUN_REST.test(text);
    runs = endRun(runs, text, start, RUN_REST.lastIndex);
  }
  return runs;
}

/** A `%XX` escape occurs. */
function hasEscape(text: string): boolean {
  for (let i = text.indexOf('%'); i !== -1; i = text.indexOf('%', i + 1)) if (isEscape(text, i)) return true;
  return false;
}

/** Keeps a run that could be base64 of text: its padding included, a multiple of 4 long, with both cases of letters. */
function endRun(runs: number[], text: string, start: number, end: number): number[] {
  let stop = end;
  while (stop < text.length && stop - end < 2 && text.charCodeAt(stop) === 61) stop++;
  if ((stop - start) % 4 !== 0) return runs;
  let upper = false;
  let lower = false;
  for (let i = start; i < end && !(upper && lower); i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) upper = true;
    else if (c >= 97 && c <= 122) lower = true;
  }
  if (!(upper && lower)) return runs;
  const out = runs === NO_RUNS ? [] : runs;
  out.push(start, stop);
  return out;
}

function isEscape(text: string, i: number): boolean {
  return i + 2 < text.length && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2));
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Characters copied into the unit buffer at a time. */
const WALK_CHUNK = 64 * 1024;
const UNITS = new Uint16Array(WALK_CHUNK);
const UNIT_BYTES = Buffer.from(UNITS.buffer);
/** The UTF-16 units a Buffer writes as `utf16le` are the characters themselves only where the machine is little-endian. */
const UNITS_NATIVE = endianness() === 'LE';

/**
 * The automaton over `text`: (state row, offset) pairs of keyword ends into END_SCRATCH (their count returned), the
 * starts of runs of 24+ base64 characters into RUN_SCRATCH (`walked.runs`). The characters are first copied into a
 * typed array, a chunk at a time: reading them there costs a third of `charCodeAt` on the two-byte and sliced strings
 * traces are made of.
 */
function walk(text: string, delta: Uint16Array, classOf: Uint8Array, firstOutput: number): number {
  const state = { s: 0, run: 0, noted: 0, runs: 0 };
  if (!UNITS_NATIVE) {
    walkUnits(stringUnits(text), text.length, 0, delta, classOf, firstOutput, state);
  } else if (text.length <= WALK_CHUNK) {
    UNIT_BYTES.write(text, 0, 'utf16le');
    walkUnits(UNITS, text.length, 0, delta, classOf, firstOutput, state);
  } else {
    for (let base = 0; base < text.length; base += WALK_CHUNK) {
      const piece = text.slice(base, base + WALK_CHUNK);
      UNIT_BYTES.write(piece, 0, 'utf16le');
      walkUnits(UNITS, piece.length, base, delta, classOf, firstOutput, state);
    }
  }
  walked.runs = state.runs;
  return state.noted;
}

interface WalkState {
  s: number;
  run: number;
  noted: number;
  runs: number;
}

/** One chunk of characters (`units[0..n)`, at `base` in the text); no call in the loop but the rare growth of a scratch. */
function walkUnits(
  units: Uint16Array,
  n: number,
  base: number,
  delta: Uint16Array,
  classOf: Uint8Array,
  firstOutput: number,
  state: WalkState,
): void {
  let ends = END_SCRATCH;
  let starts = RUN_SCRATCH;
  let { s, run, noted, runs } = state;
  for (let i = 0; i < n; i++) {
    const kind = classOf[units[i]];
    s = delta[s + (kind & COLUMN_MASK)];
    // -1 (all bits) for a base64 character, 0 for any other
    run = (run + 1) & -(kind >> BASE64_SHIFT);
    if (run === MIN_BASE64_RUN) {
      if (runs === starts.length) starts = RUN_SCRATCH = grow(starts);
      starts[runs++] = base + i + 1 - MIN_BASE64_RUN;
    }
    if (s >= firstOutput) {
      if (noted === ends.length) ends = END_SCRATCH = grow(ends);
      ends[noted++] = s;
      ends[noted++] = base + i;
    }
  }
  state.s = s;
  state.run = run;
  state.noted = noted;
  state.runs = runs;
}

/** The characters of `text` as numbers, where a Buffer cannot copy them natively. */
function stringUnits(text: string): Uint16Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

function grow(buffer: Int32Array): Int32Array {
  const bigger = new Int32Array(buffer.length * 2);
  bigger.set(buffer);
  return bigger;
}
