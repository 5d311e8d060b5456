import { runGit, gitToFile } from '../util/git';
import { MAX_SIGNATURE_BYTES, SIGNATURE_SUFFIX } from './bundleSignature';
import { BUNDLE_SUFFIX, MAX_BUNDLE_FILE_BYTES, MAX_BUNDLES_PER_SOURCE } from './teamLimits';

// Team bundles committed on another branch of the workspace's repository, read without checking it out: the branch
// resolved to a commit, its folder listed (`git ls-tree -z`), each bundle's blob copied to a file (`git cat-file
// blob`). The branch and folder come from a setting a repository may set: the branch is validated as a plain name
// and only ever used inside a full ref (`refs/heads/<name>`), so it can never become an option or a revision
// expression; the folder is a literal, workspace-relative path.

export interface BranchBundle {
  /** Workspace-relative path of the bundle on the branch. */
  path: string;
  /** The blob's object id: an unchanged bundle has the same one. */
  sha: string;
  size: number;
  /** Its `<bundle>.sig` committed beside it, read with it so the signer can be verified as for a folder bundle. */
  signature?: { sha: string; size: number };
}

export interface BranchListing {
  /** The commit the branch points at. */
  commit: string;
  /** The full ref it was found as (refs/heads/…, refs/remotes/…). */
  ref: string;
  bundles: BranchBundle[];
  /** Bundles left out (too large, too many), each with the reason. */
  skipped: string[];
}

/** A branch (or folder) that cannot be read: not a repository, no such branch, git missing. */
export class BranchSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BranchSourceError';
  }
}

// what `git check-ref-format` refuses, plus a leading '-' (an option), '@' alone (HEAD's shorthand) and the
// characters that make a name read differently in a log (C1 controls, bidi overrides)
const BAD_CHAR = /[\u0000-\u0020\u007f-\u009f\u202a-\u202e\u2066-\u2069~^:?*[\\]/;

/** Why `name` is no plain branch name, or undefined when it is one. */
export function branchNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.length > 200) return 'it is longer than 200 characters';
  if (name.startsWith('-')) return 'it starts with "-"';
  if (BAD_CHAR.test(name)) return 'it holds a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'it holds ".."';
  if (name.includes('@{') || name === '@') return 'it holds "@{" or is "@"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'it has an empty part';
  if (name.endsWith('.')) return 'it ends with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'a part of it starts with "."';
    if (part.endsWith('.lock')) return 'a part of it ends with ".lock"';
  }
  return undefined;
}

/** Where a branch name is looked for: a local branch, a remote-tracking one (`origin/x`), or origin's `x`. */
const candidateRefs = (branch: string) => [
  `refs/heads/${branch}`,
  `refs/remotes/${branch}`,
  `refs/remotes/origin/${branch}`,
];

const COMMIT = /^[0-9a-f]{40,64}$/;

async function resolveBranch(workspace: string, branch: string): Promise<{ ref: string; commit: string }> {
  const problem = branchNameProblem(branch);
  if (problem) throw new BranchSourceError(`branch ${JSON.stringify(branch)} is refused: ${problem}`);
  try {
    await runGit(workspace, ['rev-parse', '--git-dir']);
  } catch (error) {
    const why = (error as Error).message.split('\n').find((line) => line.startsWith('fatal:')) ?? 'git did not run';
    throw new BranchSourceError(`${workspace} is not in a git repository git can read (${why})`);
  }
  for (const ref of candidateRefs(branch)) {
    const out = await runGit(workspace, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '');
    const commit = out.trim();
    if (COMMIT.test(commit)) return { ref, commit };
  }
  throw new BranchSourceError(
    `branch ${JSON.stringify(branch)} not found in the repository of ${workspace} (neither local nor fetched from origin)`,
  );
}

// "<mode> <type> <object> <size>\t<path>", NUL-terminated; the size is padded
const ENTRY = /^(\d{6}) (\w+) ([0-9a-f]{40,64}) +(\d+|-)\t([^]*)$/;

/** The `*.combee-bundle` files directly in `folder` (workspace-relative, already checked) on `branch`. */
export async function listBranchBundles(workspace: string, branch: string, folder: string): Promise<BranchListing> {
  const { ref, commit } = await resolveBranch(workspace, branch);
  let out: string;
  try {
    out = await runGit(workspace, ['ls-tree', '-z', '-l', commit, '--', `${folder}/`]);
  } catch (error) {
    throw new BranchSourceError(`could not list ${folder} on ${ref}: ${(error as Error).message.split('\n')[0]}`);
  }
  const bundles: BranchBundle[] = [];
  const skipped: string[] = [];
  const signatures = new Map<string, { sha: string; size: number }>();
  for (const record of out.split('\0')) {
    const m = ENTRY.exec(record);
    // regular files only: no symbolic link (its target is a path), no submodule, no folder
    if (!m || m[2] !== 'blob' || !/^100(644|755)$/.test(m[1])) continue;
    const size = Number(m[4]);
    if (m[5].endsWith(BUNDLE_SUFFIX + SIGNATURE_SUFFIX)) {
      // one too large is left behind: its bundle is then read as unsigned, as the folder reader says of such a file
      if (size <= MAX_SIGNATURE_BYTES) signatures.set(m[5].slice(0, -SIGNATURE_SUFFIX.length), { sha: m[3], size });
      continue;
    }
    if (!m[5].endsWith(BUNDLE_SUFFIX)) continue;
    if (size > MAX_BUNDLE_FILE_BYTES) skipped.push(`${m[5]}: ${size} bytes, more than ${MAX_BUNDLE_FILE_BYTES}`);
    else bundles.push({ path: m[5], sha: m[3], size });
  }
  for (const bundle of bundles) {
    const signature = signatures.get(bundle.path);
    if (signature) bundle.signature = signature;
  }
  bundles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const extra of bundles.splice(MAX_BUNDLES_PER_SOURCE))
    skipped.push(`${extra.path}: more than ${MAX_BUNDLES_PER_SOURCE} bundles in one folder`);
  return { commit, ref, bundles, skipped };
}

/**
 * Copies a listed bundle's blob to the file `to`, and its signature's to `<to>.sig` (by object id: what was listed is
 * what is read).
 */
export async function copyBranchBundle(workspace: string, bundle: BranchBundle, to: string): Promise<void> {
  await copyBlob(workspace, bundle.path, bundle, to, MAX_BUNDLE_FILE_BYTES);
  if (bundle.signature)
    await copyBlob(
      workspace,
      bundle.path + SIGNATURE_SUFFIX,
      bundle.signature,
      to + SIGNATURE_SUFFIX,
      MAX_SIGNATURE_BYTES,
    );
}

async function copyBlob(
  workspace: string,
  path: string,
  blob: { sha: string; size: number },
  to: string,
  limit: number,
): Promise<void> {
  if (!/^[0-9a-f]{40,64}$/.test(blob.sha)) throw new BranchSourceError(`not an object id: ${blob.sha}`);
  const bytes = await gitToFile(workspace, ['cat-file', 'blob', blob.sha], to, limit);
  if (bytes !== blob.size)
    throw new BranchSourceError(`${path}: read ${bytes} bytes of its blob, listed as ${blob.size}`);
}
