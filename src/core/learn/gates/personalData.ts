import type { Gate } from './types';

// A rule is read by every agent and every teammate: it carries nobody's address, name, machine or home folder. A
// placeholder (`/home/<user>`, `$HOME`, `~`) is how a rule says "your home" and passes.

const FINDINGS: Array<[string, RegExp]> = [
  ['an e-mail address', /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/i],
  ['a home folder', /(?:\/Users\/|\/home\/|[A-Za-z]:\\Users\\)(?![<$%{~])[\w.-]+/],
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

export const personalDataGate: Gate = {
  name: 'personal-data',
  check: (rule) => {
    const found = FINDINGS.find(([, pattern]) => pattern.test(rule.content));
    if (found) return `it carries personal data (${found[0]})`;
    return HANDLE.test(outsideCode(rule.content)) ? 'it carries personal data (a handle)' : undefined;
  },
};
