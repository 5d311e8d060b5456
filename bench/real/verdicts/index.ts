import type { CorpusVerdicts } from '../types';
import { verdicts as destyler } from './destyler-specstory';
import { verdicts as entire } from './entireio-cli';
import { verdicts as monochromatic } from './monochromatic-aider';
import { verdicts as mozgoslav } from './mozgoslav-aider';
import { verdicts as packmind } from './packmind-context-evaluator';
import { verdicts as testframework } from './testframework-codex';

/** The verdicts given so far to rules proposed on each real corpus. */
export const REAL_VERDICTS: readonly CorpusVerdicts[] = [
  entire,
  packmind,
  testframework,
  destyler,
  monochromatic,
  mozgoslav,
];
