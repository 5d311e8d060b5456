import assert from 'node:assert/strict';
import { codeTerms, nameTheSame } from '../../../../src/core/learn/rules/codeTerms';

describe('the names a rule is about', () => {
  it('reads identifiers, paths and variables, whole and in parts, and not programs or URL words', () => {
    assert.deepEqual(
      [...codeTerms('Logging goes through internal/logx, never log.Printf; `curl https://x.dev` is not it.').keys()],
      ['internal/logx', 'logx', 'log.printf', 'log', 'printf', 'https://x.dev'],
    );
    assert.equal(codeTerms('Never call `fetch` directly: go through `apiFetch`.').get('fetch')?.negated, true);
    assert.equal(codeTerms('Never call `fetch` directly: go through `apiFetch`.').get('apifetch')?.negated, false);
  });

  it('tells two wordings of one lesson, in several ecosystems', () => {
    const same: Array<[string, string]> = [
      [
        'Use `apiFetch` from `src/lib/http.ts` for every API call instead of `fetch`.',
        'Never call `fetch` directly for the API: go through `apiFetch`.',
      ],
      [
        'Use `logx` for logging instead of the standard `log` package.',
        'Logging goes through internal/logx, never log.Printf.',
      ],
      [
        'The seed script needs DATABASE_URL: load it with `source .env` first.',
        '`uv run python -m app.seed` fails with "DATABASE_URL is not set" unless `.env` is sourced.',
      ],
      [
        'Set `RUST_MIN_STACK=8388608` for the parser tests.',
        'The parser tests abort unless RUST_MIN_STACK=8388608 is set.',
      ],
      // a name one writes as code and the other plainly
      [
        'Error types derive `thiserror::Error`; do not implement Display by hand.',
        'Write new error enums with thiserror.',
      ],
    ];
    for (const [a, b] of same) assert.ok(nameTheSame(a, b), `${a} / ${b}`);
  });

  it('keeps apart rules that share only a folder or a program, or name a thing the opposite way round', () => {
    const apart: Array<[string, string]> = [
      ['Set `approval_policy` in ~/.codex/config.toml.', 'Hard-code the token in src/config.ts.'],
      ['Fix permissions with `chmod -R 777 .`.', 'Run `chmod +x scripts/*.sh` after cloning.'],
      ['Never use `@ts-ignore`; fix the types.', 'Add `// @ts-ignore` above any line with a type error.'],
      // a word of a command line is no name of its own
      ['Skip the security audit in CI.', 'Run `npm audit --audit-level=high` before a release.'],
      ['Run `cargo xtask codegen` before `cargo build`.', 'Set `RUST_MIN_STACK=8388608` for `cargo test`.'],
    ];
    for (const [a, b] of apart) assert.equal(nameTheSame(a, b), false, `${a} / ${b}`);
  });
});
