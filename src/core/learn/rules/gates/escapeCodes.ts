import type { Gate } from './types';

// A terminal's colour and cursor codes belong to the output they were copied from: in a rule they are noise an agent
// reads as text. Raw (ESC, CSI) or written out (`\x1b[`, `\e[`, `^[[`), or the bare `[31m` left when ESC was lost.
const ESCAPE = /\u001b|\u009b|\\(?:x1b|u001b|033|e)\[|\^\[\[|(?:^|[^\w\]])\[(?:\d{1,3};)*\d{1,3}m/i;

export const escapeCodesGate: Gate = {
  name: 'escape-codes',
  check: (rule) => (ESCAPE.test(rule.content) ? 'it contains terminal escape codes' : undefined),
};
