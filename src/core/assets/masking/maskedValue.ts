import type { ValuePath } from './secretNames';

/** A value a reader found to mask: where its text is in the file, and what it is stored as. */
export interface MaskedValue {
  path: ValuePath;
  start: number;
  end: number;
  /** The stored text that stands for it, as the file's syntax writes a string: `"[REDACTED:settings-env]"`. */
  tagged: string;
}

/** The values of a file to mask, in the order they are written; undefined when the text can't be read. */
export type ValueReader = (text: string) => MaskedValue[] | undefined;
