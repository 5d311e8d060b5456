import type { CorpusVerdicts } from '../types';

// Filled by hand after learner runs: one verdict per proposed rule, keyed by normalizeRuleText(rule).
export const verdicts: CorpusVerdicts = {
  corpus: 'monochromatic-aider',
  verdicts: {},
};
