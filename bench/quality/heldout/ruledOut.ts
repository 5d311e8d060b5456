import { notPrescribed } from '../repos/negation';

// What makes a command named in a held-out statement not a prescription of it: besides the shared negations, a
// command ruled out after it is named ("bin/rails server never works here", "googleJavaFormat doesn't exist").

const SAME_SENTENCE = '(?:[^.;]|\\.(?=\\S))*';

export const ruledOutAfter = (command: string): RegExp =>
  new RegExp(`${command}${SAME_SENTENCE}\\b(never|doesn't|does not|no longer|isn't|is not|is gone)\\b`, 'i');

export const notPrescribedHere = (command: string): RegExp[] => [...notPrescribed(command), ruledOutAfter(command)];
