import { HOOK_COMMAND } from './hookScript';

// Combee's PreToolUse entry in `.claude/settings.json`, added or taken out without touching anything else in the
// file: other keys, other events' hooks, other PreToolUse entries keep their place and values.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ours = (hook: unknown) => isObject(hook) && hook.command === HOOK_COMMAND;

/** The indentation the file uses (two spaces for a new one). */
function indentOf(text: string): string | number {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1] : 2;
}

/**
 * The settings text with Combee's hook entry present (`on`) or absent; the text itself when that changes nothing,
 * `undefined` when it is not a JSON object (left alone: the caller warns).
 */
export function withEnforceHook(text: string | undefined, on: boolean): string | undefined {
  let settings: unknown;
  try {
    settings = text === undefined || text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(settings)) return undefined;
  const hooks = settings.hooks === undefined ? {} : settings.hooks;
  if (!isObject(hooks)) return undefined;
  const pre = hooks.PreToolUse === undefined ? [] : hooks.PreToolUse;
  if (!Array.isArray(pre)) return undefined;
  const present = pre.some((entry) => isObject(entry) && Array.isArray(entry.hooks) && entry.hooks.some(ours));
  if (present === on) return text ?? '';
  let next: unknown[];
  if (on) next = [...pre, { matcher: 'Bash', hooks: [{ type: 'command', command: HOOK_COMMAND }] }];
  else
    next = pre.flatMap((entry) => {
      if (!isObject(entry) || !Array.isArray(entry.hooks) || !entry.hooks.some(ours)) return [entry];
      const left = entry.hooks.filter((h) => !ours(h));
      return left.length > 0 ? [{ ...entry, hooks: left }] : [];
    });
  const nextHooks: Json = { ...hooks, PreToolUse: next };
  if (next.length === 0) delete nextHooks.PreToolUse;
  const result: Json = { ...settings, hooks: nextHooks };
  if (Object.keys(nextHooks).length === 0) delete result.hooks;
  return `${JSON.stringify(result, null, indentOf(text ?? ''))}\n`;
}
