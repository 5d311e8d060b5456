import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * Runs a GitHub Actions workflow's jobs here, act-style: each job in a fresh clone of the repository, its `run:`
 * steps in bash with the workflow's, job's and step's env, and the actions it uses emulated — checkout (the clone),
 * setup-node (this Node), upload-artifact and download-artifact (folders). The step that installs Combee is skipped:
 * `combee` is on the PATH given. Expressions are evaluated only in the forms the workflow uses; any other is an error,
 * so the test fails rather than running something else than GitHub would.
 */

export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
}

export interface Job {
  needs?: string | string[];
  strategy?: { matrix?: Record<string, Array<string | number>> };
  env?: Record<string, string>;
  steps: Step[];
}

export interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

export interface RunContext {
  /** The repository (a git work tree with an `origin`) each job clones. */
  repository: string;
  /** Folders put first on the PATH (the `combee` command, a `gh` stand-in). */
  path: string[];
  /** Where jobs, runner temp folders and artifacts go. */
  scratch: string;
  vars?: Record<string, string>;
  secrets?: Record<string, string>;
  github?: Record<string, string>;
  /** The step kept from running here (it installs what `path` already provides). */
  skipStepId?: string;
}

export interface StepLog {
  job: string;
  step: string;
  stdout: string;
  stderr: string;
}

let runCount = 0;

export function loadWorkflow(file: string): Workflow {
  return parse(readFileSync(file, 'utf8')) as Workflow;
}

/**
 * Runs every job in `needs` order, each matrix entry in turn; throws on a failing step with its output. Steps run
 * asynchronously, so a model server in this process keeps answering them.
 */
export async function runWorkflow(workflow: Workflow, context: RunContext): Promise<StepLog[]> {
  const logs: StepLog[] = [];
  // artifacts live for one run; the cache for as long as the scratch folder (runs after runs)
  const artifacts = join(context.scratch, 'runs', String(++runCount), 'artifacts');
  const caches = join(context.scratch, 'cache');
  mkdirSync(artifacts, { recursive: true });
  mkdirSync(caches, { recursive: true });
  for (const name of jobOrder(workflow.jobs)) {
    const job = workflow.jobs[name];
    for (const matrix of matrixEntries(job)) {
      const label = Object.keys(matrix).length > 0 ? `${name} (${Object.values(matrix).join(', ')})` : name;
      const home = join(context.scratch, 'runs', String(runCount), 'jobs', label.replace(/[^\w.-]+/g, '_'));
      const workspace = join(home, 'work');
      const temp = join(home, 'temp');
      mkdirSync(temp, { recursive: true });
      await promisify(execFile)('git', ['clone', '--quiet', context.repository, workspace]);
      const scope = {
        matrix,
        runner: { temp },
        vars: context.vars ?? {},
        secrets: context.secrets ?? {},
        github: context.github ?? {},
      };
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(workflow.env ?? {})) env[k] = evaluate(String(v), { ...scope, env });
      for (const [k, v] of Object.entries(job.env ?? {})) env[k] = evaluate(String(v), { ...scope, env });
      for (const step of job.steps) {
        const stepName = step.name ?? step.uses ?? step.id ?? 'step';
        const withArgs = Object.fromEntries(
          Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(String(v), { ...scope, env })]),
        );
        if (step.id !== undefined && step.id === context.skipStepId) continue;
        if (step.uses) {
          emulateAction(step.uses, withArgs, workspace, artifacts, caches);
          continue;
        }
        if (!step.run) throw new Error(`${label}: step ${stepName} has neither run nor uses`);
        const stepEnv = Object.fromEntries(
          Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v), { ...scope, env })]),
        );
        const result = await bash(evaluate(step.run, { ...scope, env }), workspace, {
          HOME: home,
          PATH: [...context.path, process.env.PATH ?? ''].join(':'),
          RUNNER_TEMP: temp,
          GITHUB_WORKSPACE: workspace,
          CI: 'true',
          GIT_CONFIG_NOSYSTEM: '1',
          ...env,
          ...stepEnv,
        });
        logs.push({ job: label, step: stepName, stdout: result.stdout, stderr: result.stderr });
        if (result.status !== 0)
          throw new Error(`${label}: step "${stepName}" failed (${result.status})\n${result.stdout}\n${result.stderr}`);
      }
    }
  }
  return logs;
}

function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function jobOrder(jobs: Record<string, Job>): string[] {
  const order: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`jobs need each other: ${[...path, name].join(' → ')}`);
    const needs = jobs[name].needs;
    for (const need of typeof needs === 'string' ? [needs] : (needs ?? [])) visit(need, [...path, name]);
    order.push(name);
  };
  for (const name of Object.keys(jobs)) visit(name, []);
  return order;
}

function matrixEntries(job: Job): Array<Record<string, string>> {
  let entries: Array<Record<string, string>> = [{}];
  for (const [key, values] of Object.entries(job.strategy?.matrix ?? {}))
    entries = entries.flatMap((entry) => values.map((v) => ({ ...entry, [key]: String(v) })));
  return entries;
}

type Scope = Record<string, Record<string, unknown>>;

/** `${{ a.b }}`, `${{ a.b || 'literal' }}`: the only expression forms the workflow needs. */
export function evaluate(text: string, scope: Scope): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const m = /^([a-z]+)\.([\w-]+)(?:\s*\|\|\s*'([^']*)')?$/.exec(expression);
    if (!m || !(m[1] in scope)) throw new Error(`expression not supported by the local runner: ${expression}`);
    const value = scope[m[1]][m[2]];
    return value === undefined || value === '' ? (m[3] ?? '') : String(value);
  });
}

let cacheSaves = 0;
const cacheOrder = (caches: string, key: string) => Number(readFileSync(join(caches, key, 'order'), 'utf8'));

function emulateAction(
  uses: string,
  args: Record<string, string>,
  workspace: string,
  artifacts: string,
  caches: string,
): void {
  const action = uses.split('@')[0];
  switch (action) {
    case 'actions/checkout':
    case 'actions/setup-node':
      return;
    case 'actions/cache/restore': {
      // the exact key, else the newest entry whose key starts with one of the restore keys
      const keys = readdirSync(caches).sort((a, b) => cacheOrder(caches, b) - cacheOrder(caches, a));
      const prefixes = (args['restore-keys'] ?? '')
        .split('\n')
        .map((k) => k.trim())
        .filter(Boolean);
      const hit = keys.find((k) => k === args.key) ?? keys.find((k) => prefixes.some((p) => k.startsWith(p)));
      if (hit) cpSync(join(caches, hit, 'data'), args.path, { recursive: true });
      return;
    }
    case 'actions/cache/save': {
      if (!existsSync(args.path)) return;
      mkdirSync(join(caches, args.key), { recursive: true });
      writeFileSync(join(caches, args.key, 'order'), String(++cacheSaves));
      cpSync(args.path, join(caches, args.key, 'data'), { recursive: true });
      return;
    }
    case 'actions/upload-artifact': {
      // GitHub's default (if-no-files-found: warn): nothing to upload is no failure
      if (!existsSync(args.path)) return;
      cpSync(args.path, join(artifacts, args.name), { recursive: true });
      return;
    }
    case 'actions/download-artifact': {
      // with a pattern and no merge-multiple, each artifact lands in a folder named after it
      const pattern = new RegExp(
        `^${(args.pattern ?? '*').replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`,
      );
      for (const name of readdirSync(artifacts).filter((n) => pattern.test(n)))
        cpSync(join(artifacts, name), join(args.path ?? workspace, name), { recursive: true });
      return;
    }
    default:
      throw new Error(`action not emulated by the local runner: ${uses}`);
  }
}
