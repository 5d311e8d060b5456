/** Secret patterns removed from every trace before it is stored or shown to any model. */
interface SecretRule {
  name: string;
  pattern: RegExp;
  /** Replacement builder; by default the whole match becomes `[REDACTED:<name>]`. */
  replace?: (match: string, ...groups: string[]) => string;
}

const tag = (name: string) => `[REDACTED:${name}]`;

const RULES: SecretRule[] = [
  { name: 'private-key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { name: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { name: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { name: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    name: 'url-credentials',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/:@'"]+):([^\s/@'"]+)@/gi,
    replace: (_m, scheme: string) => `${scheme}${tag('url-credentials')}@`,
  },
  {
    name: 'authorization-header',
    pattern: /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|bot)?\s*)[^\s"',]{6,}/gi,
    replace: (_m, head: string) => `${head}${tag('authorization-header')}`,
  },
  {
    name: 'env-secret',
    pattern: /^(\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH)[A-Za-z0-9_]*\s*[=:]\s*)(["']?)(?!\[REDACTED)[^\s"'#]{4,}\2/gim,
    replace: (_m, head: string) => `${head}${tag('env-secret')}`,
  },
];

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
      for (const rule of rules) {
        rule.pattern.lastIndex = 0;
        out = out.replace(rule.pattern, (...args: unknown[]) => {
          const match = args[0] as string;
          if (match.length === 0) return match;
          count++;
          const groups = args.slice(1, -2).map((g) => (typeof g === 'string' ? g : ''));
          return rule.replace ? rule.replace(match, ...groups) : tag(rule.name);
        });
      }
      if (homePaths) out = out.replace(HOME_PATH, '~');
      return out;
    },
  };
}
