import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/paths';

interface Declared {
  default?: unknown;
  scope?: string;
}

const properties = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, Declared> } };
  }
).contributes.configuration.properties;

/** The rows of the README's settings table: name → [default, set in], as written. */
function readmeSettings(): Map<string, [string, string]> {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('\n## Settings\n'),
    readme.indexOf('\n## ', readme.indexOf('\n## Settings\n') + 1),
  );
  const rows = new Map<string, [string, string]>();
  for (const m of section.matchAll(/^\| `(combee\.[^`]+)` \| (.*?) \| (.*?) \|/gm)) rows.set(m[1], [m[2], m[3]]);
  return rows;
}

/** How the table writes a default: in a code span, strings bare (an empty one as ""), the rest as JSON. */
const written = (value: unknown) => `\`${typeof value === 'string' ? value || '""' : JSON.stringify(value)}\``;
/** Only `resource` settings may come from a repository; application and machine ones are read from the user's own. */
const setIn = (scope: string | undefined) => (scope === 'resource' ? 'user or workspace' : 'user');

describe("README's settings table", () => {
  const rows = readmeSettings();

  it('names every setting the manifest declares, and none it does not', () => {
    const declared = Object.keys(properties).sort();
    assert.deepEqual(
      declared.filter((name) => !rows.has(name)),
      [],
      'declared in package.json, missing from the README',
    );
    assert.deepEqual(
      [...rows.keys()].filter((name) => !(name in properties)),
      [],
      'in the README, not declared in package.json',
    );
  });

  it("gives each setting the manifest's default and who may set it", () => {
    const wrong = [...rows]
      .filter(([name]) => name in properties)
      .filter(
        ([name, [def, who]]) => def !== written(properties[name].default) || who !== setIn(properties[name].scope),
      )
      .map(
        ([name, [def, who]]) =>
          `${name}: ${def} / ${who}, manifest ${written(properties[name].default)} / ${setIn(properties[name].scope)}`,
      );
    assert.deepEqual(wrong, []);
  });
});
