// The Claude Code hook Combee ships: fixed text, the same for every repository (what it stops is in the JSON file
// beside it). It reads commands with the core's own grammar code and tool table, embedded from their source
// (trace/shell/kit.ts, grammars/), and a dependency-free lexer (hookLexer.ts) where the core uses a bash parser;
// test/unit/enforce holds the two to one behaviour.
import { GRAMMARS } from '../../trace/shell/grammars';
import { shellKit } from '../../trace/shell/kit';
import { lexCommands } from './hookLexer';
import { MAX_COMMAND_CHARS } from './matcher';

export const HOOK_DIR = '.claude/hooks';
export const HOOK_SCRIPT_PATH = `${HOOK_DIR}/combee-enforce.mjs`;
export const HOOK_DATA_PATH = `${HOOK_DIR}/combee-enforce.json`;
/** The command settings.json runs: the script from the project folder, whatever folder the agent is in. */
export const HOOK_COMMAND = 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/combee-enforce.mjs';

export const HOOK_SCRIPT = String.raw`#!/usr/bin/env node
// Written by Combee (combee-enforce). Stops the Bash commands that rules of this repository's playbook forbid, once
// sessions kept breaking them. It only ever denies: a forbidden command exits 2 with the rule on stderr; anything
// else exits 0 and prints nothing. It reads the tool call from stdin and the rules from combee-enforce.json beside
// it, and runs nothing. Edit the playbook, not this file: Combee renders both from it.
import { readFileSync } from 'node:fs';

const MAX_COMMAND_CHARS = ${MAX_COMMAND_CHARS};
const lexCommands = ${lexCommands.toString()};
const kit = (${shellKit.toString()})(${JSON.stringify(GRAMMARS)});

function identities(line) {
  if (line.length > MAX_COMMAND_CHARS) return [];
  return lexCommands(line).flatMap((words) => {
    const run = kit.invocation(words);
    return run ? [kit.identify(run)] : [];
  });
}

function readJson(source) {
  try {
    return JSON.parse(readFileSync(source, 'utf8'));
  } catch {
    return undefined;
  }
}

function main() {
  const call = readJson(0);
  if (!call || (call.tool_name !== undefined && call.tool_name !== 'Bash')) return 0;
  const command = call.tool_input && call.tool_input.command;
  if (typeof command !== 'string') return 0;
  const data = readJson(new URL('./combee-enforce.json', import.meta.url));
  const rules = data && Array.isArray(data.rules) ? data.rules : [];
  const commands = identities(command);
  for (const rule of rules) {
    for (const matcher of Array.isArray(rule.commands) ? rule.commands : []) {
      if (!Array.isArray(matcher) || matcher.length === 0 || !matcher.every((w) => typeof w === 'string')) continue;
      const forbidden = kit.ruleIdentity(matcher);
      if (!forbidden || !commands.some((id) => kit.matches(id, forbidden))) continue;
      process.stderr.write(
        'Blocked by rule [' + rule.id + '] of the playbook: ' + rule.text + '\n' +
          'This command runs "' + matcher.join(' ') + '", which the rule forbids. Do it the way the rule says.\n',
      );
      return 2;
    }
  }
  return 0;
}

process.exitCode = main();
`;
