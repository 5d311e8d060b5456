import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { readManagedBlock } from '../../../src/core/assets/managedBlock';
import { splitFrontMatter, toSkillName, validateSkill } from '../../../src/core/assets/skillSpec';
import { clusterProcedures, draftSkills, lessonsFromRecord, renderSkills } from '../../../src/core/assets/skills';
import { renderAssets } from '../../../src/core/assets/targets';
import type { RunRecord } from '../../../src/core/learn/record/record';
import type { Lesson } from '../../../src/core/learn/types';
import { parsePlaybook } from '../../../src/core/playbook/markdown';

const PLAYBOOK = parsePlaybook(`## Build and test
[bat-00003] helpful=1 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`: without it \`pnpm test\` fails with \`PrismaClient is not generated\`.
[bat-00004] helpful=0 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm build\`: the build imports the generated client.
[bat-00005] helpful=0 harmful=0 :: Lint with \`pnpm lint\`.
`);

const procedure = (traceId: string, content: string): Lesson => ({
  section: 'Build and test',
  content,
  kind: 'procedure',
  evidence: { traceId, steps: [1, 2] },
});
const LESSONS: Lesson[] = [
  procedure(
    't1',
    'Run `pnpm db:generate` before `pnpm test`: without it `pnpm test` fails with `PrismaClient is not generated`.',
  ),
  procedure(
    't2',
    'Run `pnpm db:generate` before `pnpm test`: without it `pnpm test` fails with `PrismaClient is not generated`.',
  ),
  procedure('t3', 'Run `pnpm db:generate` before `pnpm build`: the build imports the generated client.'),
  { ...procedure('t3', 'Lint with `pnpm lint`.'), kind: 'rule' },
  procedure('t4', 'Deploy with `make deploy` after tagging.'),
];
const RULES = [
  {
    id: 'bat-00004',
    op: 'ADD' as const,
    section: 'Build and test',
    content: 'Run `pnpm db:generate` before `pnpm build`: the build imports the generated client.',
    support: [{ traceId: 't3', steps: [1, 2] }],
  },
];
const files = (map: Record<string, string>) => (path: string) => map[path];

describe('skills', () => {
  it('clusters recurring procedure lessons by their commands; a one-session procedure is not a skill', () => {
    const clusters = clusterProcedures(LESSONS);
    assert.equal(clusters.length, 1);
    assert.equal(clusters[0].length, 3);
    assert.equal(clusterProcedures(LESSONS.slice(0, 1)).length, 0);
    assert.equal(
      clusterProcedures([LESSONS[0], { ...LESSONS[0] }]).length,
      0,
      'two lessons of one session are not recurring',
    );
    assert.equal(clusterProcedures([LESSONS[0], { ...LESSONS[0] }], 1).length, 1);
  });

  it('proposes a SKILL.md that passes the spec, with steps and the rule ids they come from', () => {
    const [draft] = draftSkills({ playbook: PLAYBOOK, rules: RULES, lessons: LESSONS });
    assert.equal(draft.name, 'db-generate-test');
    assert.deepEqual(
      draft.steps.map((s) => s.ruleIds),
      [['bat-00003'], ['bat-00004']],
    );
    assert.equal(draft.sessions, 3);

    const [change] = renderSkills({
      playbook: PLAYBOOK,
      playbookPath: '.combee/playbook.md',
      lessons: LESSONS,
      rules: RULES,
      roots: ['.claude/skills'],
      readFile: files({}),
    });
    assert.equal(change.path, '.claude/skills/db-generate-test/SKILL.md');
    assert.equal(change.kind, 'create');
    assert.deepEqual(validateSkill(change.after, 'db-generate-test'), []);
    const front = parse(splitFrontMatter(change.after)?.yaml ?? '') as Record<string, string>;
    assert.equal(front.name, 'db-generate-test');
    assert.match(
      front.description,
      /^Steps for running `pnpm db:generate` and `pnpm test`.*learned from 3 agent sessions\. Use when /,
    );
    const block = readManagedBlock(change.after) ?? '';
    assert.match(
      block,
      /1\. Run `pnpm db:generate` before `pnpm test`.* \[bat-00003\]\n2\. Run `pnpm db:generate` before `pnpm build`.* \[bat-00004\]/,
    );
    assert.match(block, /\(\.\.\/\.\.\/\.\.\/\.combee\/playbook\.md\)/);
  });

  it('reports each problem of a broken skill', () => {
    const broken = [
      '---',
      'name: My_Claude-Skill-',
      'description: ""',
      'license: 3',
      `compatibility: ${'x'.repeat(501)}`,
      'metadata:',
      '  author: me',
      '  version: 2',
      'allowed-tools: [1]',
      'model: opus',
      '---',
      'body',
    ].join('\n');
    const problems = validateSkill(broken, 'my-skill');
    const expected = [
      /^model: unknown field/,
      /^name: only lowercase letters/,
      /^name: contains the reserved word "claude"/,
      /^name: "My_Claude-Skill-" must equal the folder name "my-skill"/,
      /^description: must not be empty/,
      /^license: must be a string/,
      /^compatibility: 501 characters \(at most 500\)/,
      /^metadata: version must map a string to a string/,
      /^allowed-tools: must be a string/,
    ];
    for (const pattern of expected)
      assert.ok(
        problems.some((p) => pattern.test(p)),
        `${pattern} in\n${problems.join('\n')}`,
      );
    assert.equal(problems.length, expected.length, problems.join('\n'));

    assert.deepEqual(validateSkill('no front matter', 'x'), [
      'front matter: SKILL.md must start with YAML front matter between --- lines',
    ]);
    assert.match(validateSkill('---\nname: [a\n---\n', 'x')[0], /^front matter: invalid YAML/);
    assert.deepEqual(validateSkill('---\n- a\n---\n', 'x'), ['front matter: must be a mapping of fields']);
    const missing = validateSkill('---\nlicense: MIT\n---\n', 'x');
    assert.ok(
      missing.includes('name: missing (required)') && missing.includes('description: missing (required)'),
      missing.join('\n'),
    );
    assert.match(
      validateSkill(`---\nname: ${'a'.repeat(65)}\ndescription: d\n---\n`, 'a'.repeat(65)).join('\n'),
      /65 characters \(at most 64\)/,
    );
    assert.match(
      validateSkill(`---\nname: x\ndescription: ${'d'.repeat(1025)}\n---\n`, 'x').join('\n'),
      /description: 1025 characters/,
    );
    assert.deepEqual(
      validateSkill(
        '---\nname: ok-1\ndescription: Does it. Use when needed.\nlicense: MIT\ncompatibility: node 20\nmetadata:\n  a: b\nallowed-tools: Bash Read\n---\n',
        'ok-1',
      ),
      [],
    );
  });

  it('makes valid names from any words', () => {
    assert.equal(toSkillName('Claude Anthropic -- DB: generate!!'), 'db-generate');
    assert.equal(toSkillName('***'), 'recurring-task');
    assert.ok(toSkillName('word '.repeat(40)).length <= 64);
  });

  it('updates an existing skill of the same name: user front-matter fields and text outside the block are kept', () => {
    const existing = [
      '---',
      'name: db-generate-test',
      'description: Our own words about the DB workflow. Use when touching the schema.',
      'license: MIT',
      'metadata:',
      '  owner: platform-team',
      '---',
      '',
      '# DB workflow',
      '',
      'Written by the team.',
      '',
      '<!-- combee:begin -->',
      'old steps',
      '<!-- combee:end -->',
      '',
      'Team footer.',
      '',
    ].join('\n');
    const path = '.claude/skills/db-generate-test/SKILL.md';
    const out = renderSkills({
      playbook: PLAYBOOK,
      playbookPath: '.combee/playbook.md',
      lessons: LESSONS,
      rules: RULES,
      roots: ['.claude/skills'],
      readFile: files({ [path]: existing }),
    });
    assert.equal(out.length, 1);
    assert.equal(out[0].path, path);
    assert.equal(out[0].kind, 'modify');
    const after = out[0].after;
    assert.ok(
      after.startsWith(existing.slice(0, existing.indexOf('<!-- combee:begin'))),
      'front matter and team text unchanged',
    );
    assert.ok(after.endsWith('<!-- combee:end -->\n\nTeam footer.\n'));
    assert.match(readManagedBlock(after) ?? '', /\[bat-00003\]/);
    assert.deepEqual(validateSkill(after, 'db-generate-test'), []);
  });

  it('fills in a missing description without dropping user fields, and finds a renamed skill by its rule ids', () => {
    const renamed =
      '---\nname: prisma\nlicense: Apache-2.0\n---\n\n<!-- combee:begin -->\n1. old [bat-00003]\n<!-- combee:end -->\n';
    const out = renderSkills({
      playbook: PLAYBOOK,
      playbookPath: '.combee/playbook.md',
      lessons: LESSONS,
      rules: RULES,
      roots: ['.github/skills'],
      readFile: files({ '.github/skills/prisma/SKILL.md': renamed }),
      listDir: (dir) => (dir === '.github/skills' ? ['prisma', 'other'] : []),
    });
    assert.deepEqual(
      out.map((f) => f.path),
      ['.github/skills/prisma/SKILL.md'],
    );
    const front = parse(splitFrontMatter(out[0].after)?.yaml ?? '') as Record<string, string>;
    assert.equal(front.name, 'prisma');
    assert.equal(front.license, 'Apache-2.0');
    assert.match(front.description, /^Steps for running/);
    assert.deepEqual(validateSkill(out[0].after, 'prisma'), []);
  });

  it('writes to every configured root through renderAssets, and reads lessons from a run record', () => {
    const record = {
      nodes: [
        {
          id: 'r1',
          kind: 'reflection',
          status: 'ok',
          detail: { traceId: 't1', lessons: LESSONS.slice(0, 2), tags: [] },
        },
        { id: 'r2', kind: 'reflection', status: 'ok', detail: { traceId: 't3', lessons: LESSONS.slice(2), tags: [] } },
        { id: 'r3', kind: 'reflection', status: 'failed' },
        { id: 'l', kind: 'local', status: 'ok', detail: { ops: [], tags: [] } },
      ],
    } as unknown as RunRecord;
    const lessons = lessonsFromRecord(record);
    assert.equal(lessons.length, LESSONS.length);
    const out = renderAssets({
      workspace: '/w',
      playbook: PLAYBOOK,
      rules: RULES,
      lessons,
      readFile: files({ '.combee/playbook.md': 'old' }),
      settings: { skillRoots: ['.claude/skills', '.agents/skills'] },
    });
    assert.deepEqual(
      out.map((f) => f.path),
      [
        '.combee/playbook.md',
        'AGENTS.md',
        '.claude/skills/db-generate-test/SKILL.md',
        '.agents/skills/db-generate-test/SKILL.md',
      ],
    );
    const off = renderAssets({
      workspace: '/w',
      playbook: PLAYBOOK,
      rules: RULES,
      lessons,
      readFile: files({}),
      settings: { targets: ['agents-md'] },
    });
    assert.deepEqual(
      off.map((f) => f.path),
      ['.combee/playbook.md', 'AGENTS.md'],
    );
  });
});
