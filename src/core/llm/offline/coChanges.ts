import { editedFiles } from '../../trace/edits';
import type { Trace } from '../../trace/model';
import type { Lesson } from '../../learn/types';
import { workspaceRelative } from './workspacePaths';

/** Lock files, snapshots and build output change along with everything: they say nothing about coupling. */
const INCIDENTAL =
  /(?:^|\/)(?:package-lock\.json|pnpm-lock\.yaml|yarn\.lock|Cargo\.lock|go\.sum|__snapshots__\/|dist\/|build\/|node_modules\/)/;
const MAX_FILES_FOR_PAIRS = 6;
/** Two sessions changing two files together can be one task resumed; three show a coupling across tasks. */
const MIN_SESSIONS = 3;

export function coChanges(trace: Trace): Lesson[] {
  const files = new Map<string, number[]>();
  for (const step of trace.steps) {
    if (step.kind !== 'tool_call') continue;
    for (const edited of editedFiles(step, trace.cwd)) {
      // a file is named as the repository names it; one outside the workspace is no repository's coupling
      const file = /^[/~]/.test(edited) ? workspaceRelative(edited, trace.cwd) : edited;
      if (file === undefined || file === '.' || INCIDENTAL.test(file)) continue;
      files.set(file, [...(files.get(file) ?? []), step.index]);
    }
  }
  // A sweeping refactor touches many files together for one reason: no pairwise rule from it.
  if (files.size < 2 || files.size > MAX_FILES_FOR_PAIRS) return [];
  const names = [...files.keys()].sort();
  const lessons: Lesson[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const [a, b] = [names[i], names[j]];
      // a file and its own test are obvious companions
      if (a.replace(/\.(test|spec)(?=\.)/, '') === b.replace(/\.(test|spec)(?=\.)/, '')) continue;
      lessons.push({
        section: 'Architecture',
        kind: 'rule',
        key: `cochange:${a}|${b}`,
        content: `\`${a}\` and \`${b}\` change together: when you edit one, update the other.`,
        minSupport: MIN_SESSIONS,
        evidence: {
          traceId: trace.id,
          steps: [...(files.get(a) ?? []), ...(files.get(b) ?? [])].sort((x, y) => x - y),
        },
      });
    }
  }
  return lessons;
}
