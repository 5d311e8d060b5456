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
/** Characters of a keyword the automaton looks for. */
const KEYWORD_PREFIX = 4;

const NONE_FOUND = new Uint8Array(0);
/** (state, offset) pairs of keyword ends noted during one scan (scans never overlap: JavaScript runs one at a time). */
const END_SCRATCH = new Int32Array(8192);
const NO_RULES: number[] = [];
const NO_RUNS: number[] = [];
/** Shared by the texts without keywords, never written to (`record` replaces it first). */
const NO_ANCHORS = new Map<number, number[]>();

interface Hits {
  found: Uint8Array;
  any: boolean;
  anchors: Map<number, number[]>;
}

interface Keyword {
  text: string;
  rules: number[];
  anchored: number[];
}

export class KeywordFilter {
  private readonly keywords: Keyword[] = [];
  /** column[char]: the table column of an ASCII character (upper-case letters share their lower-case one's; 0: a character of no keyword, so the table stays small enough for the cache). */
  private readonly column = new Uint8Array(ALPHABET);
  private readonly width: number;
  /** delta[state * width + column]: the next state. */
  private readonly delta: Uint16Array;
  /** Keywords ending at each state: outputs[outStart[s] .. outStart[s + 1]). */
  private readonly outStart: Int32Array;
  private readonly outputs: Int32Array;
  /** States from this one on end a keyword. */
  private readonly firstOutput: number;

  constructor(private readonly rules: readonly SecretRule[]) {
    const byText = new Map<string, Keyword>();
    rules.forEach((rule, i) => {
      for (const raw of rule.keywords) {
        if (raw.length < 2 || /[^\x20-\x7e]/.test(raw)) throw new Error(`keyword ${JSON.stringify(raw)} of ${rule.id}: two or more ASCII characters`);
        // a keyword's first characters pre-filter as well (a little less sharply) and keep the table small enough to
        // stay in the cache between texts; an anchored rule still starts where they do
        const text = raw.toLowerCase().slice(0, KEYWORD_PREFIX);
        let k = byText.get(text);
        if (!k) {
          k = { text, rules: [], anchored: [] };
          byText.set(text, k);
          this.keywords.push(k);
        }
        if (!k.rules.includes(i)) k.rules.push(i);
        if (rule.anchored && !k.anchored.includes(i)) k.anchored.push(i);
      }
    });
    // one column per character some keyword has (0: all others)
    const used = [...new Set(this.keywords.flatMap((k) => [...k.text].map((ch) => ch.charCodeAt(0))))].sort((x, y) => x - y);
    used.forEach((c, i) => {
      this.column[c] = i + 1;
      if (c >= 97 && c <= 122) this.column[c - 32] = i + 1;
    });
    const width = used.length + 1;
    this.width = width;
    // the trie, in a flat table (-1: no child); typed arrays keep this start-up cost to a millisecond or two
    const capacity = this.keywords.reduce((n, k) => n + k.text.length, 1);
    if (capacity >= 65536) throw new Error('too many keyword states for the scan table');
    const child = new Int32Array(capacity * width).fill(-1);
    const ends: number[][] = [[]];
    let states = 1;
    this.keywords.forEach((k, id) => {
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
    const order = [...Array(states).keys()].sort((x, y) => Number(ends[x].length > 0) - Number(ends[y].length > 0) || x - y);
    const rank = new Int32Array(states);
    order.forEach((old, i) => (rank[old] = i));
    const table = new Uint16Array(states * width);
    for (let old = 0; old < states; old++) for (let col = 0; col < width; col++) table[rank[old] * width + col] = rank[delta[old * width + col]];
    this.delta = table;
    this.firstOutput = order.findIndex((old) => ends[old].length > 0);
    if (this.firstOutput < 0) this.firstOutput = states;
    this.outStart = new Int32Array(states + 1);
    const flat: number[] = [];
    order.forEach((old, i) => {
      this.outStart[i] = flat.length;
      flat.push(...new Set(ends[old]));
    });
    this.outStart[states] = flat.length;
    this.outputs = Int32Array.from(flat);
  }

  scan(text: string): TextScan {
    const { delta, column, width, firstOutput } = this;
    // most texts hold no keyword: nothing is allocated for them
    const hits: Hits = { found: NONE_FOUND, any: false, anchors: NO_ANCHORS };
    let s = 0;
    const n = text.length;
    // the loop only notes where keywords end (no call in it, so it stays tight); they are looked at afterwards
    const ends = END_SCRATCH;
    let noted = 0;
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      s = delta[s * width + column[code < ALPHABET ? code : 0]];
      if (s >= firstOutput) {
        ends[noted++] = s;
        ends[noted++] = i;
        if (noted === ends.length) {
          for (let e = 0; e < noted; e += 2) this.record(ends[e], ends[e + 1], hits);
          noted = 0;
        }
      }
    }
    for (let e = 0; e < noted; e += 2) this.record(ends[e], ends[e + 1], hits);
    const rules: number[] = hits.any ? [] : NO_RULES;
    if (hits.any) {
      const hit = new Uint8Array(this.rules.length);
      for (let id = 0; id < this.keywords.length; id++) if (hits.found[id] === 1) for (const r of this.keywords[id].rules) hit[r] = 1;
      for (let r = 0; r < hit.length; r++) if (hit[r] === 1) rules.push(r);
    }
    return { rules, anchors: hits.anchors, base64: base64Runs(text), percent: hasEscape(text) };
  }

  /** The keywords ending at `i` (in state `s`): marked found, and their start kept for anchored rules. */
  private record(s: number, i: number, hits: Hits): void {
    for (let o = this.outStart[s]; o < this.outStart[s + 1]; o++) {
      const id = this.outputs[o];
      const k = this.keywords[id];
      if (hits.found === NONE_FOUND) {
        hits.found = new Uint8Array(this.keywords.length);
        hits.anchors = new Map();
      }
      if (hits.found[id] === 0) {
        hits.found[id] = 1;
        hits.any = true;
      } else if (k.anchored.length === 0) {
        continue;
      }
      const start = i + 1 - k.text.length;
      for (const r of k.anchored) {
        const at = hits.anchors.get(r);
        if (at === undefined) hits.anchors.set(r, [start]);
        else if (at[at.length - 1] < start) at.push(start);
        else if (at[at.length - 1] !== start) insertSorted(at, start);
      }
    }
  }

  get size(): number {
    return this.keywords.length;
  }
}

/** A shorter keyword ending at the same place starts later: positions mostly arrive in order. */
function insertSorted(list: number[], value: number): void {
  let i = list.length - 1;
  while (i >= 0 && list[i] > value) i--;
  if (list[i] !== value) list.splice(i + 1, 0, value);
}

const RUN_REST = /[A-Za-z0-9+/]*/y;
const isBase64 = (c: number) => c < ALPHABET && BASE64[c] === 1;

/**
 * Runs of 24+ base64 characters, found by looking at every 12th character only: such a run covers two consecutive
 * sampled places, and only there is it measured.
 */
function base64Runs(text: string): readonly number[] {
  let runs = NO_RUNS;
  const n = text.length;
  const step = MIN_BASE64_RUN / 2;
  for (let i = 0; i + step < n; i += step) {
    if (!isBase64(text.charCodeAt(i)) || !isBase64(text.charCodeAt(i + step))) continue;
    let start = i;
    while (start > 0 && isBase64(text.charCodeAt(start - 1))) start--;
    // the rest of the run by the regular expression engine: one call for a long run (a path, a blob)
    RUN_REST.lastIndex = i + 1;
    RUN_REST.test(text);
    const end = RUN_REST.lastIndex;
    if (end - start >= MIN_BASE64_RUN) runs = endRun(runs, text, start, end);
    // the next run starts after this one's end
    i = Math.ceil(end / step) * step - step;
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
