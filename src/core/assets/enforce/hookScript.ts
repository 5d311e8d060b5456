// The Claude Code hook Combee ships: fixed text, the same for every repository (what it stops is in the JSON file
// beside it). It splits and compares commands as matcher.ts does; test/unit/enforce holds the two to one behaviour.

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

const SEPARATORS = new Set(['\n', '\r', ';', '&', '|', '(', ')', '\x60']);
const WRAPPERS = new Set(['sudo', 'env', 'command', 'exec', 'time', 'nohup']);
const ASSIGNMENT = /^[a-z_][a-z0-9_]*=/;
const MAX_COMMAND_CHARS = 100000;

function commandWords(line) {
  const commands = [];
  let current = '';
  const flush = () => {
    const words = current
      .split(/\s+/)
      .map((w) => w.replace(/["']/g, '').toLowerCase())
      .filter(Boolean);
    while (words.length > 0 && (ASSIGNMENT.test(words[0]) || WRAPPERS.has(words[0]))) words.shift();
    if (words.length > 0) {
      words[0] = words[0].slice(words[0].lastIndexOf('/') + 1);
      commands.push(words);
    }
    current = '';
  };
  for (const ch of line.slice(0, MAX_COMMAND_CHARS)) {
    if (SEPARATORS.has(ch)) flush();
    else current += ch;
  }
  flush();
  return commands;
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
  const commands = commandWords(command);
  for (const rule of rules) {
    for (const matcher of Array.isArray(rule.commands) ? rule.commands : []) {
      if (!Array.isArray(matcher) || matcher.length === 0) continue;
      if (!commands.some((words) => matcher.every((w, i) => words[i] === w))) continue;
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
