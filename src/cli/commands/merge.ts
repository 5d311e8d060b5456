import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { mergePlaybooks } from '../../core/playbook/merge';
import { readTextIfExists } from '../../core/util/io';
import { parse, UsageError } from '../args';
import type { Output } from '../output';

export async function mergeCommand(argv: string[], out: Output): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } });
  if (positionals.length !== 3) throw new UsageError('merge needs three files: <base> <ours> <theirs>');
  const [basePath, oursPath, theirsPath] = positionals.map((p) => resolve(p));
  const ours = await readTextIfExists(oursPath);
  const theirs = await readTextIfExists(theirsPath);
  if (ours === undefined || theirs === undefined)
    throw new UsageError(`no such file: ${ours === undefined ? oursPath : theirsPath}`);
  // Git passes an empty base when both sides added the file.
  const base = (await readTextIfExists(basePath)) ?? '';
  const result = mergePlaybooks(base, ours, theirs);
  await writeFile(oursPath, result.text);
  if (values.json)
    out.result(
      JSON.stringify(
        {
          merged: result.conflicts.length === 0,
          conflicts: result.conflicts,
          renumbered: result.renumbered,
          droppedCorroboration: result.droppedCorroboration,
          restoredFlags: result.restoredFlags,
        },
        null,
        2,
      ),
    );
  for (const { from, to } of result.renumbered) out.info(`both sides added ${from}: theirs is now ${to}`);
  if (result.droppedCorroboration.length > 0)
    out.info(
      `the provenance mark of ${result.droppedCorroboration.join(', ')} was added or changed on one side and is not carried: a merge cannot count sessions (the next run that proposes the rule marks it again)`,
    );
  if (result.restoredFlags.length > 0)
    out.info(
      `the flag mark of ${result.restoredFlags.join(', ')} is kept: a merge never clears a flag (accept the rule by name to)`,
    );
  if (result.droppedModelMarks.length > 0)
    out.info(`both sides gave ${result.droppedModelMarks.join(', ')} a different model mark: ours is kept`);
  if (result.conflicts.length > 0)
    out.warn(
      `${result.conflicts.length} rule(s) edited differently on both sides (${result.conflicts.join(', ')}): resolve the conflict markers`,
    );
  if (result.conflicts.length > 0) return 1;
  return 0;
}
