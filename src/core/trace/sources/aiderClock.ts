import { realpath } from 'node:fs/promises';
import type { Clock } from '../model';
import { tryGit } from '../../util/git';

// Aider writes `# aider chat started at <local time>` without a zone. The zone of the machine it ran on is best read
// from the same repository's commits of that day (Aider's own commits carry it), else the importing machine's is the
// guess. Git runs with fixed arguments through the safe helper; the repository never chooses what runs.

/** A wall-clock time as Aider wrote it. */
export interface LocalTime {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

/** A commit's author time as its author's machine wrote it: its local wall clock and zone. */
export interface CommitTime {
  hash: string;
  /** `YYYY-MM-DD` in the commit's own zone. */
  day: string;
  /** Seconds since that day's midnight, in the commit's own zone. */
  second: number;
  zone: string;
}

/** Days either side of the sessions searched: any zone's day lies within them. */
const MARGIN_DAYS = 2;
const DAY_MS = 86_400_000;
const STRICT_ISO = /^(\d{4}-\d\d-\d\d)T(\d\d):(\d\d):(\d\d)(Z|[+-]\d\d:\d\d)$/;

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (t: LocalTime) => `${t.y}-${pad(t.mo)}-${pad(t.d)}`;

/**
 * The author times of the commits of `folder`'s repository around `times`; undefined when `folder` is not the top of
 * a repository (Aider writes its history at the top: a repository further up is another project's) or git fails.
 */
export async function commitTimes(folder: string, times: readonly LocalTime[]): Promise<CommitTime[] | undefined> {
  if (times.length === 0) return undefined;
  const top = await tryGit(folder, ['rev-parse', '--show-toplevel'], { timeoutMs: 10_000 });
  if (top === undefined || !(await samePath(top.trim(), folder))) return undefined;
  const stamps = times.map((t) => Date.UTC(t.y, t.mo - 1, t.d));
  const since = new Date(Math.min(...stamps) - MARGIN_DAYS * DAY_MS).toISOString().slice(0, 10);
  const until = new Date(Math.max(...stamps) + (MARGIN_DAYS + 1) * DAY_MS).toISOString().slice(0, 10);
  const log = await tryGit(folder, ['log', '--all', '--format=%H %aI', `--since=${since}`, `--until=${until}`], {
    maxBuffer: 16 * 1024 * 1024,
    timeoutMs: 30_000,
  });
  if (log === undefined) return undefined;
  const commits: CommitTime[] = [];
  for (const line of log.split('\n')) {
    const [hash, iso] = line.trim().split(' ');
    const m = iso ? STRICT_ISO.exec(iso) : null;
    if (!m) continue;
    const zone = m[5] === 'Z' ? '+00:00' : m[5];
    commits.push({ hash, day: m[1], second: Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]), zone });
  }
  return commits;
}

async function samePath(a: string, b: string): Promise<boolean> {
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}

/**
 * The zone of a session started at `local`: that of a commit the session made (`hashes`, as Aider printed them), else
 * of the commit of that local day nearest in wall-clock time (ties: the smaller hash), else this machine's.
 */
export function sessionClock(local: LocalTime, hashes: readonly string[], commits: readonly CommitTime[] = []): Clock {
  const own = commits.find((c) => hashes.some((h) => h.length >= 7 && c.hash.startsWith(h)));
  if (own) return { zone: own.zone, from: 'git' };
  const day = dayOf(local);
  const at = local.h * 3600 + local.mi * 60 + local.s;
  const sameDay = commits
    .filter((c) => c.day === day)
    .sort((a, b) => Math.abs(a.second - at) - Math.abs(b.second - at) || (a.hash < b.hash ? -1 : 1));
  if (sameDay.length > 0) return { zone: sameDay[0].zone, from: 'git' };
  return { zone: machineZone(local), from: 'machine' };
}

/** This machine's zone at that local time, as `+hh:mm`. */
function machineZone(t: LocalTime): string {
  const offset = -new Date(t.y, t.mo - 1, t.d, t.h, t.mi, t.s).getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** The local time placed in `zone`, as an ISO time; undefined for a date that does not exist. */
export function atZone(t: LocalTime, zone: string): string | undefined {
  const m = /^([+-])(\d\d):(\d\d)$/.exec(zone);
  if (!m) return undefined;
  const offsetMs = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
  const date = new Date(Date.UTC(t.y, t.mo - 1, t.d, t.h, t.mi, t.s) - offsetMs);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
