import { HOOK_COMMAND } from './hookScript';
import { hookConfigProblem, readHookConfig, withHookEntry, type HookConfigShape } from './hookConfig';

// Combee's PreToolUse entry in `.claude/settings.json` (hookConfig.ts edits it in place).

export const CLAUDE_SETTINGS_PATH = '.claude/settings.json';

export { MAX_SETTINGS_DEPTH, nesting } from './hookConfig';

export const CLAUDE_HOOK_SHAPE: HookConfigShape = {
  event: 'PreToolUse',
  entry: { matcher: 'Bash', hooks: [{ type: 'command', command: HOOK_COMMAND }] },
  command: HOOK_COMMAND,
  nested: true,
};

/** Why the settings text can't take Combee's entry (too deep, not a JSON object), or undefined when it can. */
export function settingsProblem(text: string | undefined): string | undefined {
  return hookConfigProblem(text, CLAUDE_HOOK_SHAPE.event);
}

/** `"disableAllHooks": true`: Claude Code runs no hook at all, so a hook added there would enforce nothing. */
export function hooksDisabled(text: string | undefined): boolean {
  return readHookConfig(text, CLAUDE_HOOK_SHAPE.event)?.disableAllHooks === true;
}

/**
 * The settings text with Combee's hook entry present (`on`) or absent; the text itself when that changes nothing,
 * `undefined` when it can't be read (see settingsProblem: left alone, the caller warns).
 */
export function withEnforceHook(text: string | undefined, on: boolean): string | undefined {
  return withHookEntry(text, on, CLAUDE_HOOK_SHAPE);
}
