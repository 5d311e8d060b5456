import type { CorpusLabels } from '../types';
import { labels as destyler } from './destyler-specstory';
import { labels as entire } from './entireio-cli';
import { labels as monochromatic } from './monochromatic-aider';
import { labels as mozgoslav } from './mozgoslav-aider';
import { labels as packmind } from './packmind-context-evaluator';
import { labels as testframework } from './testframework-codex';

/** The labels of every real corpus, by folder name under real-sessions/. */
export const REAL_LABELS: readonly CorpusLabels[] = [
  entire,
  packmind,
  testframework,
  destyler,
  monochromatic,
  mozgoslav,
];
