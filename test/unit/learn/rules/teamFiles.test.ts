import assert from 'node:assert/strict';
import { procedureStates } from '../../../../src/core/learn/rules/conflicts';
import { restatesGate } from '../../../../src/core/learn/rules/gates/restates';
import { repositoryText } from '../../../../src/core/learn/rules/gates/repository';
import { procedureSteps } from '../../../../src/core/learn/rules/procedureSteps';
import { MAX_SKILL_CHARS, MAX_SKILLS, teamRuleFiles } from '../../../../src/core/learn/rules/teamFiles';
import { dialogue, traceOf } from '../../trace/turns/steps';

/** A skill that tells its procedure in shell blocks, the way skills are usually written. */
const SEED_SKILL = [
  '---',
  'name: seed-db',
  'description: Seeds a local database for manual checks.',
  '---',
  '# Seed the database',
  '1. Build the tool:',
  '   ```bash',
  '   go build -o /tmp/seeder ./cmd/seeder',
  '   ```',
  '2. Run the steps in order:',
  '   ```sh',
  '   $ scripts/seed.sh create-schema  # once per database',
  '   scripts/seed.sh load-fixtures',
  '   ```',
  '```',
  'Warning: output, not a command',
  '```',
  '',
].join('\n');

function workspace(files: Record<string, string>) {
  const read = (rel: string) => files[rel];
  const listFolders = (rel: string) => [
    ...new Set(
      Object.keys(files)
        .filter((path) => path.startsWith(`${rel}/`))
        .map((path) => path.slice(rel.length + 1).split('/'))
        .filter((parts) => parts.length > 1)
        .map((parts) => parts[0]),
    ),
  ];
  return { read, listFolders };
}

describe("the team's files: skills too", () => {
  it("lists every agent's SKILL.md files after the root files, in a stable order", () => {
    const { read, listFolders } = workspace({
      'CLAUDE.md': '# Team\n',
      '.claude/skills/seed-db/SKILL.md': SEED_SKILL,
      '.agents/skills/release/SKILL.md': '# Release\n',
      '.agents/skills/notes/README.md': 'no skill here',
    });
    assert.deepEqual(
      teamRuleFiles(read, () => [], listFolders),
      ['CLAUDE.md', '.agents/skills/release/SKILL.md', '.claude/skills/seed-db/SKILL.md'],
    );
    // without a way to list folders, no skills are read
    assert.deepEqual(
      teamRuleFiles(read, () => []),
      ['CLAUDE.md'],
    );
  });

  it('reads a bounded number of skills, none larger than the cap', () => {
    const files: Record<string, string> = { '.claude/skills/huge/SKILL.md': 'x'.repeat(MAX_SKILL_CHARS + 1) };
    for (let i = 0; i < MAX_SKILLS + 5; i++) files[`.claude/skills/s${String(i).padStart(3, '0')}/SKILL.md`] = '# s\n';
    const { read, listFolders } = workspace(files);
    const found = teamRuleFiles(read, () => [], listFolders);
    assert.equal(found.length, MAX_SKILLS);
    assert.ok(!found.includes('.claude/skills/huge/SKILL.md'));
  });

  it("reads a skill's shell blocks as its steps, not its other blocks", () => {
    const steps = procedureSteps(SEED_SKILL);
    assert.match(steps, /Run `go build -o \/tmp\/seeder \.\/cmd\/seeder`\./);
    assert.match(steps, /Run `scripts\/seed\.sh create-schema`\./);
    assert.doesNotMatch(steps, /Run `Warning/);
  });

  it("leaves a rule out when a skill's steps name all its commands, and not when the rule adds one", () => {
    const restating =
      'Before seeding, build the tool with `go build -o /tmp/seeder ./cmd/seeder`, then run the steps in order.';
    assert.equal(procedureStates(SEED_SKILL, restating), true);
    assert.equal(
      procedureStates(SEED_SKILL, 'Build with `go build -o /tmp/seeder ./cmd/seeder`, then run `make migrate`.'),
      false,
    );
    assert.equal(procedureStates(SEED_SKILL, 'Seed only a local database.'), false);
  });

  it('gives the restates-repository gate the commands a skill documents', () => {
    const { read, listFolders } = workspace({ '.claude/skills/seed-db/SKILL.md': SEED_SKILL });
    const quiet = [
      traceOf('a', dialogue([{ user: 'x' }, { run: 'scripts/seed.sh load-fixtures' }])),
      traceOf('b', dialogue([])),
    ];
    const rule = {
      content: 'Load fixtures with `scripts/seed.sh load-fixtures`.',
      support: [
        { traceId: 'a', steps: [0] },
        { traceId: 'b', steps: [0] },
      ],
    };
    const traces = new Map(quiet.map((t) => [t.id, t]));
    assert.match(
      restatesGate.check(rule, { traces, repository: repositoryText(read, () => [], listFolders) }) ?? '',
      /already says it/,
    );
    assert.equal(restatesGate.check(rule, { traces, repository: repositoryText(read) }), undefined);
  });
});
