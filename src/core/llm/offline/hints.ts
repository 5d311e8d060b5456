// What a failing command's own output says to do: "run `prisma generate` first", "did you mean `test:unit`?",
// "Consider enabling them by passing, e.g., `--features=simd`", "hint: source .env before running". A tool that
// names its fix is the strongest evidence a session can hold that the next step fixed it for that reason.

const PATTERNS: RegExp[] = [
  // run `x` first / try `x` / use `x` instead / please run x
  /\b(?:run|try|use|execute|please run|you need to run|you must run)\s+[`'"]([^`'"\n]{2,80})[`'"]/gi,
  /\bdid you mean[:\s]+[`'"]?([\w:./@ -]{2,60}?)[`'"]?\s*\??\s*$/gim,
  /\bhint:\s*(?:run\s+)?[`'"]([^`'"\n]{2,80})[`'"]/gi,
  // cargo: "Consider enabling them by passing, e.g., `--features=\"simd\"`"
  /\bpassing,? e\.g\.,?\s+[`'"]?(--features[= ]"?[\w,-]+"?)/gi,
  // go: "updates to go.mod needed; to update it:\n\tgo mod tidy"; "try running:\n  npm rebuild"
  /\b(?:to (?:update|fix) (?:it|this)|try running|you can run|please run|run the following)[:\s]*\n[ \t]+([a-z][\w.-]*(?: [^\n`]{1,60})?)\s*$/gim,
  // "source .env first", "load .env before"
  /\b((?:source|\.)\s+\.env[\w.-]*)\b/gi,
];

/** Commands, scripts or flags the output names as the fix, in order, each once, quotes removed. */
export function namedFixes(output: string): string[] {
  const found: string[] = [];
  const text = output.slice(-8000);
  for (const pattern of PATTERNS)
    for (const m of text.matchAll(pattern)) {
      const fix = m[1].replace(/"/g, '').trim();
      // punctuation such as `--` ("use '--' to separate paths") is no fix a command carries out
      if (/[a-z0-9].*[a-z0-9]/i.test(fix) && !found.includes(fix)) found.push(fix);
    }
  return found;
}

/** Whether a later command carries out a fix the output named (the command itself, or the flag or script in it). */
export function carriesOut(command: string, fix: string): boolean {
  const flat = command.replace(/"/g, '').replace(/\s+/g, ' ');
  if (flat.includes(fix)) return true;
  // a script name ("did you mean test:unit") appears as a word of the command
  return /^[\w:.@-]+$/.test(fix) && flat.split(' ').includes(fix);
}
