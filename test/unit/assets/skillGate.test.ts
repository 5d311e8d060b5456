import assert from 'node:assert/strict';
import { quotesError } from '../../../src/core/assets/skillGate';
import { skillDrafts } from '../../../src/core/assets/skills';
import type { Lesson } from '../../../src/core/learn/types';
import { parsePlaybook } from '../../../src/core/playbook/markdown';

const procedure = (traceId: string, content: string): Lesson => ({
  section: 'Build and test',
  content,
  kind: 'procedure',
  evidence: { traceId, steps: [1, 2] },
});
const EMPTY = parsePlaybook('');
const drafts = (lessons: Lesson[], playbook = EMPTY) => skillDrafts({ playbook, rules: [], lessons });

describe('the Skills gate', () => {
  it('proposes a procedure of several distinct steps seen in two or more sessions', () => {
    const { drafts: found, rejected } = drafts([
      procedure('t1', 'Run `make gen` to regenerate the API client after editing `api/schema.yaml`.'),
      procedure('t2', 'After `make gen`, run `make migrate` so the database matches the schema.'),
      procedure('t3', 'Run `make gen` to regenerate the API client after editing `api/schema.yaml`.'),
    ]);
    assert.deepEqual(rejected, []);
    assert.equal(found.length, 1);
    assert.equal(found[0].steps.length, 2);
    assert.equal(found[0].sessions, 3);
  });

  it('proposes nothing for a procedure seen in one session, however many steps', () => {
    const { drafts: found, rejected } = drafts([
      procedure('t1', 'Run `make gen` to regenerate the API client after editing `api/schema.yaml`.'),
      procedure('t1', 'After `make gen`, run `make migrate` so the database matches the schema.'),
    ]);
    assert.deepEqual(found, []);
    assert.deepEqual(rejected, [], 'not even a candidate');
  });

  it('a step said again in other words is one step: a Skill of one step restates its rule', () => {
    const { drafts: found, rejected } = drafts([
      procedure('t1', 'Run `pnpm db:generate` before `pnpm test`.'),
      procedure('t2', 'Before `pnpm test` always do `pnpm db:generate`, or the client is stale.'),
      procedure('t3', 'Generate first: `pnpm db:generate`, then `pnpm test`.'),
    ]);
    assert.deepEqual(found, []);
    assert.equal(rejected.length, 1);
    assert.match(rejected[0].reason, /one step/);
  });

  it('steps that all cite one rule restate it', () => {
    const playbook = parsePlaybook(
      '## Build and test\n[bat-00001] helpful=2 harmful=0 :: Before pushing, regenerate the API client with `make gen` and check it with `make test`.\n',
    );
    const { drafts: found, rejected } = drafts(
      [
        procedure('t1', 'Before pushing, regenerate the API client with `make gen`.'),
        procedure('t2', 'Before pushing, regenerate with `make gen` and check the API client with `make test`.'),
      ],
      playbook,
    );
    assert.deepEqual(found, []);
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0].reason, 'its steps restate one rule ([bat-00001])');
  });

  it("leaves out a step that quotes one session's error; what is left must still be a procedure", () => {
    const lessons = [
      procedure('t1', 'Run `make gen` to regenerate the API client after editing `api/schema.yaml`.'),
      procedure('t2', 'Run `make gen` to regenerate the API client after editing `api/schema.yaml`.'),
      procedure(
        't2',
        'If `make gen` fails with `ERROR: relation "orders_17" does not exist`, run `make migrate` first.',
      ),
    ];
    const { drafts: found, rejected } = drafts(lessons);
    assert.deepEqual(found, []);
    assert.match(rejected[0].reason, /one step/);
    // the same error seen in two sessions is the procedure's, not one task's
    const twice = drafts([
      ...lessons,
      procedure(
        't3',
        'If `make gen` fails with `ERROR: relation "orders_17" does not exist`, run `make migrate` first.',
      ),
    ]);
    assert.equal(twice.drafts.length, 1);
    assert.equal(twice.drafts[0].steps.length, 2);
  });

  it('reads quoted errors, not commands, as errors', () => {
    assert.ok(quotesError('`pnpm test` fails with `PrismaClient is not generated`.'));
    assert.ok(quotesError('The build stops at `error TS2307: Cannot find module`.'));
    assert.ok(quotesError('`npm ci` stops with `EUNSUPPORTEDPROTOCOL`.'));
    assert.ok(!quotesError('Run `pnpm db:generate` before `pnpm test`.'));
    assert.ok(!quotesError('Log errors through `internal/logx`.'));
  });
});
