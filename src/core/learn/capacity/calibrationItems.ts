import type { LessonKind } from '../../playbook/delta';
import { seededRandom } from '../random';
import type { Reflection } from '../types';

/**
 * Synthetic lessons for a calibration: each names its own module, path and command, so none repeats another and a
 * model that keeps what it is given has a reason to keep every one. Several ecosystems, so no one toolchain's
 * wording is what is measured.
 */
interface Ecosystem {
  command: (module: string) => string;
  path: (module: string) => string;
}

const snake = (module: string) => module.replace(/-/g, '_');

const ECOSYSTEMS: readonly Ecosystem[] = [
  { command: (m) => `pnpm --filter @app/${m} test`, path: (m) => `packages/${m}/src` },
  { command: (m) => `npm run build --workspace ${m}`, path: (m) => `apps/${m}` },
  { command: (m) => `npx tsc -p packages/${m}/tsconfig.json --noEmit`, path: (m) => `packages/${m}` },
  { command: (m) => `uv run pytest tests/${snake(m)} -x`, path: (m) => `src/${snake(m)}` },
  { command: (m) => `pip install -e ./libs/${m}`, path: (m) => `libs/${m}` },
  { command: (m) => `cargo test -p ${m}`, path: (m) => `crates/${m}` },
  { command: (m) => `cargo clippy -p ${m} -- -D warnings`, path: (m) => `crates/${m}/src` },
  { command: (m) => `go test ./internal/${snake(m)}/...`, path: (m) => `internal/${snake(m)}` },
  { command: (m) => `make -C services/${m} check`, path: (m) => `services/${m}` },
];

const AREAS = [
  'auth',
  'billing',
  'cache',
  'ledger',
  'search',
  'report',
  'sync',
  'upload',
  'queue',
  'metrics',
  'invoice',
  'gateway',
  'parser',
  'render',
  'session',
  'notify',
  'export',
  'schema',
  'audit',
  'pricing',
  'geo',
  'catalog',
  'checkout',
  'media',
];
const PARTS = [
  'core',
  'api',
  'worker',
  'cli',
  'store',
  'client',
  'service',
  'utils',
  'engine',
  'bridge',
  'jobs',
  'adapter',
  'model',
  'views',
  'hooks',
  'proto',
];
const REASONS = [
  'its generated code goes stale otherwise',
  'the snapshot tests depend on it',
  'CI runs it and fails on any difference',
  'the integration fixtures are rebuilt by it',
  'it catches the lint errors review rejects',
  'the type declarations other packages import come from it',
  'the migration check only runs there',
  'a stale build there breaks the dev server silently',
];
const FORMS: ReadonlyArray<(module: string, ecosystem: Ecosystem, reason: string) => string> = [
  (m, e, r) => `When touching module ${m}, run \`${e.command(m)}\` first: ${r}.`,
  (m, e, r) => `Before editing ${e.path(m)}/, run \`${e.command(m)}\`; ${r}.`,
  (m, e, r) => `Changes under ${e.path(m)}/ need \`${e.command(m)}\` to pass before the commit: ${r}.`,
];
const PLACES: ReadonlyArray<{ section: string; kind: LessonKind }> = [
  { section: 'Commands', kind: 'procedure' },
  { section: 'Testing', kind: 'rule' },
  { section: 'Pitfalls', kind: 'pitfall' },
];

/** The synthetic session a calibration item is told to come from (never a real session's id). */
export const calibrationTraceId = (seed: number, index: number) => `calibration:${seed}:${index}`;

/**
 * The calibration's items, one reflection each (a distinct synthetic session), generated on demand: the same seed
 * gives the same items in the same order, each naming a module no other item names.
 */
export class CalibrationItems {
  private readonly random: () => number;
  private readonly taken = new Set<string>();
  private readonly items: Reflection[] = [];

  constructor(private readonly seed: number) {
    this.random = seededRandom(seed);
  }

  /** Items `start`…`start + count - 1`. */
  slice(start: number, count: number): Reflection[] {
    while (this.items.length < start + count) this.items.push(this.next(this.items.length));
    return this.items.slice(start, start + count);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  private next(index: number): Reflection {
    const base = `${this.pick(AREAS)}-${this.pick(PARTS)}`;
    let module = base;
    // once the pairs run out, a number keeps each module (and so each item) distinct
    for (let n = 2; this.taken.has(module); n++) module = `${base}-${n}`;
    this.taken.add(module);
    const content = this.pick(FORMS)(module, this.pick(ECOSYSTEMS), this.pick(REASONS));
    const place = this.pick(PLACES);
    const traceId = calibrationTraceId(this.seed, index);
    return {
      traceId,
      lessons: [{ ...place, content, evidence: { traceId, steps: [0] } }],
      tags: [],
    };
  }
}
