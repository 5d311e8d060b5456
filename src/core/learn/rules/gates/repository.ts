import { teamRuleFiles } from '../teamFiles';
import type { RepositoryText } from './types';

// What a repository tells an agent by itself: the scripts of package.json run through its package manager, the
// Makefile's and justfile's targets, and the documents an agent reads (README, CONTRIBUTING, the files the agents load
// with the team's rules, and the repository's skills: rules/teamFiles.ts).

const DOCUMENTS = ['README.md', 'CONTRIBUTING.md'];

function packageManager(manifest: { packageManager?: unknown }, readFile: (rel: string) => string | undefined): string {
  const named = typeof manifest.packageManager === 'string' ? /^(\w+)@/.exec(manifest.packageManager)?.[1] : undefined;
  if (named) return named;
  if (readFile('pnpm-lock.yaml') !== undefined) return 'pnpm';
  if (readFile('yarn.lock') !== undefined) return 'yarn';
  if (readFile('bun.lockb') !== undefined || readFile('bun.lock') !== undefined) return 'bun';
  return 'npm';
}

function scriptCommands(readFile: (rel: string) => string | undefined): string[] {
  const text = readFile('package.json');
  if (text === undefined) return [];
  let manifest: { scripts?: Record<string, unknown>; packageManager?: unknown };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return []; // a broken manifest declares nothing
  }
  const pm = packageManager(manifest, readFile);
  return Object.keys(manifest.scripts ?? {}).flatMap((name) => {
    const short = pm === 'npm' && !['test', 'start'].includes(name) ? [] : [`${pm} ${name}`];
    return [`${pm} run ${name}`, ...short];
  });
}

function targets(file: string, prefix: string, readFile: (rel: string) => string | undefined): string[] {
  const text = readFile(file);
  if (text === undefined) return [];
  return [...text.matchAll(/^([A-Za-z0-9][\w.-]*)\s*:(?!=)/gm)].map((m) => `${prefix} ${m[1]}`);
}

export function repositoryText(
  readFile: (rel: string) => string | undefined,
  /** The files of a workspace folder (Windsurf's and Kiro's rule folders); none known without it. */
  listFiles: (relFolder: string) => string[] = () => [],
  /** The sub-folders of a workspace folder (the skill roots); none known without it. */
  listFolders: (relFolder: string) => string[] = () => [],
): RepositoryText {
  return {
    commands: new Set([
      ...scriptCommands(readFile),
      ...targets('Makefile', 'make', readFile),
      ...targets('justfile', 'just', readFile),
    ]),
    documents: [...DOCUMENTS, ...teamRuleFiles(readFile, listFiles, listFolders)].flatMap((path) => {
      const text = readFile(path);
      return text === undefined ? [] : [{ path, text }];
    }),
  };
}
