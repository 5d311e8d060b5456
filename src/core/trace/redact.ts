/** Secret patterns removed from every trace before it is stored or shown to any model. */
interface SecretRule {
  name: string;
  pattern: RegExp;
  /** Replacement builder; by default the whole match becomes `[REDACTED:<name>]`. */
  replace?: (match: string, ...groups: string[]) => string;
  /** Cheap test that must pass for the pattern to possibly match: most texts skip most rules. */
  hint?: (text: string) => boolean;
  /** Which one-pass gate (below) covers the hint: when the gate finds nothing in a text, the rule is skipped. */
  gate?: 'literal' | 'named';
}

const tag = (name: string) => `[REDACTED:${name}]`;

const RULES: SecretRule[] = [
  { name: 'private-key', gate: 'literal', hint: (t) => t.includes('PRIVATE KEY'), pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { name: 'anthropic-key', gate: 'literal', hint: (t) => t.includes('sk-ant-'), pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: 'openai-key', gate: 'literal', hint: (t) => t.includes('sk-'), pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: 'github-token', gate: 'literal', hint: (t) => t.includes('_') && (/gh[pousr]_/.test(t) || t.includes('github_pat_')), pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: 'aws-access-key', gate: 'literal', hint: (t) => t.includes('AKIA') || t.includes('ASIA') || t.includes('ABIA') || t.includes('ACCA'), pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { name: 'google-api-key', gate: 'literal', hint: (t) => t.includes('AIza'), pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: 'slack-token', gate: 'literal', hint: (t) => t.includes('xox'), pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'stripe-key', gate: 'literal', hint: (t) => t.includes('_live_') || t.includes('_test_'), pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { name: 'npm-token', gate: 'literal', hint: (t) => t.includes('npm_'), pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'huggingface-token', gate: 'literal', hint: (t) => t.includes('hf_'), pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { name: 'jwt', gate: 'literal', hint: (t) => t.includes('eyJ'), pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    name: 'url-credentials', gate: 'literal', hint: (t) => t.includes('://') && t.includes('@'),
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/:@'"]+):([^\s/@'"]+)@/gi,
    replace: (_m, scheme: string) => `${scheme}${tag('url-credentials')}@`,
  },
  {
    name: 'authorization-header', gate: 'named', hint: (t) => /authorization/i.test(t),
    pattern: /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|bot)?\s*)[^\s"',]{6,}/gi,
    replace: (_m, head: string) => `${head}${tag('authorization-header')}`,
  },
  {
    name: 'env-secret', gate: 'named',
    pattern: /^(\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH)[A-Za-z0-9_]*\s*[=:]\s*)(["']?)(?!\[REDACTED)[^\s"'#]{4,}\2/gim,
    replace: (_m, head: string) => `${head}${tag('env-secret')}`,
  },
];

// One pass over a text instead of one per rule: every `literal` rule's hint needs one of these substrings, every
// `named` rule's hint one of these words (case-insensitive; "auth" covers "authorization").
const LITERAL_GATE = /sk-|gh[pousr]_|github_pat_|AKIA|ASIA|ABIA|ACCA|AIza|xox|_live_|_test_|npm_|hf_|eyJ|PRIVATE KEY|:\/\//;
const NAMED_GATE = /key|token|secret|passw|pwd|credential|auth/i;

const HOME_PATH = /(?:\/home\/|\/Users\/)([A-Za-z0-9._-]+)|\b[A-Za-z]:\\(?:\\)?Users\\(?:\\)?([A-Za-z0-9._ -]+?)(?=\\|$|["'\s])/g;

export interface Redactor {
  /** Returns the redacted text; `count` grows by the number of secrets removed. */
  redact(text: string): string;
  readonly count: number;
}

export interface RedactionOptions {
  /** Extra user patterns (JavaScript regular expressions) from settings. Invalid ones are reported, not thrown. */
  extraPatterns?: string[];
  /** Show home folders as `~` (default on). */
  homePaths?: boolean;
}

export function compileExtraPatterns(sources: string[], onInvalid: (source: string, error: string) => void): SecretRule[] {
  const rules: SecretRule[] = [];
  for (const source of sources) {
    try {
      rules.push({ name: 'custom', pattern: new RegExp(source, 'g') });
    } catch (error) {
      onInvalid(source, (error as Error).message);
    }
  }
  return rules;
}

export function createRedactor(options: RedactionOptions = {}, onInvalidPattern: (source: string, error: string) => void = () => {}): Redactor {
  const rules = [...RULES, ...compileExtraPatterns(options.extraPatterns ?? [], onInvalidPattern)];
  const homePaths = options.homePaths ?? true;
  let count = 0;
  return {
    get count() {
      return count;
    },
    redact(text: string): string {
      if (!text) return text;
      let out = text;
      // Tested once on the input: a replacement only removes a secret, and the tag it leaves never completes another.
      const literal = LITERAL_GATE.test(text);
      const named = NAMED_GATE.test(text);
      for (const rule of rules) {
        if ((rule.gate === 'literal' && !literal) || (rule.gate === 'named' && !named)) continue;
        if (rule.hint && !rule.hint(out)) continue;
        rule.pattern.lastIndex = 0;
        out = out.replace(rule.pattern, (...args: unknown[]) => {
          const match = args[0] as string;
          if (match.length === 0) return match;
          count++;
          const groups = args.slice(1, -2).map((g) => (typeof g === 'string' ? g : ''));
          return rule.replace ? rule.replace(match, ...groups) : tag(rule.name);
        });
      }
      if (homePaths && (out.includes('/home/') || out.includes('/Users/') || out.includes(':\\'))) out = out.replace(HOME_PATH, '~');
      return out;
    },
  };
}
