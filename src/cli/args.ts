import { parseArgs, type ParseArgsConfig } from 'node:util';
import { OutsideWorkspaceError, resolveInWorkspace, workspaceRelative } from '../core/trust/workspacePath';

export class UsageError extends Error {}

export function parse(
  argv: string[],
  options: NonNullable<ParseArgsConfig['options']>,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function oneOf<T extends string>(
  name: string,
  value: string | boolean | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function integer(name: string, value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(n) || n < 0)
    throw new UsageError(`--${name} must be a non-negative integer`);
  return n;
}

export function decimal(name: string, value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`--${name} must be a non-negative number`);
  return n;
}

/** A workspace-relative path flag (like the setting it mirrors); one that leaves the workspace is bad usage (exit 2). */
export function workspacePathFlag(
  name: string,
  workspace: string,
  value: string | boolean | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${name} needs a path`);
  try {
    resolveInWorkspace(workspace, value);
    return workspaceRelative(value, workspace);
  } catch (error) {
    if (error instanceof OutsideWorkspaceError) throw new UsageError(`--${name}: ${error.message}`);
    throw error;
  }
}
