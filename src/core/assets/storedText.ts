import { maskSettingsEnv, unmaskSettingsEnv } from './enforce/settingsEnv';
import { hashContent, makeFileChange, type FileChange } from './proposal';

// Files whose text holds the team's secrets by design are stored (in a proposal, the undo stack) with those values
// tagged; the real text is made again from the file on disk when Combee writes it.

export const CLAUDE_SETTINGS_PATH = '.claude/settings.json';

/** Whether Combee stores this file's text masked. */
export const storedMasked = (path: string): boolean => path === CLAUDE_SETTINGS_PATH;

/** A file's text as Combee stores it. */
export function storedText(path: string, text: string): string;
export function storedText(path: string, text: string | undefined): string | undefined;
export function storedText(path: string, text: string | undefined): string | undefined {
  return text === undefined || !storedMasked(path) ? text : maskSettingsEnv(text);
}

/** The stored text with the real values put back from the file as it is (`current`); undefined when they can't be. */
export function realText(path: string, stored: string, current: string | undefined): string | undefined {
  return storedMasked(path) ? unmaskSettingsEnv(stored, current) : stored;
}

/** A change as Combee stores it: its texts, diff and base hash of the masked texts. */
export function storedChange(change: FileChange): FileChange {
  if (!storedMasked(change.path)) return change;
  const before = change.kind === 'create' ? undefined : storedText(change.path, change.before);
  const after = storedText(change.path, change.after);
  // a change of env values alone is no change once masked: kept, with nothing to show
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
