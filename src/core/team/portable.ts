import { realpathSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { redactDeep } from '../secrets/deep';
import type { Trace } from '../trace/model';
import { createRedactor, type Redactor } from '../trace/redact';
import { redactSecretFileSteps } from '../trace/secretFileSteps';
import { escapeRegExp } from '../util/regExp';

/**
 * A session made portable for a team bundle and back: the exporter's workspace folder becomes a placeholder (it names
 * the machine and the user), the session's folder becomes relative to it, and on import both are resolved against the
 * importing workspace.
 */
export const WORKSPACE_TOKEN = '<workspace>';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Untrusted short text (a name from a bundle): no control or bidi-override characters, at most `max` characters. */
export function cleanName(text: string, max = 100): string {
  const chars = Array.from(text.replace(CONTROL, '').trim());
  return chars.slice(0, max).join('');
}

/** The spellings of a workspace folder a trace may hold: as given, through symlinks, home shown as `~`, JSON-escaped. */
function rootSpellings(root: string): string[] {
  const homeRedactor = createRedactor({ homePaths: true });
  const forms = new Set<string>([root]);
  try {
    forms.add(realpathSync.native(root));
  } catch {
    // a folder that no longer exists is matched as written
  }
  for (const form of [...forms]) {
    forms.add(homeRedactor.redact(form));
    if (sep === '\\') forms.add(form.replace(/\\/g, '/'));
  }
  for (const form of [...forms]) forms.add(JSON.stringify(form).slice(1, -1));
  // `~` alone would replace every home folder: only spellings that still name the folder
  return [...forms].filter((f) => f.length > 1 && f !== '~').sort((a, b) => b.length - a.length);
}

/** Matches a spelling of the root, not a longer name that starts with it (`/repo` in `/repo-old` or `/repo.bak`). */
function rootPattern(spellings: string[]): RegExp {
  return new RegExp(`(?:${spellings.map(escapeRegExp).join('|')})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_-])`, 'g');
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** The session's folder relative to the workspace ("." or "packages/api"); undefined when it is outside. */
function relativeCwd(cwd: string, roots: string[]): string | undefined {
  const candidates = [resolve(cwd)];
  try {
    candidates.push(realpathSync.native(cwd));
  } catch {
    // a folder that no longer exists is compared as written
  }
  for (const root of roots)
    for (const path of candidates) if (inside(root, path)) return relative(root, path).split(sep).join('/') || '.';
  return undefined;
}

export interface ExportRewrite {
  contributor: string;
  /** Whether the session belongs to the workspace (its cwd matched): a worktree's is exported as ".". */
  matched: boolean;
  /** Counts the secrets it removes; home folders shown as `~` (the bundle leaves the machine). */
  redactor: Redactor;
}

/** Rewrites traces for a bundle of the workspace folder `workspace` (copies; the stored ones are unchanged). */
export function portableFor(workspace: string): (trace: Trace, options: ExportRewrite) => Trace {
  const root = resolve(workspace);
  const spellings = rootSpellings(root);
  const pattern = rootPattern(spellings);
  const roots = [...new Set([root, ...spellings.filter((s) => isAbsolute(s))])];
  return (trace, options) => {
    const before = options.redactor.count;
    const placed = redactDeep(trace, (text) => text.replace(pattern, WORKSPACE_TOKEN));
    // a signature checked here was of another bundle: the new one is signed (or not) on its own
    const { signedBy: _checked, ...redacted } = redactDeep(placed, (text) => options.redactor.redact(text));
    return {
      ...redacted,
      // ids are keys (dedupe, parent links), never rewritten
      id: trace.id,
      ...(trace.parentId !== undefined ? { parentId: trace.parentId } : {}),
      // outside the folder: a git worktree of its repository is its root, another folder stays as redacted text
      cwd:
        trace.cwd === undefined ? undefined : (relativeCwd(trace.cwd, roots) ?? (options.matched ? '.' : redacted.cwd)),
      contributor: cleanName(trace.contributor ?? options.contributor),
      // the log's folder can name its owner (Claude's project folders spell the home path): only its file name goes
      source: { ...redacted.source, path: basename(redacted.source.path.replace(/\\/g, '/')) },
      redactions: trace.redactions + options.redactor.count - before,
    };
  };
}

export interface ImportRewrite {
  /** The importing workspace folder (absolute). */
  workspace: string;
  /** The bundle's exporter: the contributor of every session in it. */
  contributor: string;
  /** The bundle's verified signer (then also `contributor`); absent: the name is self-declared. */
  signedBy?: string;
  /** The built-in rules, counted (a bundle is untrusted input). */
  redactor: Redactor;
  warn(message: string): void;
  /** The latest time a session of the bundle can have (ms): when it was exported, and no later than now. */
  notAfter?: number;
}

/** The session's times, none after `notAfter`: a bundle dated in the future would always be the newest. */
function clampedTimes(trace: Trace, notAfter: number | undefined): Pick<Trace, 'startedAt' | 'endedAt'> | undefined {
  if (notAfter === undefined) return undefined;
  const late = (t: string | undefined) => t !== undefined && !(Date.parse(t) <= notAfter);
  if (!late(trace.startedAt) && !late(trace.endedAt)) return undefined;
  const bound = new Date(notAfter).toISOString();
  return {
    ...(trace.startedAt !== undefined ? { startedAt: late(trace.startedAt) ? bound : trace.startedAt } : {}),
    ...(trace.endedAt !== undefined ? { endedAt: late(trace.endedAt) ? bound : trace.endedAt } : {}),
  };
}

/** The session's folder inside the importing workspace; one that leaves it is the workspace itself, with a warning. */
function importedCwd(trace: Trace, root: string, warn: (message: string) => void): string {
  const cwd = trace.cwd;
  if (cwd === undefined || cwd === '.' || cwd === '') return root;
  const refuse = (why: string) => {
    warn(`session ${JSON.stringify(trace.id)}: its folder ${JSON.stringify(cwd)} ${why}: set to the workspace root`);
    return root;
  };
  if (/[\u0000-\u001f]/.test(cwd)) return refuse('holds control characters');
  if (isAbsolute(cwd) || /^[\\/~]|^[A-Za-z]:/.test(cwd)) return refuse('is not relative to the workspace');
  const path = resolve(root, ...cwd.split(/[\\/]/));
  return inside(root, path) ? path : refuse('leaves the workspace');
}

/** The trace from a bundle as it is stored here: redacted again, the placeholder and its folder resolved. */
export function fromPortable(trace: Trace, options: ImportRewrite): Trace {
  const root = resolve(options.workspace);
  const before = options.redactor.count;
  const asText = redactDeep(trace, (text) => options.redactor.redact(text));
  // a bundle is untrusted: its secret-bearing files' values are redacted here too, whatever the exporter did
  const redacted = { ...asText, steps: redactSecretFileSteps(asText.steps, options.redactor) };
  const redactions = options.redactor.count - before;
  // a bundle's line cannot say it is signed: only this import's check does (options.signedBy)
  const { signedBy: _claimed, ...placed } = redactDeep(redacted, (text) => text.split(WORKSPACE_TOKEN).join(root));
  return {
    ...placed,
    ...clampedTimes(placed, options.notAfter),
    id: redacted.id,
    ...(redacted.parentId !== undefined ? { parentId: redacted.parentId } : {}),
    cwd: importedCwd(redacted, root, options.warn),
    // the exporter vouches for the whole bundle: a session's own contributor field is whatever its writer put there
    contributor: options.contributor,
    // only this import's signature check says a session is signed, never the bundle's own lines
    ...(options.signedBy !== undefined ? { signedBy: options.signedBy } : {}),
    redactions: trace.redactions + redactions,
  };
}
