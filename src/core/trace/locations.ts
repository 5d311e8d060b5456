import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentId } from './model';

export interface SourceFolder {
  agent: AgentId;
  path: string;
}

/** Where agents keep their sessions by default, honouring their documented overrides. */
export function defaultSourceFolders(env: NodeJS.ProcessEnv = process.env, home = homedir()): SourceFolder[] {
  const claudeRoots = env.CLAUDE_CONFIG_DIR ? env.CLAUDE_CONFIG_DIR.split(',').map((p) => p.trim()).filter(Boolean) : [join(home, '.claude'), join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'claude')];
  const codexHome = env.CODEX_HOME ?? join(home, '.codex');
  return [
    ...claudeRoots.map((root) => ({ agent: 'claude-code' as const, path: join(root, 'projects') })),
    { agent: 'codex', path: join(codexHome, 'sessions') },
    { agent: 'codex', path: join(codexHome, 'archived_sessions') },
  ];
}
