import type { FlagGrammar, GrammarTable, ToolGrammar } from './grammar';

// From one simple command's words (as the shell gives them: quotes removed, one word per argument) to what it runs:
// wrappers and launchers peeled, flags read with their values, and its identity by the tool's grammar. `shellKit`
// references nothing outside itself: the enforcement hook embeds its source (hookScript.ts), so the hook and the core
// read a command one way.

/** A simple command with its wrappers peeled: `sudo FOO=1 npx jest x` runs `jest x` through `npx`. */
export interface Invocation {
  /** `NAME=value` assignments before it (or given to `env`). */
  env: string[];
  /** Words of the launchers it runs through, which change what runs: `npx`, `uv run`, `python -m`. */
  launcher: string[];
  program: string;
  args: string[];
  /** Flags a rule says must be absent (`!--force-with-lease` in a rule's command). */
  without?: string[];
}

export type Flag = [name: string, value: string | undefined];

export interface Identity {
  launcher: string[];
  /** The program, its subcommand or script or targets, and identity flags as `--bin=api`: what the command does. */
  words: string[];
  /** The subcommand the flags were read under. */
  sub?: string;
  flags: Flag[];
  /** Flags that pick a target for one task (`--filter web`, `-k cart`). */
  selectors: Flag[];
  /** Other positional words: packages, files, patterns. */
  targets: string[];
  env: string[];
  without: string[];
}

export interface ShellKit {
  invocation(words: readonly string[]): Invocation | undefined;
  identify(invocation: Invocation): Identity;
  /** A rule's command (`!flag` words: flags that must be absent) as an identity; undefined for no command. */
  ruleIdentity(words: readonly string[]): Identity | undefined;
  /** Whether a command does what a rule's command names: the same identity or a narrower one, its flags, its targets. */
  matches(command: Identity, rule: Identity): boolean;
  /** Whether an exit status is the tool's answer (no match, they differ, false) rather than a failure. */
  exitAnswers(identity: Identity, code: number): boolean;
}

export function shellKit(table: GrammarTable): ShellKit {
  const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
    record && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
  const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
  const PLACEHOLDER = /<[^>]+>|^(?:\[[^\]]*\]|\{[^}]*\}|\.{3}|…|\$[A-Z_]+)$/;
  const SUBCOMMAND = /^[a-z][a-z0-9_:.-]*$/;
  /** Programs that only run the next word: not part of what runs. Each with the flags that take a value. */
  const WRAPPERS: Record<string, { value: string[]; skip?: number }> = {
    sudo: { value: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '--user', '--group'] },
    env: { value: ['-u', '-C', '-S', '--unset', '--chdir'] },
    time: { value: ['-f', '-o', '--format', '--output'] },
    nice: { value: ['-n', '--adjustment'] },
    ionice: { value: ['-c', '-n', '-p'] },
    nohup: { value: [] },
    timeout: { value: ['-s', '-k', '--signal', '--kill-after'], skip: 1 },
    command: { value: [] },
    builtin: { value: [] },
    exec: { value: ['-a'] },
    xargs: { value: ['-n', '-I', '-L', '-P', '-d', '-E', '-s', '-a', '--max-args', '--max-procs'] },
    stdbuf: { value: ['-i', '-o', '-e'] },
  };
  /** Programs (and their subcommands) that run another program in an environment they set up. */
  const LAUNCHERS: Record<string, { sub?: string[]; value: string[] }> = {
    npx: { value: ['-p', '--package', '--node-options', '-c', '--call'] },
    pnpx: { value: ['-p', '--package'] },
    bunx: { value: ['-p', '--package'] },
    uvx: { value: ['--from', '--with', '-p', '--python', '--index-url'] },
    pnpm: { sub: ['exec', 'dlx'], value: ['--filter', '-F', '-C', '--dir', '-p', '--package'] },
    npm: { sub: ['exec', 'x'], value: ['-p', '--package', '-w', '--workspace', '-c', '--call'] },
    yarn: { sub: ['exec', 'dlx'], value: ['-p', '--package'] },
    bun: { sub: ['x'], value: [] },
    uv: {
      sub: ['run'],
      value: ['--python', '-p', '--project', '--directory', '--package', '--extra', '--group', '--with', '--from'],
    },
    poetry: { sub: ['run'], value: ['-C', '--directory', '-P', '--project'] },
    pipenv: { sub: ['run'], value: [] },
    pdm: { sub: ['run'], value: ['-p', '--project'] },
    hatch: { sub: ['run'], value: ['-e', '--env'] },
    bundle: { sub: ['exec'], value: ['--gemfile'] },
  };
  const PYTHONS = ['python', 'python3', 'py', 'python2'];
  /** Launcher flags that choose the environment a program runs in (`uv run --group docs`): part of the launcher. */
  const ENVIRONMENT_FLAGS = ['--group', '--extra', '--with', '--from', '--package', '-p', '--project', '--python'];

  function environmentFlags(flags: readonly string[]): string[] {
    const found: string[] = [];
    for (let j = 0; j < flags.length; j++) {
      const eq = flags[j].indexOf('=');
      const name = eq < 0 ? flags[j] : flags[j].slice(0, eq);
      if (!ENVIRONMENT_FLAGS.includes(name)) continue;
      found.push(eq < 0 ? `${name}=${flags[++j] ?? ''}` : flags[j]);
    }
    return found.sort();
  }

  /** `/usr/bin/npm` runs `npm`, `./gradlew` is gradle's wrapper; a project's own script keeps its path. */
  function programName(word: string): string {
    const slash = word.lastIndexOf('/');
    if (slash < 0) return word.toLowerCase();
    const base = word.slice(slash + 1).toLowerCase();
    if (word.startsWith('/') || own(table, base) || own(WRAPPERS, base) || own(LAUNCHERS, base)) return base;
    return word.replace(/^(?:\.\/)+/, '');
  }

  /** Past the flags at `i` (skipping a flag's value), to the first positional word. */
  function skipFlags(words: readonly string[], i: number, value: readonly string[]): number {
    while (i < words.length && words[i].startsWith('-') && words[i].length > 1) {
      if (words[i] === '--') return i + 1;
      i += value.includes(words[i]) ? 2 : 1;
    }
    return i;
  }

  function invocation(words: readonly string[]): Invocation | undefined {
    const env: string[] = [];
    const launcher: string[] = [];
    let i = 0;
    for (let guard = 0; guard < 32; guard++) {
      while (i < words.length && ASSIGNMENT.test(words[i])) env.push(words[i++]);
      if (i >= words.length) return undefined;
      const program = programName(words[i]);
      const wrapper = own(WRAPPERS, program);
      // `command -v npm` asks where npm is: it runs nothing
      if (wrapper && !(program === 'command' && /^-[vV]$/.test(words[i + 1] ?? ''))) {
        i = skipFlags(words, i + 1, wrapper.value) + (wrapper.skip ?? 0);
        continue;
      }
      if (PYTHONS.includes(program)) {
        const at = skipFlags(words, i + 1, ['-W', '-X']);
        const m = words.indexOf('-m', i + 1);
        if (m > i && m < at && m + 1 < words.length) {
          launcher.push(program, '-m');
          i = m + 1;
          continue;
        }
      }
      const through = own(LAUNCHERS, program);
      if (through) {
        let at = i + 1;
        if (through.sub) {
          at = skipFlags(words, at, through.value);
          if (!through.sub.includes(words[at] ?? '')) return done();
          at++;
        }
        const next = skipFlags(words, at, through.value);
        if (next < words.length) {
          launcher.push(program, ...(through.sub ? [words[at - 1]] : []), ...environmentFlags(words.slice(at, next)));
          i = next;
          continue;
        }
      }
      return done();
    }
    return undefined;
    function done(): Invocation {
      return { env, launcher, program: programName(words[i]), args: words.slice(i + 1) };
    }
  }

  function merged(base: FlagGrammar, extra: FlagGrammar | undefined): Required<FlagGrammar> {
    const list = (k: 'value' | 'optional' | 'attached' | 'selector' | 'identity') => [
      ...(base[k] ?? []),
      ...(extra?.[k] ?? []),
    ];
    return {
      value: list('value'),
      optional: list('optional'),
      attached: list('attached'),
      selector: list('selector'),
      identity: list('identity'),
      flagAliases: { ...base.flagAliases, ...extra?.flagAliases },
      posix: base.posix ?? false,
      exitOk: [...(base.exitOk ?? []), ...(extra?.exitOk ?? [])],
    };
  }

  /** One argument starting with `-`, as flags with their values; `next` is taken when a flag's value is the next word. */
  function readFlag(arg: string, next: string | undefined, g: Required<FlagGrammar>): { flags: Flag[]; took: boolean } {
    const alias = (name: string) => own(g.flagAliases, name) ?? name;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = alias(eq < 0 ? arg : arg.slice(0, eq));
      if (eq >= 0) return { flags: [[name, arg.slice(eq + 1)]], took: false };
      const takes = g.value.includes(name) && next !== undefined;
      return { flags: [[name, takes ? next : undefined]], took: takes };
    }
    for (const prefix of g.attached)
      if (arg.startsWith(prefix) && arg.length > prefix.length) {
        const eq = arg.indexOf('=');
        return { flags: [[eq < 0 ? arg : arg.slice(0, eq), eq < 0 ? undefined : arg.slice(eq + 1)]], took: false };
      }
    const name = alias(arg);
    if (g.value.includes(name)) return { flags: [[name, next]], took: next !== undefined };
    if (arg.length > 2 && g.optional.includes(arg.slice(0, 2)))
      return { flags: [[arg.slice(0, 2), arg.slice(2)]], took: false };
    if (!g.posix || arg.length <= 2 || arg.includes('=')) return { flags: [[name, undefined]], took: false };
    const flags: Flag[] = [];
    for (let j = 1; j < arg.length; j++) {
      const flag = alias(`-${arg[j]}`);
      const rest = arg.slice(j + 1);
      if (g.value.includes(flag)) {
        flags.push([flag, rest || next]);
        return { flags, took: !rest && next !== undefined };
      }
      if (g.optional.includes(flag)) {
        flags.push([flag, rest || undefined]);
        break;
      }
      flags.push([flag, undefined]);
    }
    return { flags, took: false };
  }

  function identify(inv: Invocation): Identity {
    const grammar: ToolGrammar | undefined = own(table, inv.program);
    let flagGrammar = merged(grammar ?? {}, undefined);
    const words = [inv.program];
    const flags: Flag[] = [];
    const selectors: Flag[] = [];
    const identityFlags: string[] = [];
    const positionals: string[] = [];
    const data: string[] = [];
    let sub: string | undefined;
    let args = inv.args;
    // `yarn workspace api test` runs `yarn test` in the workspace api: the workspace is a selector
    const first = args.findIndex((a) => !a.startsWith('-'));
    if (first >= 0 && grammar?.scoped?.includes(args[first]) && first + 1 < args.length) {
      selectors.push([args[first], args[first + 1]]);
      args = [...args.slice(0, first), ...args.slice(first + 2)];
    }
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (arg === '--') {
        data.push(...args.slice(i + 1));
        break;
      }
      if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
        const read = readFlag(arg, args[i + 1], flagGrammar);
        if (read.took) i++;
        for (const flag of read.flags) {
          if (flagGrammar.identity.includes(flag[0]))
            identityFlags.push(flag[1] === undefined ? flag[0] : `${flag[0]}=${flag[1]}`);
          else if (flagGrammar.selector.includes(flag[0])) selectors.push(flag);
          else flags.push(flag);
        }
        continue;
      }
      if (positionals.length === 0 && grammar && grammar.depth !== 0 && grammar.depth !== 'all') {
        sub = own(grammar.aliases, arg.toLowerCase()) ?? arg.toLowerCase();
        flagGrammar = merged(grammar, own(grammar.subs, sub));
      }
      positionals.push(arg);
    }
    const without = (inv.without ?? []).map((f) => own(flagGrammar.flagAliases, f) ?? f);
    let identity: string[] = [];
    let targets: string[] = positionals;
    const depth = grammar ? (grammar.depth ?? 1) : undefined;
    if (depth === undefined) {
      // a tool without a grammar: its leading subcommand-like words (`kubectl get pods`), at most two
      let n = 0;
      while (n < 2 && n < positionals.length && SUBCOMMAND.test(positionals[n])) n++;
      identity = positionals.slice(0, n).map((w) => w.toLowerCase());
      targets = positionals.slice(n);
    } else if (depth === 'all') {
      identity = positionals.filter((p) => !p.includes('=')).map((w) => w.toLowerCase());
      targets = positionals.filter((p) => p.includes('='));
    } else if (depth > 0 && grammar && sub !== undefined && (!grammar.only || grammar.only.includes(sub))) {
      const second = positionals[1]?.toLowerCase();
      if (grammar.builtins && !grammar.builtins.includes(sub)) {
        identity = ['run', sub];
        targets = positionals.slice(1);
      } else if (
        (sub === 'run' && (grammar.builtins || grammar.deeper?.includes('run'))) ||
        grammar.deeper?.includes(sub)
      ) {
        identity = second === undefined ? [sub] : [sub, second];
        targets = positionals.slice(identity.length);
      } else {
        identity = [sub, ...positionals.slice(1, depth).map((w) => w.toLowerCase())];
        targets = positionals.slice(depth);
      }
      // `npm test` runs the script named test: the same as `npm run test`
      if (grammar.lifecycle?.includes(sub)) identity = ['run', sub];
    }
    words.push(...identity, ...identityFlags.sort());
    return {
      launcher: inv.launcher.map((w) => w.toLowerCase()),
      words,
      sub,
      flags,
      selectors,
      targets: [...targets, ...data],
      env: inv.env,
      without,
    };
  }

  function ruleIdentity(ruleWords: readonly string[]): Identity | undefined {
    const without = ruleWords.filter((w) => w.startsWith('!') && w.length > 1).map((w) => w.slice(1));
    const inv = invocation(ruleWords.filter((w) => !(w.startsWith('!') && w.length > 1)));
    return inv ? identify({ ...inv, without }) : undefined;
  }

  const open = (word: string | undefined) => word !== undefined && PLACEHOLDER.test(word);

  function matches(command: Identity, rule: Identity): boolean {
    if (rule.launcher.length > 0 && rule.launcher.join(' ') !== command.launcher.join(' ')) return false;
    if (rule.words.length > command.words.length) return false;
    if (!rule.words.every((w, i) => open(w) || command.words[i] === w)) return false;
    const all = [...command.flags, ...command.selectors];
    const has = ([name, value]: Flag) =>
      all.some(([n, v]) => n === name && (value === undefined || open(value) || v === value));
    if (![...rule.flags, ...rule.selectors].every(has)) return false;
    if (rule.without.some((name) => all.some(([n]) => n === name))) return false;
    if (!rule.targets.every((t) => open(t) || command.targets.includes(t))) return false;
    return rule.env.every((e) => command.env.includes(e));
  }

  function exitAnswers(identity: Identity, code: number): boolean {
    const grammar: ToolGrammar | undefined = own(table, identity.words[0]);
    if (!grammar) return false;
    const answers = merged(grammar, identity.sub === undefined ? undefined : own(grammar.subs, identity.sub)).exitOk;
    return answers.some(
      (a) =>
        a.codes.includes(code) &&
        (a.sub === undefined || a.sub === identity.sub) &&
        (a.flags === undefined || identity.flags.some(([n]) => a.flags!.includes(n))),
    );
  }

  return { invocation, identify, ruleIdentity, matches, exitAnswers };
}
