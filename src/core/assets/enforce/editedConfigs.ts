import { AGENT_HOOKS } from './agentHooks';
import { CLAUDE_SETTINGS_PATH } from './claudeSettings';
import { CODEX_TOML_PATH } from './codexToml';

// The agents' config files Combee edits in place: the team's own files, which may hold its secrets (an MCP server's
// env and headers, API keys, bearer tokens), so they are stored masked (assets/storedText.ts). The files Combee
// creates whole and owns (Copilot's `.github/hooks/combee-enforce.json`, the hook scripts and rules files under
// `.claude/hooks/` and `.combee/hooks/`) hold only what Combee wrote, and are stored as they are.

export type ConfigSyntax = 'json' | 'toml';

export const EDITED_CONFIGS: ReadonlyMap<string, ConfigSyntax> = new Map<string, ConfigSyntax>([
  [CLAUDE_SETTINGS_PATH, 'json'],
  // every agent hooks file with an entry of Combee's in it: Codex's, Cursor's, Windsurf's hooks.json, Gemini CLI's settings
  ...Object.values(AGENT_HOOKS).flatMap((facts) => (facts.shape ? [[facts.configPath, 'json'] as const] : [])),
  [CODEX_TOML_PATH, 'toml'],
]);
