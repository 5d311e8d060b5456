#!/usr/bin/env node
// False redactions on real sessions: every corpus in ../shared/real-sessions read by its reader and normalized as an
// import does, each redaction in a tool call (its input, command and result) recovered with the text it replaced, and
// judged true or false (see bench/README.md "Redaction on real sessions").
// Usage: node esbuild.mjs --tests && node bench/redaction-real.mjs [--json] [--out <file>] [--dump <file outside the project>]
// Writes the counts (no text of the sessions) to bench/results/redaction-real.json unless --out says elsewhere.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../testing/fixtureWorkspace.mjs';

const require = createRequire(import.meta.url);
const out = (path) => require(join(REPO_ROOT, 'out', path));
const { values } = parseArgs({
  options: { json: { type: 'boolean' }, out: { type: 'string' }, dump: { type: 'string' } },
});
const { realCorpus, realCorpusMissing } = out('testing/realSessions.js');
const { walkCandidates, classifyFile } = out('src/core/trace/scan.js');
const { readerFor } = out('src/core/trace/sources/index.js');
const { DEFAULT_READ_LIMITS, limitsFor } = out('src/core/import/limits.js');
const { normalizeTrace } = out('src/core/trace/normalize.js');
const { createRedactor } = out('src/core/trace/redact.js');
const { findSecrets } = out('src/core/secrets/engine.js');

const TAG = /\[REDACTED:[a-z0-9-]+\]/g;

/** The texts the tags of `after` replaced in `before` (home folders are left alone by the redactor used here). */
export function replacedTexts(before, after) {
  const literals = after.split(TAG);
  const tags = after.match(TAG) ?? [];
  const found = [];
  let at = before.indexOf(literals[0]) === 0 ? literals[0].length : 0;
  for (let i = 0; i < tags.length; i++) {
    const next = literals[i + 1];
    // a secret is never empty: the next literal starts at least one character on
    const end = next === '' ? (i + 1 === tags.length ? before.length : at + 1) : before.indexOf(next, at + 1);
    if (end < 0) break;
    found.push({ tag: tags[i], text: before.slice(at, end) });
    at = end + next.length;
  }
  return found;
}

/** The characters of tokens, keys and chosen passwords: no space, bracket, quote, `*`, `:` or `,`. */
const CREDENTIAL_CHARS = /^[A-Za-z0-9+/=_.~!@#%^-]{6,}$/;
/** A word, a number, or words in camelCase: what names and prose are made of. */
const WORD = /^(?:[a-z]+|[A-Z][a-z]*|[A-Z]+|[0-9]+|[A-Za-z][a-z]*(?:[A-Z][a-z]+)+)$/;

/**
 * True: the text alone holds a shape the rule set knows by itself (a provider's token, a key, a JWT, credentials in
 * a URL), or is one token of credential characters that is not only words and numbers (`hunter2xyz`, random text).
 * False: anything else (a word, an identifier, a path of words, an expression, Markdown, a sentence).
 */
export function isTrueRedaction(text) {
  const value = text.trim().replace(/^\\{0,3}["'`]|\\{0,3}["'`]$/g, '');
  if (findSecrets(value, undefined, undefined).finds.length > 0) return true;
  if (!CREDENTIAL_CHARS.test(value)) return false;
  return !value
    .split(/[/_.~=+-]+/)
    .filter(Boolean)
    .every((part) => WORD.test(part));
}

async function measure(name, dir) {
  const files = await walkCandidates(dir, { agent: 'auto' });
  const result = { corpus: name, sessions: 0, toolCalls: 0, redactions: 0, falseRedactions: 0, trueRedactions: 0 };
  const dump = [];
  for (const found of files) {
    const agent = await classifyFile(found.path, 'auto');
    const reader = agent && readerFor(agent);
    if (!reader) continue;
    const limits = limitsFor(found.bytes, DEFAULT_READ_LIMITS);
    const drafts = await reader.read(
      { path: found.path, agent, bytes: found.bytes, mtimeMs: found.mtimeMs },
      { ...limits, warn: () => {}, tooLarge: () => {}, maxDocumentBytes: 64e6, maxSqliteBytes: 256e6 },
    );
    for (const draft of drafts) {
      const raw = structuredClone(draft.steps);
      const trace = normalizeTrace(draft, createRedactor({ homePaths: false }));
      result.sessions++;
      trace.steps.forEach((step, i) => {
        if (step.kind === 'tool_call') result.toolCalls++;
        const fields = step.kind === 'tool_call' ? ['input', 'command'] : step.kind === 'tool_result' ? ['output'] : [];
        for (const field of fields) {
          if (step[field] === undefined || step[field] === raw[i][field]) continue;
          for (const r of replacedTexts(raw[i][field], step[field])) {
            result.redactions++;
            const ok = isTrueRedaction(r.text);
            if (ok) result.trueRedactions++;
            else result.falseRedactions++;
            dump.push({ corpus: name, ok, tag: r.tag, text: r.text.slice(0, 200) });
          }
        }
      });
    }
  }
  const per = (n) => (result.toolCalls === 0 ? 0 : Number(((n * 1000) / result.toolCalls).toFixed(1)));
  return {
    ...result,
    falsePer1000Calls: per(result.falseRedactions),
    truePer1000Calls: per(result.trueRedactions),
    dump,
  };
}

const CORPORA = [
  'entireio-cli',
  'packmind-context-evaluator',
  'testframework-codex',
  'destyler-specstory',
  'monochromatic-aider',
  'mozgoslav-aider',
];
const results = [];
const dumps = [];
for (const name of CORPORA) {
  const dir = realCorpus(name);
  if (!dir) {
    console.log(realCorpusMissing(name));
    continue;
  }
  const { dump, ...r } = await measure(name, dir);
  results.push(r);
  dumps.push(...dump);
}
// the dump quotes other people's sessions: written only where asked, never into the project
if (values.dump) writeFileSync(values.dump, JSON.stringify(dumps, null, 1));
const report = { corpora: results };
writeFileSync(
  values.out ?? join(REPO_ROOT, 'bench', 'results', 'redaction-real.json'),
  JSON.stringify(report, null, 2) + '\n',
);
if (values.json) console.log(JSON.stringify(report, null, 2));
else
  for (const r of results)
    console.log(
      `${r.corpus}: ${r.sessions} sessions, ${r.toolCalls} tool calls, ${r.redactions} redactions: ${r.falseRedactions} false (${r.falsePer1000Calls} per 1,000 calls), ${r.trueRedactions} true`,
    );
