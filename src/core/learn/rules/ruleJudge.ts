import { commandKey } from '../../trace/commands';
import { editedFiles } from '../../trace/edits';
import type { Trace } from '../../trace/model';
import { isCounterpartOf, keyWords, matchesCommand, sameJob, toolAndJob } from './commandMatch';
import { namedFiles, namedSteps, purposeOf, requestedCommands, ruleCommands, type RuleCommands } from './ruleText';
import { CHECK_KINDS, commandRuns, sessionSignals, type Run, type SessionSignals } from '../sessionSignals';

// What one session says about each playbook rule that was in play in it. A rule names commands; the session's
// command runs, citations of the rule's id and the user's reactions decide whether following the rule went well —
// and, when the session did otherwise, whether the rule or the other way was right.

export interface RuleInPlay {
  id: string;
  content: string;
}

export type EvidenceTag = 'helpful' | 'harmful' | 'violated' | 'neutral';

export interface RuleEvidence {
  id: string;
  tag: EvidenceTag;
  /** A short fixed sentence, with at most one command cut to 80 characters: never the session's text. */
  reason: string;
  /** Step indexes that show it, ascending. */
  steps: number[];
  /**
   * violated, and the rule was right: the command the session ran instead (tool and subcommand), which failed, and
   * the rule's command for the same job that then passed. What a rewording is built from (lifecycle.ts).
   */
  fix?: { ran: string; then: string };
  /** harmful, overruled: the user's message that asked for the other way (one line, cut to 300 characters). */
  correction?: string;
}

/** A correction this close after a followed step answers that step rather than later work. */
const CORRECTION_WINDOW = 8;
const MAX_COMMAND_IN_REASON = 80;

function clip(command: string): string {
  const flat = command.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_COMMAND_IN_REASON ? `${flat.slice(0, MAX_COMMAND_IN_REASON - 1)}…` : flat;
}

function sortedUnique(steps: number[]): number[] {
  return [...new Set(steps)].sort((a, b) => a - b);
}

/** A step where the agent followed the rule: a run of a prescribed command, or a citation of the rule's id. */
interface Follow {
  /** The step the reaction is measured from: the command's result, or the citing message. */
  at: number;
  /** The step shown as evidence: the command's call, or the citing message. */
  shown: number;
  run?: Run;
  /** The part of the run that matched, and the prescribed command it matched. */
  part?: string;
  prescribed?: string;
}

/** A run of a command the rule rules out, or of the counterpart of one it prescribes (`npm test` for `pnpm test`). */
interface Breach {
  run: Run;
  part: string;
  /** The rule says this command fails here ("the default `npm test` is broken"). */
  broken: boolean;
  /** The rule names this very command (two words or more) as one not to run, rather than a tool or a counterpart. */
  named: boolean;
}

interface UserMessage {
  index: number;
  text: string;
  /** What the message asks for and rules out, read the first time a rule asks. */
  said: () => Readonly<RuleCommands>;
}

function userMessage(index: number, text: string): UserMessage {
  let read: Readonly<RuleCommands> | undefined;
  return { index, text, said: () => (read ??= requestedCommands(text)) };
}

/** What every rule is judged against: the session's runs, its user messages and its outcome, read once. */
interface Session {
  trace: Trace;
  runs: readonly Run[];
  users: readonly UserMessage[];
  corrections: ReadonlySet<number>;
  signals: SessionSignals;
}

/**
 * What one session says about each rule in play, in the order of `rules`:
 * - the agent did what the rule says and it went well → helpful; it kept failing, the user corrected it right after
 *   or overruled it with another command for the same job, or the work was reverted → harmful;
 * - the session did otherwise (ran what the rule rules out, or another tool's command for the rule's job): a failure
 *   then fixed by the rule's own command → violated (the rule was right: what a rewording is built from); the user
 *   asked for the other way, or it worked with no one objecting → harmful (the rule is wrong); a command the rule
 *   calls broken, or names not to run, failing → helpful (the rule predicted it); else violated.
 * Harmful wins over helpful: one bad outcome of following a rule is worth reviewing even when another went well.
 */
export function ruleEvidence(
  trace: Trace,
  rules: readonly RuleInPlay[],
  signals: SessionSignals = sessionSignals(trace),
): RuleEvidence[] {
  const session: Session = {
    trace,
    runs: commandRuns(trace.steps),
    // the user's undo of the last edit answers the agent too, without words
    users: trace.steps.flatMap((s) =>
      s.kind === 'user' && (!s.isMeta || s.undo) ? [userMessage(s.index, s.text)] : [],
    ),
    corrections: new Set(signals.corrections),
    signals,
  };
  return rules.map((rule) => judge(rule, session));
}

type Verdict = Omit<RuleEvidence, 'id'>;

function judge(rule: RuleInPlay, session: Session): RuleEvidence {
  const commands = ruleCommands(rule.content);
  const { prescribed, forbidden, broken } = commands;
  const follows: Follow[] = [];
  const breaches: Breach[] = [];
  for (const run of session.runs) {
    for (const part of run.parts) {
      // the longest match names what was followed: `pnpm add` rather than `pnpm`
      const matched = prescribed
        .filter((c) => matchesCommand(part, c))
        .sort((a, b) => commandKey(b).length - commandKey(a).length)[0];
      if (matched) {
        follows.push({ at: run.result.index, shown: run.call.index, run, part, prescribed: matched });
        continue;
      }
      const ruledOut = forbidden.filter((c) => matchesCommand(part, c));
      if (ruledOut.length > 0 || prescribed.some((c) => isCounterpartOf(part, c)))
        breaches.push({
          run,
          part,
          broken: broken.some((c) => matchesCommand(part, c)),
          named: ruledOut.some((c) => keyWords(c).length >= 2),
        });
    }
  }
  const verdict =
    breaches.length > 0 ? judgeBreaches(breaches, follows, commands, session) : judgeFollows(rule, follows, session);
  return { id: rule.id, ...verdict, steps: sortedUnique(verdict.steps) };
}

/** Whether a user's message asks for `part` (one of its commands leads it: `pnpm`, `pnpm add`). */
function asksFor(message: UserMessage, part: string): boolean {
  return message.said().prescribed.some((c) => matchesCommand(part, c));
}

/** Whether a user's message takes the rule's side: asks for one of its commands, or rules out what the session ran. */
function backsRule(message: UserMessage, prescribed: readonly string[], ran: readonly string[]): boolean {
  const said = message.said();
  return (
    said.prescribed.some((c) => prescribed.some((p) => matchesCommand(c, p))) ||
    said.forbidden.some((f) => ran.some((part) => matchesCommand(part, f)))
  );
}

/** The user's message as evidence: one line, cut, never more than that. */
function quoted(message: UserMessage): string {
  const flat = message.text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

function judgeBreaches(
  breaches: readonly Breach[],
  follows: readonly Follow[],
  { prescribed }: Readonly<RuleCommands>,
  session: Session,
): Verdict {
  const first = breaches[0];
  const ran = breaches.map((b) => b.part);
  const shown = breaches.map((b) => b.run.call.index);
  const command = clip(first.part);
  // the rule predicted it: a command it calls broken failed
  const predicted = breaches.find((b) => b.broken && b.run.failed);
  if (predicted)
    return {
      tag: 'helpful',
      reason: `the session ran \`${clip(predicted.part)}\`, which the rule calls broken, and it failed`,
      steps: [predicted.run.call.index, predicted.run.result.index],
    };

  // the user's side, as their last word says: asking for the other way (before the session took it, or in the first
  // reply after), or for the rule's way (any time)
  const after = session.users.filter((m) => m.index > first.run.result.index);
  const reply = after[0] && after[0].index - first.run.result.index <= CORRECTION_WINDOW ? [after[0]] : [];
  const lastAsk = [...session.users.filter((m) => m.index < first.run.call.index), ...reply]
    .filter((m) => ran.some((part) => asksFor(m, part)))
    .at(-1);
  const lastBack = session.users.filter((m) => backsRule(m, prescribed, ran)).at(-1);
  const asked = lastAsk && (!lastBack || lastAsk.index > lastBack.index) ? lastAsk : undefined;
  const backed = asked ? undefined : lastBack;
  const failed = breaches.filter((b) => b.run.failed);
  // the rule was right: what the session did instead failed (or the user asked for the rule's way), then the
  // rule's own command for the same job passed
  const wrong = failed[0] ?? (backed ? first : undefined);
  const fixed =
    wrong &&
    follows.find(
      (f) =>
        f.run &&
        !f.run.failed &&
        f.at > wrong.run.result.index &&
        f.part !== undefined &&
        f.prescribed !== undefined &&
        // "never `cargo test`, use `cargo nextest run`": a rule naming one of each pairs them itself
        ((wrong.named && prescribed.length === 1) || sameJob(wrong.part, f.prescribed) || sameJob(wrong.part, f.part)),
    );
  if (wrong && fixed?.part && fixed.prescribed) {
    // the rule's own command for the job; a bare tool ("use pnpm") takes the job from what passed
    const then = keyWords(fixed.prescribed).length >= 2 ? fixed.prescribed : toolAndJob(fixed.part);
    return {
      tag: 'violated',
      reason: `the session ran \`${clip(wrong.part)}\`, which the rule rules out, then the rule's \`${clip(then)}\` passed`,
      steps: [wrong.run.call.index, fixed.shown],
      fix: { ran: toolAndJob(wrong.part), then },
    };
  }

  // the user asked for the other way, and did not take it back
  if (asked)
    return {
      tag: 'harmful',
      reason: `the user asked for \`${command}\`, which the rule rules out`,
      steps: [asked.index, ...shown],
      correction: quoted(asked),
    };

  // the other way failed, then the other way again passed (`npm install --legacy-peer-deps` after `npm install`)
  // with no one objecting: the failure was not the rule's point, what came of the other way is what counts
  const passedLater =
    failed.length > 0 && !backed
      ? breaches.find(
          (b) => !b.run.failed && b.run.call.index > failed[0].run.result.index && sameJob(b.part, failed[0].part),
        )
      : undefined;
  if (wrong && !passedLater) {
    const named = failed.find((b) => b.named);
    if (named)
      return {
        tag: 'helpful',
        reason: `the session ran \`${clip(named.part)}\`, which the rule says not to run, and it failed`,
        steps: [named.run.call.index, named.run.result.index],
      };
    return {
      tag: 'violated',
      reason: `the session ran \`${clip(wrong.part)}\`, which the rule rules out, and ${failed.length > 0 ? 'it failed' : 'the user asked for the rule’s way'}`,
      steps: backed ? [wrong.run.call.index, backed.index] : [wrong.run.call.index],
    };
  }

  // it worked, and no one objected: the rule is wrong here — unless the session went on to the rule's way anyway, an
  // objection came right after, or the command does no job the rule's way does (`npm view` under "use pnpm")
  const worked = passedLater ?? first;
  const answer = session.users.find((m) => m.index > worked.run.result.index);
  const objected =
    answer !== undefined &&
    session.corrections.has(answer.index) &&
    answer.index - worked.run.result.index <= CORRECTION_WINDOW;
  const switched = follows.some((f) => f.at > worked.run.result.index);
  const job = passedLater ?? breaches.find((b) => purposeOf(b.part) !== undefined);
  if (job && !objected && !switched)
    return {
      tag: 'harmful',
      reason: `the session ran \`${clip(job.part)}\` instead of the rule's way, and it worked with no correction`,
      steps: [job.run.call.index],
    };
  return { tag: 'violated', reason: `the session ran \`${command}\`, which the rule rules out`, steps: shown };
}

/**
 * The first run of a rule's command that came only after a failure it then fixed: a check of its job failing before
 * it ("format with `pnpm format` after editing", and `pnpm format:check` failed first), or another command the rule
 * prescribes, or a step it names, failing for want of it ("`pnpm db:generate` before `pnpm test`", and `pnpm test`
 * failed first; "`uv run ruff check --fix` before you commit", and `git commit` failed in its hook); the
 * failed command passing after it. The rule was right and the session broke it: violated, though nothing was run
 * instead (no rewording comes of it).
 */
function lateFollow(
  follows: readonly Follow[],
  runs: readonly Run[],
  /** The rule's commands, and the steps it names ("before you commit": `git commit`). */
  prescribed: readonly string[],
): { follow: Follow; failed: string; at: number } | undefined {
  for (const follow of follows) {
    const own = follow.prescribed;
    if (!follow.run || follow.run.failed || !own) continue;
    if (follows.some((f) => f.prescribed === own && f.shown < follow.shown)) continue;
    for (const run of runs) {
      if (run.call.index >= follow.shown) break;
      if (!run.failed) continue;
      for (const part of run.parts) {
        const other = prescribed.find((c) => matchesCommand(part, c));
        const skipped = other ? other !== own : sameJob(part, own);
        const key = commandKey(part);
        const fixed = runs.some(
          (r) => r.call.index > follow.shown && !r.failed && r.parts.some((p) => commandKey(p) === key),
        );
        if (skipped && fixed) return { follow, failed: part, at: run.call.index };
      }
    }
  }
  return undefined;
}

/**
 * A rule that names a file to edit ("add a `CHANGELOG.md` entry …"), broken and then kept: a run failed with the
 * file's name in its command or output (`changelog-check: no entry … in CHANGELOG.md`) before the session edited it,
 * and the same command passed after. Only this counts, never an edit alone: a file a rule names is edited for many
 * reasons.
 */
function lateEdit(rule: RuleInPlay, session: Session): { file: string; failed: Run; edit: number } | undefined {
  const files = namedFiles(rule.content);
  if (files.length === 0) return undefined;
  const { trace, runs } = session;
  for (const step of trace.steps) {
    if (step.kind !== 'tool_call') continue;
    const file = files.find((f) => editedFiles(step, trace.cwd).some((e) => e === f || e.endsWith(`/${f}`)));
    if (!file) continue;
    const stem = (file.split('/').pop() ?? file).replace(/\.[^.]+$/, '').toLowerCase();
    const failed = runs.find(
      (r) =>
        r.failed &&
        r.result.index < step.index &&
        `${r.call.command ?? ''}\n${r.result.output}`.toLowerCase().includes(stem) &&
        runs.some((later) => later.call.index > step.index && !later.failed && later.parts[0] === r.parts[0]),
    );
    // the first edit of the file decides: edited before any such failure, the rule was kept
    return failed && { file, failed, edit: step.index };
  }
  return undefined;
}

/** What shows the rule did harm when followed, the user's word first (the evidence a reviewer trusts most). */
function harmfulFollow(follows: Follow[], session: Session): Verdict | undefined {
  const { users, corrections, signals } = session;
  // the user overruled it, asking for another command for the job the agent did the rule's way
  for (const follow of follows) {
    const { part, prescribed } = follow;
    if (!part || !prescribed) continue;
    const overruled = users.find(
      (m) =>
        m.index > follow.at &&
        corrections.has(m.index) &&
        m.said().prescribed.some((c) => !matchesCommand(c, prescribed) && sameJob(c, part)),
    );
    if (overruled)
      return {
        tag: 'harmful',
        reason: `the user overruled the rule after the agent ran \`${clip(part)}\``,
        steps: [follow.shown, overruled.index],
        correction: quoted(overruled),
      };
  }

  // or their next message after a followed step corrected the agent
  const correctedRightAfter = follows.flatMap((follow) => {
    const reply = users.find((m) => m.index > follow.at);
    const corrected =
      reply !== undefined && corrections.has(reply.index) && reply.index - follow.at <= CORRECTION_WINDOW;
    return corrected ? [follow.shown, reply.index] : [];
  });
  if (correctedRightAfter.length > 0) {
    return {
      tag: 'harmful',
      reason: 'the user corrected the agent right after it followed the rule',
      steps: correctedRightAfter,
    };
  }

  // then what the session showed: a specific prescribed command failed and never passed later (a bare tool name says which tool,
  // not that its command will pass, so `pnpm test` failing says nothing about "use pnpm")
  const stillFailing = new Map<string, Follow>();
  for (const follow of follows) {
    if (!follow.run || !follow.prescribed || keyWords(follow.prescribed).length < 2) continue;
    if (follow.run.failed) stillFailing.set(follow.prescribed, follow);
    else stillFailing.delete(follow.prescribed);
  }
  const failing = [...stillFailing.values()];
  if (failing.length > 0) {
    return {
      tag: 'harmful',
      reason: `the agent ran \`${clip(failing[0].part ?? '')}\` as the rule says and it kept failing`,
      steps: failing.flatMap((f) => [f.shown, f.run?.result.index ?? f.shown]),
    };
  }

  // or the work done after following the rule was thrown away
  const revert = signals.reverted.find((s) => s > follows[0].shown);
  if (revert !== undefined) {
    return {
      tag: 'harmful',
      reason: 'the edits were reverted after the agent followed the rule',
      steps: [follows[0].shown, revert],
    };
  }

  return undefined;
}

/** What shows following the rule went well: the command (or a check after it) passed and no correction came later. */
function helpfulFollow(follows: Follow[], session: Session): Verdict | undefined {
  const { runs, signals } = session;
  const correctedAfter = (at: number) => signals.corrections.some((c) => c > at);
  const wentWell: Array<{ steps: number[]; reason: string }> = [];
  for (const follow of follows) {
    if (correctedAfter(follow.at)) continue;
    const command = clip(follow.part ?? '');
    if (!follow.run) {
      // the offline miner's rule for citations: cited and never corrected afterwards
      wentWell.push({ steps: [follow.shown], reason: 'the agent cited the rule and no correction followed' });
    } else if (signals.abandoned) {
      continue;
    } else if (!follow.run.failed) {
      wentWell.push({ steps: [follow.shown], reason: `the agent ran \`${command}\` as the rule says and it passed` });
    } else {
      const check = runs.find((r) => r.call.index > follow.at && !r.failed && CHECK_KINDS.includes(r.kind));
      if (check) {
        wentWell.push({
          steps: [follow.shown, check.call.index],
          reason: `the agent ran \`${command}\` as the rule says and the checks after it passed`,
        });
      }
    }
  }
  if (wentWell.length > 0)
    return { tag: 'helpful', reason: wentWell[0].reason, steps: wentWell.flatMap((w) => w.steps) };
  return undefined;
}

function judgeFollows(rule: RuleInPlay, follows: Follow[], session: Session): Verdict {
  const { trace, runs } = session;
  const citation = `[${rule.id}]`;
  for (const step of trace.steps) {
    if (step.kind === 'assistant' && step.text.includes(citation)) follows.push({ at: step.index, shown: step.index });
  }
  follows.sort((a, b) => a.shown - b.shown);
  const edited = lateEdit(rule, session);
  if (edited)
    return {
      tag: 'violated',
      reason: `the session edited \`${clip(edited.file)}\` only after \`${clip(edited.failed.parts[0] ?? '')}\` failed without it`,
      steps: [edited.failed.call.index, edited.edit],
    };
  if (follows.length === 0)
    return { tag: 'neutral', reason: 'in play, and nothing in the session bears on it', steps: [] };

  const harm = harmfulFollow(follows, session);
  if (harm) return harm;

  // violated: the session came to the rule's command only when skipping it had failed, and it fixed that
  // what the rule's command must come before: the other commands it prescribes, and a step it names in words
  const before = [...ruleCommands(rule.content).prescribed, ...namedSteps(rule.content)];
  const late = lateFollow(follows, runs, before);
  if (late)
    return {
      tag: 'violated',
      reason: `the session ran \`${clip(late.follow.part ?? '')}\` only after \`${clip(late.failed)}\` failed without it`,
      steps: [late.at, late.follow.shown],
    };

  const helped = helpfulFollow(follows, session);
  if (helped) return helped;
  return {
    tag: 'neutral',
    reason: 'the agent followed the rule, but what came after does not show whether it helped',
    steps: follows.map((f) => f.shown),
  };
}
