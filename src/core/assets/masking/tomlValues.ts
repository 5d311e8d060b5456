import type { MaskedValue } from './maskedValue';
import { maskTag, pathKey, type ValuePath } from './secretNames';

// The secret values of a TOML config file (Codex's `.codex/config.toml`), found by a reader of exactly what such a
// file is made of: comments, `[table]` and `[[array.of.tables]]` headers, bare, quoted and dotted keys, and values
// (one-line basic and literal strings, inline tables, arrays, bare scalars). One-line strings are the values it masks;
// multi-line strings are stepped over and left to the redactor's scan. Anything else and the file reads as
// unreadable. No TOML library among the project's dependencies reports where a value is written.

class Unreadable extends Error {}

const BARE_KEY = /[A-Za-z0-9_-]/;
/** Arrays and inline tables nest this deep at most (the reader recurses). */
const MAX_NESTING = 64;
const BARE_VALUE = /^[A-Za-z0-9_:.+\- ]+$/;

class TomlReader {
  private i = 0;
  private readonly values: MaskedValue[] = [];
  private table: ValuePath = [];
  private depth = 0;
  /** Each array of tables (its path, with its parents' indices) and the index of its last element. */
  private readonly arrays = new Map<string, number>();

  constructor(private readonly text: string) {}

  read(): MaskedValue[] {
    for (;;) {
      this.skipBlank();
      if (this.i >= this.text.length) return this.values;
      if (this.text[this.i] === '[') this.header();
      else this.keyValue(this.table);
      this.endOfLine();
    }
  }

  private fail(): never {
    throw new Unreadable();
  }

  private atNewline(): boolean {
    return this.text[this.i] === '\n' || this.text.startsWith('\r\n', this.i);
  }

  private skipSpaces(): void {
    while (this.text[this.i] === ' ' || this.text[this.i] === '\t') this.i++;
  }

  private skipComment(): void {
    if (this.text[this.i] !== '#') return;
    while (this.i < this.text.length && !this.atNewline()) this.i++;
  }

  /** Spaces, comments and line ends. */
  private skipBlank(): void {
    for (;;) {
      this.skipSpaces();
      this.skipComment();
      if (!this.atNewline()) return;
      this.i += this.text[this.i] === '\n' ? 1 : 2;
    }
  }

  private endOfLine(): void {
    this.skipSpaces();
    this.skipComment();
    if (this.i < this.text.length && !this.atNewline()) this.fail();
  }

  private header(): void {
    const array = this.text.startsWith('[[', this.i);
    this.i += array ? 2 : 1;
    const keys = this.keys();
    if (!this.text.startsWith(array ? ']]' : ']', this.i)) this.fail();
    this.i += array ? 2 : 1;
    if (!array) {
      this.table = this.resolve(keys);
      return;
    }
    const own = [...this.resolve(keys.slice(0, -1)), keys[keys.length - 1]];
    const index = (this.arrays.get(pathKey(own)) ?? -1) + 1;
    this.arrays.set(pathKey(own), index);
    this.table = [...own, index];
  }

  /** A header's path: a part that names an array of tables means its last element. */
  private resolve(keys: string[]): ValuePath {
    const path: Array<string | number> = [];
    for (const key of keys) {
      path.push(key);
      const index = this.arrays.get(pathKey(path));
      if (index !== undefined) path.push(index);
    }
    return path;
  }

  /** A dotted key: `a`, `"a.b".c`, `'x' . y`. */
  private keys(): string[] {
    const keys: string[] = [];
    for (;;) {
      this.skipSpaces();
      keys.push(this.key());
      this.skipSpaces();
      if (this.text[this.i] !== '.') return keys;
      this.i++;
    }
  }

  private key(): string {
    const c = this.text[this.i];
    if (c === '"' || c === "'") {
      if (this.text.startsWith(c.repeat(3), this.i)) this.fail();
      const start = this.i;
      this.oneLineString();
      const raw = this.text.slice(start, this.i);
      if (c === "'") return raw.slice(1, -1);
      try {
        return JSON.parse(raw) as string;
      } catch {
        // an escape JSON doesn't have (`\e`, `\U0001F600`): the key as written, the same in every text read
        return raw.slice(1, -1);
      }
    }
    const start = this.i;
    while (this.i < this.text.length && BARE_KEY.test(this.text[this.i])) this.i++;
    if (this.i === start) this.fail();
    return this.text.slice(start, this.i);
  }

  private keyValue(base: ValuePath): void {
    const keys = this.keys();
    if (this.text[this.i] !== '=') this.fail();
    this.i++;
    this.skipSpaces();
    this.value([...base, ...keys]);
  }

  /** A `"…"` or `'…'` string on one line; the reader stands after it. */
  private oneLineString(): void {
    const quote = this.text[this.i++];
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined || c === '\n' || c === '\r') this.fail();
      this.i++;
      if (c === quote) return;
      if (c === '\\' && quote === '"') {
        if (this.text[this.i] === undefined || this.atNewline()) this.fail();
        this.i++;
      }
    }
  }

  /** A `"""…"""` or `'''…'''` string: stepped over (a closing run of up to five quotes ends with the string's own). */
  private multiLineString(quote: string): void {
    const close = quote.repeat(3);
    this.i += 3;
    for (;;) {
      if (this.i >= this.text.length) this.fail();
      if (quote === '"' && this.text[this.i] === '\\') this.i += 2;
      else if (this.text.startsWith(close, this.i)) {
        this.i += 3;
        for (let extra = 0; extra < 2 && this.text[this.i] === quote; extra++) this.i++;
        return;
      } else this.i++;
    }
  }

  private value(path: ValuePath): void {
    const c = this.text[this.i];
    if (c === '"' || c === "'") {
      if (this.text.startsWith(c.repeat(3), this.i)) return this.multiLineString(c);
      const start = this.i;
      this.oneLineString();
      const tag = maskTag(path, true);
      if (tag) this.values.push({ path, start, end: this.i, tagged: JSON.stringify(tag) });
      return;
    }
    if (c === '{' || c === '[') {
      if (++this.depth > MAX_NESTING) this.fail();
      if (c === '{') this.inlineTable(path);
      else this.array(path);
      this.depth--;
      return;
    }
    const start = this.i;
    while (this.i < this.text.length && !/[,\]}#\r\n]/.test(this.text[this.i])) this.i++;
    while (this.i > start && /[ \t]/.test(this.text[this.i - 1])) this.i--;
    if (!BARE_VALUE.test(this.text.slice(start, this.i))) this.fail();
  }

  /** `{ k = v, … }`: on one line in TOML 1.0; line ends and a trailing comma are read too (TOML 1.1). */
  private inlineTable(path: ValuePath): void {
    this.i++;
    this.skipBlank();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.keyValue(path);
      this.skipBlank();
      const c = this.text[this.i++];
      if (c === '}') return;
      if (c !== ',') this.fail();
      this.skipBlank();
      if (this.text[this.i] === '}') {
        this.i++;
        return;
      }
    }
  }

  private array(path: ValuePath): void {
    this.i++;
    for (let index = 0; ; index++) {
      this.skipBlank();
      if (this.text[this.i] === ']') {
        this.i++;
        return;
      }
      this.value([...path, index]);
      this.skipBlank();
      const c = this.text[this.i++];
      if (c === ']') return;
      if (c !== ',') this.fail();
    }
  }
}

/** The values to mask in a TOML text, in order; undefined when it can't be read. */
export function tomlMaskedValues(text: string): MaskedValue[] | undefined {
  try {
    return new TomlReader(text).read();
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
}
