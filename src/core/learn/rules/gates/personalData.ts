import { posix } from 'node:path';
import type { Gate, GateContext } from './types';

// A rule is read by every agent and every teammate: it carries nobody's address, name, machine or home folder. A
// placeholder (`/home/<user>`, `$HOME`, `~`) is how a rule says "your home" and passes, and so is a tool's own file
// in it (`~/.npmrc`, `$HOME/.cache`): the same on every machine. A folder of one's own under it (`~/Work/app`), or on
// one machine's disk outside the workspace, is one person's layout.

const FINDINGS: Array<[string, RegExp]> = [
  ['an e-mail address', /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/i],
  ['a home folder', /(?:\/Users\/|\/home\/|[A-Za-z]:\\Users\\)(?![<$%{~])[\w.-]+/],
  // `~/Work/app`, `$HOME/src/x`, `~jdoe/`: where one person keeps their work (a dot-folder is a tool's, and passes)
  ['a folder in a home folder', /(?<![\w~.\/$-])(?:~|\$HOME|\$\{HOME\})\/(?!\.)[\w-]|(?<![\w~.\/$-])~[a-z_][\w-]*\//i],
  // one machine's own name on the local network (`janes-macbook.local`); a service's (`registry.corp.local`) has more labels
  ['a hostname', /(?<![\w/.-])[a-z0-9-]+\.(?:local|lan|home|home\.arpa)(?![\w/.-])/i],
  ['a login on a host', /\b[a-z_][\w-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*:/i],
  // a person named as who to ask or who decided: the name is theirs, not the repository's
  [
    "a person's name",
    /\b(?:[Aa]sk|[Pp]ing|[Cc]c|[Cc]ontact|[Tt]ell|assigned to|reviewed by|approved by|according to|owned by)\s+@?[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\b/,
  ],
];

/** A handle is prose (`ping @kwame`); in code (`// @ts-ignore`, `@Override`) the same shape is the language's own. */
const HANDLE = /(?:^|[\s(])@[A-Za-z][\w-]{2,}(?![\w/@-])/;
const outsideCode = (text: string) => text.replace(/`[^`]*`/g, ' ');

/** Top folders where disks and users' files live on one machine: a path there is that machine's. */
const MACHINE_ROOTS = ['/Volumes', '/mnt', '/media', '/run/media', '/root', '/private/var/folders'];

/** Absolute paths in the rule: a `/` that starts a word, two folders deep at least (`/api` alone is a route). */
const ABSOLUTE = /(?<![\w.:\/~$@-])\/[A-Za-z][\w.@-]*(?:\/[\w.@-]+)+/g;

/** The sessions' working folders: where the work is, and so the top folders of this machine that hold work. */
function workspaces(context: GateContext): string[] {
  const folders = new Set<string>();
  for (const trace of context.traces.values()) {
    if (trace.cwd?.startsWith('/')) folders.add(posix.normalize(trace.cwd));
    for (const step of trace.steps)
      if (step.kind === 'tool_call' && step.workdir?.startsWith('/')) folders.add(posix.normalize(step.workdir));
  }
  return [...folders];
}

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder.replace(/\/$/, '')}/`);
const topOf = (path: string) => `/${path.split('/')[1] ?? ''}`;

/** A path on this machine outside every workspace: under a disk or user root, or beside the workspaces. */
function outsideWorkspace(content: string, context: GateContext): string | undefined {
  const folders = workspaces(context);
  const roots = [...MACHINE_ROOTS, ...folders.map(topOf).filter((top) => top !== '/tmp')];
  for (const m of content.matchAll(ABSOLUTE)) {
    const path = posix.normalize(m[0]);
    if (roots.some((root) => within(path, root)) && !folders.some((folder) => within(path, folder))) return path;
  }
  return undefined;
}

export const personalDataGate: Gate = {
  name: 'personal-data',
  check: (rule, context) => {
    const found = FINDINGS.find(([, pattern]) => pattern.test(rule.content));
    if (found) return `it carries personal data (${found[0]})`;
    const outside = outsideWorkspace(rule.content, context);
    if (outside) return `it carries personal data (a folder of one machine, outside the workspace: ${outside})`;
    return HANDLE.test(outsideCode(rule.content)) ? 'it carries personal data (a handle)' : undefined;
  },
};
