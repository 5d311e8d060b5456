import type { CorpusVerdicts } from '../types';

// One verdict per rule a learner proposed on this corpus, judged against the labels and the transcripts (README-labels.md,
// "Verdicts"). Keyed by normalizeRuleText(rule); rules that are someone's words or carry personal data by its hash.
export const verdicts: CorpusVerdicts = {
  corpus: 'monochromatic-aider',
  verdicts: {
    'sha256:58d9a9c907e296f8e3cb9672a7abc72e3b436ec3d6c278803b430ea9bc697f0d': {
      verdict: 'false',
      reason: 'one editing task asked twice, taken as a standing rule',
      trap: 'mono-reorder',
    },
    'sha256:bc6c4476fb0a20950f4423f0ec382f0d38e33b04c0a44eb241bbf997ab75b0f1': {
      verdict: 'trivial',
      reason: 'CONVENTIONS.md already states the numbered-list padding',
      label: 'mono-md-list-markers',
    },
    'sha256:b7642c79a3815b013bb853bd553ef57cf11e00cfe3c540e60f9d1335223338bb': {
      verdict: 'harmful',
      reason: 'a constraint of one reorder task; as a standing rule it forbids changing any content',
      trap: 'mono-reorder',
    },
    'in markdown files, put each sentence (or long phrase of a sentence) on its own line': {
      verdict: 'trivial',
      reason: 'CONVENTIONS.md already states it',
      label: 'mono-md-sentence-per-line',
    },
    'in markdown lists use the `-` marker followed by one space; pad numbered-list markers so the marker and its spaces are 4 characters (`1. item`)':
      { verdict: 'trivial', reason: 'CONVENTIONS.md already states it', label: 'mono-md-list-markers' },
    'sha256:b6fc93721cb68d2a28f56a534e653c654687ed694e6422973b24c38f6a7a5d19': {
      verdict: 'false',
      reason: 'a task request (write the Markdown conventions once)',
    },
    'always write clean, well-tested code': { verdict: 'trivial', reason: 'generic advice any agent follows' },
    'remember: in markdown files, put each sentence (or long phrase of a sentence) on its own line': {
      verdict: 'trivial',
      reason: 'CONVENTIONS.md already states it',
      label: 'mono-md-sentence-per-line',
    },
    'remember: in markdown lists use the `-` marker followed by one space; pad numbered-list markers so the marker and its spaces are 4 characters (`1. item`)':
      { verdict: 'trivial', reason: 'CONVENTIONS.md already states it', label: 'mono-md-list-markers' },
    'sha256:e3b7de3a8db856ebc83a6ca6f56efdadb2c8860a20fcce91a93e0cbbdfdb4eac': {
      verdict: 'false',
      reason: 'a question to the model',
    },
    'sha256:00d0b8744552447461743634a8c407ca6d9ab2c59497e5f214b459552fe12c93': {
      verdict: 'false',
      reason: 'a question to the model',
    },
    'sha256:3015e15dba93ee15a8afe495f76cb3462d2267a1d176241ef3476eac560661df': {
      verdict: 'false',
      reason: 'a question to the model',
    },
    'sha256:344d051bf9c8117cfa60818780e72ead895f89e0a8309cb89f8f5aaa87952c3a': {
      verdict: 'false',
      reason: 'a question to the model',
    },
    'sha256:aa10a3847e78e3201ef75ac5dfc93b5141a5cc1c5d2c0e21d52f9b423c91a2c1': {
      verdict: 'false',
      reason: 'a question to the model',
    },
  },
};
