import type { CorpusVerdicts } from '../types';

// One verdict per rule a learner proposed on this corpus, judged against the labels and the transcripts (README-labels.md,
// "Verdicts"). Keyed by normalizeRuleText(rule); rules that are someone's words or carry personal data by its hash.
export const verdicts: CorpusVerdicts = {
  corpus: 'mozgoslav-aider',
  verdicts: {
    'sha256:7511aa7f8f7a9addd8c8ed826965cc82607efea6dd2b5bee59c74a8f5c18f32b': {
      verdict: 'harmful',
      reason: 'a persona written for another tool and other repositories, taken as a convention',
      trap: 'moz-persona-spec',
    },
    'sha256:942984827cdad4f0f27252e7873e54b54e8ad1ae49e57679ded88213d932b102': {
      verdict: 'harmful',
      reason: 'a persona written for another tool and other repositories, taken as a convention',
      trap: 'moz-persona-spec',
    },
    'sha256:5dab2500bade8b56a749fd4defc44f60a5c587c977d8512c2756bafaa2528a6f': {
      verdict: 'false',
      reason: 'the opening words of one task request',
    },
    'always write clean, well-tested code': { verdict: 'trivial', reason: 'generic advice any agent follows' },
  },
};
