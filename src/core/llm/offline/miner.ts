import { classifyCommand } from '../../trace/commands';
import type { Step, ToolCallStep, Trace } from '../../trace/model';
import { classifyTurns } from '../../trace/turns/classify';
import { withoutHalt } from '../../trace/turns/cues';
import { isQuestion, sentencesOf } from '../../trace/turns/sentences';
import { isReport, statesScopeOrChoice, statesScopeOutright } from '../../trace/turns/standing';
import type { Playbook } from '../../playbook/model';
import { bullets } from '../../playbook/model';
import type { BulletTag } from '../../playbook/delta';
import { ruleEvidence } from '../../learn/rules/ruleEvidence';
import type { Lesson, Reflection } from '../../learn/types';
import { failedResult } from '../../learn/sessionSignals';
import { asSentence, statedConventions } from './statements';
import { coChanges } from './coChanges';
import { actionOf } from './actions';
import { editSteps, failureLessons, type Run } from './fixes';
import { checkLessons } from './checks';
import { chosenFileLessons } from './chosenFiles';
import { folderBuildLessons } from './folderBuilds';
import { missingPathLessons } from './missingPaths';
import { removalLessons } from './removals';
import { environmentLimitLessons } from './environmentLimits';
import { toolFailureLessons } from './toolFailures';
import { verifyLessons } from './verifyChecks';
import { workingFolderLessons } from './workingFolder';

/**
 * The offline reflector: mines grounded lessons from one trace without any model. Every lesson cites the steps
 * that show it. Deterministic: the same trace and playbook always give the same reflection.
 */
export function mineLessons(trace: Trace, playbook: Playbook): Reflection {
  const runs = commandRuns(trace.steps, trace.exportedBy !== undefined);
  const lessons: Lesson[] = [];
  const seen = new Set<string>();
  const add = (lesson: Lesson) => {
    if (lesson.key && seen.has(lesson.key)) return;
    if (lesson.key) seen.add(lesson.key);
    lessons.push(lesson);
  };
  const evidence = (...steps: number[]) => ({ traceId: trace.id, steps: [...new Set(steps)].sort((a, b) => a - b) });

  // 1. A failing command and what changed before the same action passed (fixes.ts).
  const turns = classifyTurns(trace.steps);
  const corrections = turns.filter((t) => t.kind === 'correction').map((t) => ({ index: t.index, text: t.text }));
  const edits = editSteps(trace);
  const fixed = failureLessons(trace, runs, corrections, edits);
  for (const lesson of fixed.lessons) add(lesson);
  for (const lesson of missingPathLessons(trace.id, trace.cwd, runs, edits)) add(lesson);
  for (const lesson of toolFailureLessons(trace.id, trace.steps)) add(lesson);
  for (const lesson of workingFolderLessons(trace, runs, edits)) add(lesson);
  for (const lesson of removalLessons(trace.id, trace.cwd, runs, edits)) add(lesson);

  // 2. The user correcting the agent or stating how the team works, each turn read by its place in the dialogue: a
  // reply to the agent's question or a task request teaches nothing unless it states a standing instruction
  for (const turn of turns) {
    if (turn.kind !== 'correction' || !turn.text || fixed.stated.has(turn.index)) continue;
    const statement = directive(turn.text);
    // a correction that only asks for the work again ("reorder the lists") teaches nothing beyond this task
    if (!statement || !statesScopeOrChoice(statement)) continue;
    const previousAction = [...trace.steps.slice(0, turn.index)].reverse().find((s) => s.kind === 'tool_call');
    add(
      preference(statement, evidence(...(previousAction ? [previousAction.index] : []), turn.index, turn.contentIndex)),
    );
  }
  const stated = new Set(lessons.filter((l) => l.kind === 'preference').map((l) => l.content.toLowerCase()));
  // a convention is the user's standing instruction or correction, or a rule said in passing in a short request or
  // reply: a sentence of a document pasted as a request (a plan, a review's findings, a persona prompt) is that task's
  for (const turn of turns) {
    // an answer to the agent's question ("which conventions should I follow?") says how the team works as well
    const short = (turn.kind === 'task' || turn.kind === 'reply') && isShortRequest(turn.text);
    if (turn.kind !== 'standing' && turn.kind !== 'correction' && !short) continue;
    for (const statement of statedConventions(turn)) {
      // a correction's own directive already holds it
      if ([...stated].some((s) => s.includes(statement.toLowerCase()))) continue;
      // in passing, while asking for work, scope resting only on the team as subject ("we use go-git there") is as
      // often said of the code at hand: a second session must say it too
      const lesson = preference(statement, evidence(turn.contentIndex));
      add(short && !statesScopeOutright(statement) ? { ...lesson, minSupport: 2 } : lesson);
    }
  }
  // a file the user chose among those the agent found alike (chosenFiles.ts)
  for (const lesson of chosenFileLessons(trace.id, trace.steps, turns, trace.cwd)) add(lesson);

  // 3. The check command that works here, where a session shows an agent getting that check wrong (checks.ts).
  for (const lesson of checkLessons(trace, runs, edits, fixed.lessons)) add(lesson);
  // the check that caught the agent's own edits (verifyChecks.ts)
  const explained = new Set(fixed.lessons.flatMap((l) => l.evidence.steps));
  for (const lesson of verifyLessons(trace, runs, edits, explained)) add(lesson);
  // what this environment cannot do, where the session fixed nothing (environmentLimits.ts)
  for (const lesson of environmentLimitLessons(trace.id, runs, explained)) add(lesson);
  // a subfolder's own build, run there after editing under it (folderBuilds.ts)
  for (const lesson of folderBuildLessons(trace, runs)) add(lesson);

  // 4. Files changed together in this session: a rule only once another session changes them together too.
  for (const lesson of coChanges(trace)) add(lesson);

  return { traceId: trace.id, lessons, tags: tagPlaybook(trace, playbook) };
}

function commandRuns(steps: Step[], exported: boolean): Run[] {
  const calls = new Map<string, ToolCallStep>();
  const runs: Run[] = [];
  for (const step of steps) {
    if (step.kind === 'tool_call' && step.command) calls.set(step.callId, step);
    if (step.kind === 'tool_result') {
      const call = calls.get(step.callId);
      // a call the client never ran neither failed nor passed
      if (!call?.command || step.notRun) continue;
      const command = firstLine(call.command);
      const failed = failedResult(step, call.command);
      // an export that recorded no output leaves the outcome unknown; the agent's own record says when it passed
      const passed = !failed && (step.exitCode === 0 || step.output.trim() !== '' || !exported);
      const action = actionOf(command, call.workdir);
      runs.push({ call, result: step, command, kind: classifyCommand(command), failed, passed, action });
    }
  }
  return runs;
}

/** What a user said of how the team works, as a convention scoped to the folder it names. */
function preference(statement: string, evidence: Lesson['evidence']): Lesson {
  const key = `pref:${statement
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()}`;
  return { section: 'Conventions', kind: 'preference', key, content: statement, scope: pathScope(statement), evidence };
}

function firstLine(command: string): string {
  return command.split('\n')[0].trim();
}

/**
 * The directive part of a correction: its first sentences without the leading "No —", less the questions and the
 * reports of what happened ("I ran it twice"), which say nothing of what to do.
 */
function directive(text: string): string | undefined {
  // a client's own bracketed marker (an interruption notice) is no words of the user's
  if (text.replace(/\[[^\]]*\]/g, '').trim() === '') return undefined;
  const sentences = sentencesOf(withoutHalt(text));
  const useful = sentences.filter((s) => !isQuestion(s) && !isReport(s));
  const chosen = (useful.length > 0 ? useful : sentences).slice(0, 2).join(' ');
  if (!chosen || chosen.length < 8) return undefined;
  const clipped = chosen.length > 240 ? `${chosen.slice(0, 237)}…` : chosen;
  return asSentence(clipped);
}

/** The longest request a rule said in passing is read from; past it, or laid out as a document, it is a document. */
const SHORT_REQUEST_SENTENCES = 4;

function isShortRequest(text: string): boolean {
  if (/^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\|)/m.test(text)) return false;
  return sentencesOf(text).length <= SHORT_REQUEST_SENTENCES;
}

function pathScope(statement: string): string | undefined {
  const m = /(?:^|[\s`'"(])((?:[\w.-]+\/)+)(?=[\s`'",.)]|$)/.exec(statement);
  return m ? m[1] : undefined;
}

/**
 * The rules the agent cited by id, judged as the trace's evidence judges them (learn/rules/ruleEvidence.ts): what came of
 * following them, and whether the user corrected or overruled it right after. One judge, so the offline tag and the
 * trace's verdict never point opposite ways; a cited rule the session says nothing clear about gets no tag.
 */
function tagPlaybook(trace: Trace, playbook: Playbook): BulletTag[] {
  const rules = new Map(bullets(playbook).map((b) => [b.id, b.content]));
  const cited = new Set<string>();
  for (const step of trace.steps) {
    if (step.kind !== 'assistant') continue;
    for (const m of step.text.matchAll(/\[([a-z]{2,5}-\d{5})\]/g)) if (rules.has(m[1])) cited.add(m[1]);
  }
  const inPlay = [...cited].map((id) => ({ id, content: rules.get(id) ?? '' }));
  return ruleEvidence(trace, inPlay)
    .filter((e) => e.tag !== 'neutral')
    .map(({ id, tag, reason }) => ({ id, tag, reason }));
}
