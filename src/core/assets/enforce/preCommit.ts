import { KIT } from '../../trace/shell';
import { commandWords } from './matcher';

// A rule about what may be committed ("never commit `.env` files") checked by the repository's own git pre-commit
// hook: only where one exists already (husky's `.husky/pre-commit`, or `.githooks/pre-commit` under core.hooksPath),
// which gets one line that runs Combee's check. A hook file is never created: git would need it executable.

export const PRE_COMMIT_SCRIPT_PATH = '.combee/hooks/pre-commit.mjs';
export const PRE_COMMIT_DATA_PATH = '.combee/hooks/pre-commit.json';
export const PRE_COMMIT_LINE = 'node .combee/hooks/pre-commit.mjs';
/** The hook files Combee adds its line to, in the order it looks for them. */
export const PRE_COMMIT_HOSTS = ['.husky/pre-commit', '.githooks/pre-commit'] as const;

/** The repository's pre-commit hook file, when it has one Combee knows how to extend. */
export function preCommitHost(readFile: (rel: string) => string | undefined): string | undefined {
  return PRE_COMMIT_HOSTS.find((path) => readFile(path) !== undefined);
}

const COMMIT_WORD = /\bcommit(?:s|ted|ting)?\b/i;
const NEGATION = /\b(?:never|not|don'?t|dont|no)\b/i;

/** Words between "commit" and what it must not commit: "never commit **the** `.env` files". */
const DETERMINERS = new Set(['the', 'any', 'a', 'an', 'your', 'our', 'their', 'its']);
/** Words that join the paths of one list, or name what they are: "`.env` or `secrets/` files". */
const LIST_WORDS = new Set(['or', 'and', 'nor', 'file', 'files', 'folder', 'folders', 'directory', 'directories']);

/** A path a pre-commit check may name: relative, no `..`, no character a shell or a glob gives meaning to. */
const SAFE_PATH = /^[A-Za-z0-9_.-][A-Za-z0-9_./-]*$/;
export function isSafePath(path: string): boolean {
  return path.length <= 200 && SAFE_PATH.test(path) && !path.split('/').some((p) => p === '..' || p === '');
}

/**
 * The paths a rule says never to commit: the object of a negated "commit" ("never commit `.env` or `*.pem` files"),
 * read up to the first word that is not a path of that list. A rule about *when* to commit ("don't commit before the
 * tests in `src/` pass") prohibits no path: nothing.
 */
export function committedPaths(content: string): string[] {
  const m = COMMIT_WORD.exec(content);
  if (!m) return [];
  if (!NEGATION.test(content.slice(Math.max(0, m.index - 24), m.index))) return [];
  const after = content.slice(m.index + m[0].length);
  const end = after.search(/;|\.(?:\s|$)/);
  const clause = end < 0 ? after : after.slice(0, end);
  const paths: string[] = [];
  const words = clause.split(/\s+/).filter(Boolean);
  let i = 0;
  while (i < words.length && DETERMINERS.has(words[i].toLowerCase())) i++;
  for (; i < words.length; i++) {
    const raw = words[i];
    const bare = raw.replace(/^[`"'(]+|[`"',:)]+$/g, '');
    const looksLikePath = bare.startsWith('.') || bare.includes('/') || /\.[A-Za-z]\w{0,5}$/.test(bare);
    const word = bare.replace(/\/$/, '');
    if (looksLikePath && isSafePath(word)) {
      if (!paths.includes(word)) paths.push(word);
    } else if (!LIST_WORDS.has(word.toLowerCase()) && word !== '') break;
    // a comma ends the list unless "or"/"and" goes on with it
    if (/,$/.test(raw) && !LIST_WORDS.has((words[i + 1] ?? '').toLowerCase()) && !/^[`"'.]/.test(words[i + 1] ?? ''))
      break;
  }
  return paths;
}

/** Whether a staged file is one the path names: the file itself, a file in that folder, or any file of that name. */
export function pathMatches(file: string, path: string): boolean {
  const clean = file.replace(/^\.\//, '');
  return clean === path || clean.startsWith(`${path}/`) || (!path.includes('/') && clean.split('/').pop() === path);
}

/** Whether a command line stages or commits a file the path names (`git add .env`, `git commit config/.env`). */
export function commitsPath(line: string, path: string): boolean {
  return commandWords(line).some((words) => {
    const run = KIT.invocation(words);
    if (run?.program !== 'git') return false;
    const [sub, ...rest] = run.args.map((w) => w.toLowerCase());
    return (sub === 'add' || sub === 'commit') && rest.some((w) => pathMatches(w, path.toLowerCase()));
  });
}

/** The hook file with Combee's line (`on`) or without it; the text itself when nothing changes. */
export function withPreCommitLine(text: string, on: boolean): string {
  const lines = text.split('\n');
  const present = lines.some((l) => l.trim() === PRE_COMMIT_LINE);
  if (present === on) return text;
  if (!on) return lines.filter((l) => l.trim() !== PRE_COMMIT_LINE).join('\n');
  const body = text.endsWith('\n') || text === '' ? text : `${text}\n`;
  return `${body}${PRE_COMMIT_LINE}\n`;
}

export const PRE_COMMIT_SCRIPT = String.raw`#!/usr/bin/env node
// Written by Combee. Refuses a commit that stages a file a rule of this repository's playbook says never to commit,
// once sessions kept breaking it. It reads the staged file names and pre-commit.json beside it; it changes nothing.
// Edit the playbook, not this file: Combee renders both from it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function matches(file, path) {
  const clean = file.replace(/^\.\//, '');
  return clean === path || clean.startsWith(path + '/') || (!path.includes('/') && clean.split('/').pop() === path);
}

let rules = [];
try {
  const data = JSON.parse(readFileSync(new URL('./pre-commit.json', import.meta.url), 'utf8'));
  if (Array.isArray(data.rules)) rules = data.rules;
} catch {
  process.exit(0);
}
const staged = execFileSync('git', ['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z'], { encoding: 'utf8' })
  .split('\0')
  .filter(Boolean);
for (const rule of rules) {
  for (const path of Array.isArray(rule.paths) ? rule.paths : []) {
    const file = staged.find((f) => typeof path === 'string' && matches(f, path));
    if (file === undefined) continue;
    process.stderr.write('Commit refused by rule [' + rule.id + '] of the playbook: ' + rule.text + '\n' +
      'Staged: ' + file + '. Unstage it (git restore --staged ' + file + ') and commit again.\n');
    process.exit(1);
  }
}
`;
