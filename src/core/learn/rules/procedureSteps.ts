// A skill tells its procedure mostly in shell blocks, one command a line, where a rule names its commands in
// backticks: read that way, a skill's steps and a rule's commands compare as two rules' do.

const SHELL_FENCE = /^\s*(`{3,}|~{3,})\s*(?:bash|sh|shell|zsh|console)\b/i;

/** The Markdown text with each command line of its shell blocks as a one-command statement ("Run `make setup`."). */
export function procedureSteps(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    if (fence === undefined) {
      const opened = SHELL_FENCE.exec(line);
      if (opened) fence = opened[1];
      else out.push(line);
      continue;
    }
    if (line.trim().startsWith(fence)) {
      fence = undefined;
      continue;
    }
    // a prompt's `$ ` and a trailing comment are not the command's
    const command = line
      .replace(/^\s*\$\s+/, '')
      .replace(/\s+#.*$/, '')
      .trim();
    if (command && !command.startsWith('#') && !command.includes('`')) out.push(`Run \`${command}\`.`);
  }
  return out.join('\n');
}
