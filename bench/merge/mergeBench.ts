import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { seededRandom } from '../../src/core/learn/random';
import { mergePlaybooks } from '../../src/core/playbook/merge';

// `combee bench merge [--lines n] [--out <folder>]`: the playbook merge driver on a file both sides reordered
// wholesale (half their lines moved, seeded), the case whose line diff grows with the square of the file.

export const MERGE_USAGE = 'combee bench merge [--lines n] [--out <folder>]';

function shuffledHalf(text: string, random: () => number): string {
  const lines = text.split('\n');
  for (let i = 3; i < lines.length - 1; i++)
    if (random() < 0.5) {
      const j = 3 + Math.floor(random() * (lines.length - 4));
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
  return lines.join('\n');
}

export async function runMergeBench(argv: string[]): Promise<number> {
  const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const sizes = flag('--lines') ? [Number(flag('--lines'))] : [1000, 5000, 20000];
  const figures = sizes.map((lines) => {
    const random = seededRandom(7);
    const body = Array.from({ length: lines }, (_, i) =>
      i % 3 === 0
        ? `[bat-${String(i + 1).padStart(5, '0')}] helpful=1 harmful=0 :: Rule ${i}.`
        : `note ${i} about ${i % 97}`,
    );
    const base = `# Playbook\n\n## Rules\n${body.join('\n')}\n`;
    const ours = shuffledHalf(base, random);
    const theirs = shuffledHalf(base, random);
    const start = performance.now();
    const result = mergePlaybooks(base, ours, theirs);
    const ms = Math.round(performance.now() - start);
    process.stdout.write(
      `${lines} lines, both sides half reordered: merged in ${ms} ms, ${result.conflicts.length} conflict(s)\n`,
    );
    return { lines, ms, conflicts: result.conflicts.length };
  });
  const out = flag('--out') ?? join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'merge.json'), `${JSON.stringify({ figures }, null, 2)}\n`);
  return 0;
}
