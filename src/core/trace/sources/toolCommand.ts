import { isRecord } from './common';

// The shell command a tool call runs, read from its JSON arguments: the readers of Codex, Continue and Copilot.

/** The shell line a tool call runs: `command` argv (["bash","-lc","x"] → "x"), or a `command`/`cmd` string. */
export function commandFromArguments(args: string): string | undefined {
  const text = args.trimStart();
  if (!text.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  for (const key of ['command', 'cmd']) {
    const value = parsed[key];
    if (typeof value === 'string' && value.trim()) return value;
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string'))
      return commandFromArgv(value as string[]);
  }
  return undefined;
}

export function commandFromArgv(argv: string[]): string {
  const shell = /(?:^|[\\/])(?:ba|z|da|k|fi)?sh(?:\.exe)?$/i.test(argv[0] ?? '');
  if (argv.length >= 3 && shell && /^-l?c$|^-cl$/.test(argv[1])) return argv[2];
  const powershell = /(?:^|[\\/])(?:powershell|pwsh)(?:\.exe)?$/i.test(argv[0] ?? '');
  if (argv.length >= 3 && powershell && /^-(?:command|c)$/i.test(argv[1])) return argv[2];
  return argv.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The folder a shell tool call runs in (`workdir` of Codex's shell, shell_command and exec_command), if it names one. */
export function workdirFromArguments(args: string): string | undefined {
  if (!args.includes('"workdir"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) && typeof parsed.workdir === 'string' && parsed.workdir.trim() ? parsed.workdir : undefined;
  } catch {
    return undefined;
  }
}
