import assert from 'node:assert/strict';
import { classifyCommand, commandKey, isAutoFix } from '../../../src/core/trace/commands';

describe('command classification', () => {
  it('recognizes what a shell line does by its program and words, not by folder names', () => {
    const cases: Array<[string, string]> = [
      ['pnpm test', 'test'],
      ['npm run test:unit', 'test'],
      ['yarn test', 'test'],
      ['cargo test', 'test'],
      ['go test ./...', 'test'],
      ['python -m pytest tests/', 'test'],
      ['make test', 'test'],
      ['cd web && CI=1 npm test -- --watch=false', 'test'],
      ['tmp.lint.sh tests/basic/test_x.py', 'lint'],
      ['pnpm lint', 'lint'],
      ['npx tsc --noEmit', 'typecheck'],
      ['pnpm build', 'build'],
      ['pnpm db:generate', 'codegen'],
      ['npm ci', 'install'],
      ['git status', 'vcs'],
      ['cat vitest.config.ts', 'other'],
      ['ls tests/', 'other'],
      ['grep -r test src', 'other'],
    ];
    for (const [command, kind] of cases) assert.equal(classifyCommand(command), kind, command);
  });

  it('knows auto-fix runs and keys commands for comparison', () => {
    assert.ok(isAutoFix('pnpm lint --fix'));
    assert.ok(isAutoFix('prettier --write .'));
    assert.ok(!isAutoFix('pnpm lint'));
    assert.ok(isAutoFix('bun run lint:fix'));
    assert.ok(isAutoFix('npm run fix'));
    assert.ok(!isAutoFix('git commit -m "fix: the cart total"'));
    assert.ok(!isAutoFix('pnpm test -- src/fix.test.ts'));
    assert.equal(commandKey('cd app && TZ=UTC pnpm vitest run src/cart --reporter dot'), 'pnpm run vitest');
  });
});
