import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Repository root, from out/test/support or test/support alike. */
export const REPO_ROOT = resolve(
  __dirname,
  existsSync(resolve(__dirname, '../../package.json')) ? '../..' : '../../..',
);
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
export const EXAMPLES = join(REPO_ROOT, 'examples');
/** The shared real trace samples, present on the team's machines; tests using them skip when absent. */
export const SHARED_TRACES = resolve(REPO_ROOT, '..', 'shared', 'traces');
export const hasSharedTraces = existsSync(SHARED_TRACES);
