// Usage text of every command, apart from the commands themselves: `combee --help` loads none of them.
import { AGENTS } from '../core/trace/model';

export const ACCEPT_HELP = `combee accept <proposal-id> [--rule <id>]… [--file <path>]… [--include-flagged] [--workspace <folder>]
              [--playbook <path>] [--store <folder>] [--json]
  Writes a pending proposal, only the given rules (rendered into every file the proposal was made for, with its
  settings), or the rules a file holds (--file: accepting a file accepts its rules, named in the output). The files
  of one decision are written together or not at all: a file changed since the proposal was made is re-based; where
  the proposal's edits no longer fit, or a path leads outside the workspace (.., a symbolic link out), nothing is
  written (exit 1).
  Flagged rules (risky text, or evidence that is only text an agent read) are left out and stay pending unless
  named with --rule or all taken with --include-flagged; the command says which and why.
  --json: the proposal afterwards (files written or dropped, rules decided, rules still pending with their flags,
  what is left to review).
  Accepting a proposal accepted already prints "already accepted" (exit 0; --json says \`"already": true\`).
  Every decision can be walked back with \`combee undo\`.`;

export const REJECT_HELP = `combee reject <proposal-id> [--rule <id>]… [--file <path>]… [--workspace <folder>] [--store <folder>] [--json]
  Drops the proposal, the given rules, or the rules a file holds; rejected changes are remembered and not proposed
  again. A rule already accepted is not rejected (retire it instead). Rejecting a proposal rejected already prints
  "already rejected" (exit 0; --json says \`"already": true\`). \`combee undo\` walks a reject back.
  --json: the proposal afterwards (files dropped, rules decided, rules still pending with their flags, what is left
  to review).`;

export const UNDO_HELP = `combee undo [--steps <n>] [--workspace <folder>] [--store <folder>] [--json]
  Walks back the workspace's newest review decisions (accept, reject, retire, pin; from the CLI or the extension —
  the same stack, kept in the store, the last 50), one by default or --steps n, newest first: the files each wrote go
  back as they were, the proposal and what review remembers too. A file edited since keeps the edits where the
  decision did not write; where it did, nothing of that decision is walked back and it says why (exit 1).
  --json: the decisions undone, the files restored, the one refused, and how many are left.`;

export const RETIRE_HELP = `combee retire <rule-id> [--reason <text>] [--workspace <folder>] [--playbook <path>]
              [--targets <list>] [--store <folder>] [--json]
  Proposes what the panel's Retire… does: the rule taken out of the playbook and every file rendered from it. Prints
  the diffs and saves the proposal; nothing is written until \`combee accept <proposal-id>\`. \`combee pin\` keeps a
  rule from being proposed for retiring.`;

const pinHelp = (
  command: 'pin' | 'unpin',
  what: string,
) => `combee ${command} <rule-id> [--workspace <folder>] [--playbook <path>] [--store <folder>] [--json]
  Proposes what the panel's ${command === 'pin' ? 'Pin…' : 'Unpin'} does: ${what}. Prints the diff and saves the
  proposal; nothing is written until \`combee accept <proposal-id>\`.`;

export const PIN_HELP = pinHelp(
  'pin',
  'the pin mark of the rule put in the playbook (a pinned rule is never proposed for retiring)',
);

export const UNPIN_HELP = pinHelp(
  'unpin',
  'the pin mark of the rule taken out of the playbook (it may be proposed for retiring again)',
);

export const BENCH_HELP = `combee bench learn [--json] [--quick] [--out <folder>]
combee bench faults [--runs <n>] [--out <folder>]
combee bench poison [--json] [--out <folder>]
combee bench sessions [--sessions <n>] [--runs <n>] [--json] [--out <folder>]
combee bench quality [--corpus main|heldout] [--learner offline|careful|sloppy|all] [--seed <n>] [--json] [--strict]
  [--out <folder>]
combee bench backtest [--learner offline|careful|sloppy|all] [--seed <n>] [--json] [--out <folder>]
combee bench relevance [--json] [--out <folder>]
combee bench merge [--lines <n>] [--out <folder>]
combee bench secrets [--json] [--out <folder>]
combee bench real [--learner offline|careful|sloppy|all] [--corpus <name>] [--json] [--strict] [--out <folder>]
  (from a source checkout; results in bench/results/) simulations and corpora, never a real model:
  learn: speed, retention and cost of sequential, naive and combee under a capacity-limited model.
  faults: a run through 429s, 500s, hangs and malformed answers next to the same run without them.
  poison: rules drawn from injected text, paraphrased and held out, and what the screen flags.
  sessions: the Sessions view over a store of 10,000 sessions.
  quality: four repositories' sessions with planted lessons, noise and team rules, learned and accepted by the
  offline learner and two scripted models; lessons found, precision, duplicates, noise, contradictions left and
  each team rule's evidence. --corpus heldout: four other repositories the learner was not improved against.
  --strict: exit 1 when a target is missed.
  backtest: the same corpus split in time; what each learned rule would have prevented or misled.
  relevance: which rules a reflection prompt shows, from a playbook pooling eight repositories.
  merge: the playbook merge driver on large and reordered playbooks.
  secrets: recall and false positives of redaction on the secret corpus.
  real: public sessions nobody here wrote (../shared/real-sessions, skipped when absent), learned by the offline
  learner and two scripted models; every proposed rule graded by its hand-given verdict (exit 1 on one without).`;

export const CACHE_HELP = `combee cache stats|clear [--store <folder>] [--json]
  The cache of completed model calls (content-addressed, size-capped).`;

export const CALIBRATE_HELP = `combee calibrate [--provider auto|openai] [--base-url <url>] [--model <id>] [--max-tokens <n>] [--seed <n>]
                 [--price-in <usd/Mtok>] [--price-out <usd/Mtok>] [--allow-insecure-http] [--timeout <s>]
                 [--store <folder>] [--yes] [--reset] [--json]
  Measures the model's effective aggregation capacity before a large run: a few aggregation calls of distinct
  synthetic lessons at growing sizes (1,000 tokens, then 1,500, 2,000, 3,000, 4,000…, up to --max-tokens, default
  16000 as --aggregation-tokens of learn), each counted as it is sent. The calls and their cost are shown first and asked
  for on a terminal (--yes: send them without asking; without a terminal --yes is needed). What each call kept and
  dropped goes into the model's capacity profile in the store (capacity-profiles.json), which the next learning run
  plans with: never above its --aggregation-tokens. --reset: the model's earlier calls are forgotten first. Never
  cached. The offline learner has no capacity to measure (exit 2). Exit 1 when no call was answered.`;

export const EVAL_HELP = `combee eval [--workspace <folder>] [--store <folder>] [--split <date> | --ratio <r>] [--seed <n>] [--batch <n>]
            [--provider offline|auto|openai] [--base-url <url>] [--model <id>] [--playbook <path>] [--json]
  A backtest of learned rules: the workspace's sessions are split in time (by when they ended; default the first
  half, --ratio 0.3 the first 30 %, --split 2026-11-01 those that ended before it); the earlier part is learned as a
  run would (offline unless --provider says otherwise) against the playbook as committed before those sessions,
  and each rule learned is replayed over the later part: the later sessions' mistakes (a failure and its fix, a
  user's correction) it would have prevented, the sessions where following it would have gone wrong (misled) or
  went well (agreed). Nothing is saved or marked learned and no workspace file is written. The same store and
  seed give the same output byte for byte. Exit 1 when the learning failed (a model call), 2 on bad usage.`;

export const EXPORT_HELP = `combee export --bundle <file> [--workspace <folder>] [--store <folder>] [--since <date>] [--author <name>]
              [--all-workspaces] [--json]
  Writes the workspace's sessions (default: the current folder's) as a team bundle: one gzip'd file a teammate
  imports with combee import --bundle. Each session's folder is made relative to the workspace, the workspace's
  absolute path is replaced by <workspace>, home folders are shown as ~ and secrets are redacted again.
  --since: only sessions that ended at or after that date. --author: who the bundle is from (default
  $COMBEE_AUTHOR, else the login name; self-declared). The same sessions always give the same bytes.
  To sign it (optional), run ssh-keygen -Y sign -n combee-bundle -f <your key> <file>: it writes <file>.sig, kept
  beside the bundle. Combee never reads a private key. A signature beside the file it replaces is removed.`;

export const IMPORT_HELP = `combee import --from <folder> [--agent auto|${AGENTS.join('|')}] [--store <folder>] [--workers <n>]
              [--max-output-chars <n>] [--redact-pattern <re2>]… [--json]
combee import --bundle <file>… [--workspace <folder>] [--store <folder>] [--allowed-signers <file>]
              [--redact-pattern <re2>]… [--json]
  Imports every session under <folder> (an agent's home such as ~/.claude or ~/.codex, a repository with its
  SpecStory histories in .specstory/history, or any folder of session files) as normalized, redacted traces into the store. Unchanged files are skipped and grown logs are
  read from where the last import stopped. --workers: parsing threads (default: one per CPU; 0: none).
  --max-output-chars: tool outputs longer than this are stored cut in the middle (default 8000).
  --redact-pattern (repeatable): text matching this RE2 pattern is removed too, with the built-in rules and the
  patterns of combee.redaction.extraPatterns that VS Code recorded in the store; an invalid one is a warning.
  --bundle (repeatable, with or without --from): a teammate's bundle from combee export, its sessions placed in
  --workspace (default: the current folder) and redacted again; sessions already in the store are kept as they
  are. A truncated, tampered or unknown bundle is refused (exit 1) and the others are still imported.
  A bundle with <file>.sig beside it (an SSH signature in namespace combee-bundle) whose key is in the allowed
  signers (--allowed-signers, else your git config's gpg.ssh.allowedSignersFile) counts its signer as verified;
  a signature that does not match its bundle refuses it; any other bundle's name is self-declared.`;

export const LEARN_HELP = `combee learn [--store <folder>] [--workspace <folder>] [--provider auto|offline|openai|vscode]
             [--base-url <url>] [--model <id>] [--strategy combee|naive|sequential] [--batch <n>|auto]
             [--seed <n>] [--all-workspaces] [--window-days <n>] [--targets <list>] [--max-tokens <n>] [--max-cost <usd>]
             [--price-in <usd/Mtok>] [--price-out <usd/Mtok>] [--playbook <path>] [--allow-insecure-http] [--timeout <s>]
             [--aggregation-tokens <n>] [--since <date>] [--agent <id>]… [--budget <tokens>] [--apply]
             [--pr-body <file>] [--shard <i>/<n> --out <folder> | --reduce <folder>…]
             [--batch-api [--no-wait] [--poll-seconds <s>] | --resume <batch>] [--no-cache] [--no-memories]
             [--redact-pattern <re2>]… [--dry-run] [--json]
  Learns from the workspace's sessions not learned yet and proposes the changes to the playbook and the other
  assets (--targets playbook,agents-md,skills,claude-md,copilot-instructions,cursor-rules,clinerules,gemini-md;
  default playbook,agents-md,skills and the file of each agent whose sessions the workspace has) as diffs. --window-days: only sessions that ended within that many days of the
  workspace's newest session (default 14, as in the extension; 0: all).
  --playbook: the playbook's workspace-relative path (default .combee/playbook.md); a path that leaves the workspace
  is refused (exit 2). --dry-run prints the proposed diff and writes nothing. OPENAI_API_KEY is read for
  --provider openai and sent only to --base-url (or OPENAI_BASE_URL); plain http to another machine is refused
  unless --allow-insecure-http. --timeout: seconds one model request may take (default: sized to the request);
  a request unanswered after 4× the median latency (at least 5 s) is sent a second time, the first answer wins.
  --aggregation-tokens: most tokens one aggregation call may hold (default 16000): every call of the scan is
  planned to fit it, and operations that are the same lesson are merged in code before each higher level.
  Every proposed rule is screened (--json: proposal.rules[].flags, [] when clean); a flagged rule is in the
  playbook diff only, marked, and flagged rules already in the playbook are kept out of the other files.
  Completed model calls are cached in the store (a resumed run costs nothing for them); --no-cache skips it.
  The agents' own memories of the workspace (see \`combee memories\`) that its sessions bear out are proposed as
  rules too (provenance agent-memory); --no-memories leaves them out (as does --pr-body). The memories read are
  redacted as imported sessions are: built-in rules, the patterns of combee.redaction.extraPatterns that VS Code
  recorded in the store, and each --redact-pattern.
  --since: only sessions that ended at or after it; --agent: only these agents' sessions; --budget: the playbook's
  token budget (default 8000; over it, the least helpful rules are proposed for retirement).
  --apply: writes the proposal as \`combee accept\` does (flagged rules never; a changed file re-based or refused).
  --pr-body: writes a pull request description: the rule changes with how many people and sessions support each,
  and the flagged rules left out. Rule text is shown in code spans only.
  Team scale: --shard i/n --out <folder> reflects the i-th of n shares of the sessions (the map phase, on one CI
  runner) and writes its reflections there; --reduce <folder>… learns from those folders' reflections (shuffle and
  aggregation levels) and proposes what one machine would with the same seed (sessions no shard reflected, or a
  batch after the first, are reflected there). Both default to --batch all: every session against one playbook.
  --batch-api: the reflections go through the provider's Batch API (one upload, half price, answered within 24 h);
  the command waits (polling every --poll-seconds, default 30) and then aggregates. Interrupted, or with --no-wait,
  the batch keeps running: \`combee learn --resume <batch> --workspace … --store … [--base-url <url>]\` picks it
  up with the same learning flags (the endpoint is given again, never taken from the store).
  Failed or invalid answers are reflected directly; a failed batch learns nothing (exit 1).`;

export const MERGE_HELP = `combee merge <base> <ours> <theirs> [--json]
  Git merge driver for the playbook (%O %A %B): merges by rule id, adds up helpful/harmful counters and writes the
  result to <ours>; a renumbered rule keeps its marks. Exit 0 when merged; 1 when a rule was edited differently on
  both sides (markers left in <ours>) or a flag mark no longer sits above its rule.
  Register the installed CLI (never npx of a package name, which resolves on the public registry):
  .gitattributes ".combee/playbook.md merge=combee" and
  git config merge.combee.driver "node /path/to/dist/cli.js merge %O %A %B"`;

export const RULES_HELP = `combee rules [--workspace <folder>] [--playbook <path>] [--store <folder>] [--stale-after <runs>] [--by-model] [--json]
  Lists the playbook's rules with their helpful / harmful counts (the file's own: each session counted once), stage
  (new, proven, contested, harmful), stale, violated, flagged and pinned marks, and trend over the runs: the numbers
  the Rules view and the panel show. --stale-after: runs without a session that had a rule in play (5).
  --by-model: how many rules of each stage each model wrote (provider/model from the rule's model mark; unknown
  without one). --json gives each rule's provider, model and promptVersion (and lastChangedBy once reworded).`;

export const MEMORIES_HELP = `combee memories [--workspace <folder>] [--store <folder>] [--playbook <path>] [--all-workspaces]
                [--redact-pattern <re2>]… [--json]
  Lists the memories the agents keep for the workspace (Claude Code's ~/.claude/projects/<project>/memory/*.md,
  Codex's ~/.codex/memories, the "Gemini Added Memories" section of ~/.gemini/GEMINI.md, VS Code Copilot Chat's
  memory-tool files of this workspace's window and the user's), read only, secrets
  removed (with the patterns VS Code recorded in the store and each --redact-pattern, as combee import), each with its verdict against the workspace's stored sessions: supported (becomes a candidate rule at the
  next learn), contradicted, unverified (never proposed) or flagged (risky text: never proposed), and the sessions
  and steps behind it. Writes nothing.`;

export const TREE_HELP = `combee tree [--workspace <folder>] [--store <folder>] [--run <id>] [--json]
  Shows the aggregation tree of the latest (or the given) learning run: sessions → reflections → groups → deltas → changes.`;
