import { CLAUDE_SETTINGS_PATH } from './enforce/claudeSettings';
import { EDITED_CONFIGS, type ConfigSyntax } from './enforce/editedConfigs';
import { jsonMaskedValues } from './masking/jsonValues';
import { maskText, unmaskText, type Unmasked } from './masking/maskedText';
import type { ValueReader } from './masking/maskedValue';
import { tomlMaskedValues } from './masking/tomlValues';
import { hashContent, makeFileChange, type FileChange } from './proposal';

// The agents' config files Combee edits in place hold the team's secrets (enforce/editedConfigs.ts): Combee stores
// them (in a proposal, the undo stack) with those values tagged, and makes the real text again from the file on disk
// when it writes the file, only when that text masks to exactly what was stored.

export { CLAUDE_SETTINGS_PATH };

const READERS: Record<ConfigSyntax, ValueReader> = { json: jsonMaskedValues, toml: tomlMaskedValues };

function readerOf(path: string): ValueReader | undefined {
  const syntax = EDITED_CONFIGS.get(path);
  return syntax && READERS[syntax];
}

/** Whether Combee stores this file's text masked. */
export const storedMasked = (path: string): boolean => EDITED_CONFIGS.has(path);

/** A file's text as Combee stores it. */
export function storedText(path: string, text: string): string;
export function storedText(path: string, text: string | undefined): string | undefined;
export function storedText(path: string, text: string | undefined): string | undefined {
  const read = readerOf(path);
  return text === undefined || !read ? text : maskText(text, read);
}

/** How many redaction tags a text holds: the real text must never hold more than the file does. */
const tagCount = (text: string) => text.split('[REDACTED:').length - 1;

/**
 * The stored text with the real values put back from the file as it is (`current`), or why it can't be: a value gone
 * from the file, or a real text that would not mask to `stored` again.
 */
export function restoredText(path: string, stored: string, current: string | undefined): Unmasked {
  const read = readerOf(path);
  if (!read) return { text: stored };
  const result = unmaskText(stored, current, read);
  if ('problem' in result) return result;
  if (maskText(result.text, read) !== stored || tagCount(result.text) > tagCount(current ?? ''))
    return { problem: 'its masked values no longer line up with the file' };
  return result;
}

/** A change as Combee stores it: its texts, diff and base hash of the masked texts. */
export function storedChange(change: FileChange): FileChange {
  if (!storedMasked(change.path)) return change;
  const before = change.kind === 'create' ? undefined : storedText(change.path, change.before);
  const after = storedText(change.path, change.after);
  // a change of masked values alone is no change once masked: kept, with nothing to show
  return (
    makeFileChange(change.path, before, after) ?? {
      ...change,
      before: before ?? '',
      after,
      diff: '',
      baseHash: before === undefined ? null : hashContent(before),
    }
  );
}
