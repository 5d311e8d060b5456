// The names a rule is about: identifiers, paths, packages, scripts, variables (`apiFetch`, `src/lib/http.ts`,
// `thiserror::Error`, `RUST_MIN_STACK`, `db:generate`). Two wordings of one lesson name the same things, the same way
// round (what one rules out, the other rules out too), however they phrase the rest; programs (`cargo`, `chmod`) and
// everyday words say nothing of which lesson it is.

const PROGRAMS = new Set([
  ...['npm', 'pnpm', 'yarn', 'bun', 'npx', 'node', 'deno', 'uv', 'pip', 'pip3', 'poetry', 'python', 'python3'],
  ...['cargo', 'rustc', 'rustup', 'go', 'make', 'cmake', 'just', 'git', 'gh', 'docker', 'bash', 'sh', 'sudo'],
  ...['chmod', 'chown', 'rm', 'cp', 'mv', 'mkdir', 'cat', 'ls', 'echo', 'export', 'source', 'env', 'curl', 'wget'],
  ...['run', 'exec', 'test', 'tests', 'build', 'install', 'add', 'lint', 'check', 'src', 'lib', 'app', 'internal'],
  ...['commit', 'push', 'pull', 'merge', 'rebase', 'checkout', 'stash', 'reset', 'main', 'master'],
]);

/** Words that look like code in prose but name nothing in particular. */
const GENERIC = new Set([
  ...['e.g', 'i.e', 'etc', 'ts', 'js', 'py', 'rs', 'md', 'json', 'yaml', 'toml'],
  // every URL says these
  ...['http', 'https', 'www', 'com', 'org', 'net', 'dev', 'io', 'localhost'],
]);

/**
 * A plain word written like code: snake_case, camelCase (not a name like GitHub or TypeScript), a path, a dotted or
 * `::` name, an UPPER_CASE variable.
 */
const CODE_LIKE = /[_/:]|\w\.\w|^[a-z]+[A-Z]|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;

/** Words that rule out what follows in their clause; "not" and "no" only as an order ("not rustfmt", "do not"). */
const NEGATION = /^(?:never|don't|dont|avoid|instead|rather|without)$/i;
const ORDERING = /^(?:do|does|should|must|please)$/i;

function negates(word: string, previous: string | undefined): boolean {
  if (NEGATION.test(word)) return true;
  if (!/^(?:not|no)$/i.test(word)) return false;
  return previous === undefined || ORDERING.test(previous);
}

interface Term {
  /** The whole code word, not a part of a path or a qualified name. */
  whole: boolean;
  /** Named where the rule rules something out ("never `log.Printf`", "instead of `fetch`"). */
  negated: boolean;
  /** A name on its own: a one-word code span (`thiserror`) or the head of a qualified one (`thiserror::Error`). */
  named: boolean;
  /** Only ever named as a path or a part of one (`entire/sessions`, its `sessions`): a place, a branch. */
  place: boolean;
}

function usable(piece: string): boolean {
  return piece.length >= 3 && !/^\d+$/.test(piece) && !PROGRAMS.has(piece) && !GENERIC.has(piece);
}

function addWord(terms: Map<string, Term>, word: string, negated: boolean, alone = false): void {
  const clean = word.replace(/^[^\w.@-]+|[^\w]+$/g, '');
  if (!clean || clean.startsWith('-')) return;
  // a path or a qualified name names its parts too (`internal/logx` names `logx`, `log.Printf` names `log`)
  const parts = clean.split(/::|\/|:(?=\/\/)|\.(?=[A-Za-z])/).filter(Boolean);
  const entries: Array<[string, boolean, boolean]> = [
    [clean, true, alone],
    ...parts.map((p, i): [string, boolean, boolean] => [p, p === clean, alone && i === 0 && /::/.test(clean)]),
  ];
  const place = clean.includes('/');
  for (const [raw, whole, named] of entries) {
    const term = raw.toLowerCase();
    if (!usable(term)) continue;
    const known = terms.get(term);
    terms.set(term, {
      whole: whole || (known?.whole ?? false),
      negated: negated || (known?.negated ?? false),
      named: named || (known?.named ?? false),
      place: place && (known?.place ?? true),
    });
  }
}

/** Rules read once without `known` words: a run compares every new rule with every other (bounded, cleared when full). */
const READ = new Map<string, ReadonlyMap<string, Readonly<Term>>>();

/** The distinctive names a rule speaks of, lower-cased, with whether it rules them out; `known`: plain words to read as names. */
export function codeTerms(
  content: string,
  known: ReadonlySet<string> = new Set(),
): ReadonlyMap<string, Readonly<Term>> {
  if (known.size > 0) return readTerms(content, known);
  let terms = READ.get(content);
  if (!terms) {
    if (READ.size >= 16_384) READ.clear();
    terms = readTerms(content, known);
    READ.set(content, terms);
  }
  return terms;
}

function readTerms(content: string, known: ReadonlySet<string>): Map<string, Term> {
  const terms = new Map<string, Term>();
  // the error line a rule quotes ("fails with `state.go:3: …`") names the failure, not the lesson
  const said = content.replace(/\bfail(?:s|ed)?\b[^`.;]{0,24}`[^`\n]*`/gi, 'fails');
  for (const clause of said.split(/[.;:!?](?=\s|$)/)) {
    let negated = false;
    let previous: string | undefined;
    let raw: string | undefined;
    for (const m of clause.matchAll(/`([^`\n]+)`|([^\s`]+)/g)) {
      if (m[1] !== undefined) {
        const words = m[1].split(/[\s,()"']+/).filter(Boolean);
        // a command's program (`bin/rails server`, `./gradlew test`) says nothing of which lesson it is
        const program = words.length > 1 ? words.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w)) : -1;
        words.forEach((word, w) => w !== program && addWord(terms, word, negated, words.length === 1));
        previous = m[1];
        raw = m[0];
        continue;
      }
      const word = m[2].replace(/[^\w']/g, '');
      // "thiserror, not hand-written impls": a "not" after a comma rules out what follows
      if (negates(word, previous) || (/^not$/i.test(word) && /,$/.test(raw ?? ''))) negated = true;
      // a name another rule writes as code counts here too when written plainly ("with thiserror")
      else if (CODE_LIKE.test(m[2]) || known.has(word.toLowerCase())) addWord(terms, m[2], negated);
      previous = word;
      raw = m[2];
    }
  }
  return terms;
}

/** The files and folders a rule names as code on their own (`_bmad/`, `docs/setup.md`), extension and slash aside. */
function placesOf(content: string): Set<string> {
  const places = new Set<string>();
  for (const m of content.matchAll(/`([^`\s]+)`/g)) {
    const span = m[1];
    if (!span.includes('/') || span.includes('://')) continue;
    places.add(
      span
        .toLowerCase()
        .replace(/^\.\//, '')
        .replace(/\/+$/, '')
        .replace(/\.[a-z0-9]+$/, ''),
    );
  }
  return places;
}

/**
 * Two rules that each name paths, none of them the same, are about different places: `_bmad/` and
 * `_bmad/core/tasks/help.md` share a folder's name, not a lesson.
 */
export function differentPlaces(a: string, b: string): boolean {
  const [x, y] = [placesOf(a), placesOf(b)];
  return x.size > 0 && y.size > 0 && ![...x].some((p) => y.has(p));
}

/**
 * Whether two rules name mostly the same things the same way round: at least half the names of the one that names
 * fewer, one of them whole in at least one rule (two paths under `config/` are not one lesson), none ruled out by one
 * and asked for by the other; `atLeast` names shared at the least; `places: false` leaves paths and their parts out.
 */
export function nameTheSame(a: string, b: string, atLeast = 1, places = true): boolean {
  if (differentPlaces(a, b)) return false;
  const [first, second] = [codeTerms(a), codeTerms(b)];
  // only a name the other writes on its own (`thiserror`, `thiserror::Error`), never a word of a command line
  // (`audit` of `npm audit`) or a part of a path or URL (`github` of api.github.com)
  const wholeOf = (terms: ReadonlyMap<string, Readonly<Term>>) =>
    new Set(
      [...terms]
        .filter(([term, t]) => t.named && term.length >= 5 && /^[a-z][a-z0-9_-]*$/.test(term))
        .map(([term]) => term),
    );
  // without `places`, paths and branches are left out: two texts naming one place are not one lesson by it alone
  const kept = (terms: ReadonlyMap<string, Readonly<Term>>) =>
    places ? terms : new Map([...terms].filter(([, t]) => !t.place));
  const [x, y] = [kept(codeTerms(a, wholeOf(second))), kept(codeTerms(b, wholeOf(first)))];
  const fewer = Math.min(x.size, y.size);
  if (fewer === 0) return false;
  let shared = 0;
  let whole = false;
  for (const [term, one] of x) {
    const other = y.get(term);
    if (!other) continue;
    if (one.negated !== other.negated) return false;
    shared++;
    whole ||= one.whole || other.whole;
  }
  return whole && shared >= Math.max(atLeast, Math.ceil(fewer / 2));
}
