// Entry VS Code calls inside the extension host (payload `extensionTestsPath`): run every *.test.js with mocha.
// Compiled file by file to out/test/extension before each run (test/extension/compile.mjs).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

// The runner prints lines with this mark; the rest of the extension host's console goes to its log file.
Mocha.reporters.Base.consoleLog = (...args) => console.log(`[mocha] ${format(...args)}`);

export function run(): Promise<void> {
  // COMBEE_TEST_GREP (set for code-server) narrows the run while developing
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60000,
    color: false,
    reporter: 'spec',
    grep: process.env.COMBEE_TEST_GREP,
  });
  // COMBEE_TEST_SUITE=restricted: the suite for a window in Restricted Mode (test/extension/run.mjs --restricted)
  const dir = process.env.COMBEE_TEST_SUITE === 'restricted' ? join(__dirname, '..', 'restricted') : __dirname;
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.test.js'))
    .sort();
  // COMBEE_TEST_ORDER=reverse: every file sets up what it needs, so the suite passes in either order
  if (process.env.COMBEE_TEST_ORDER === 'reverse') names.reverse();
  for (const name of names) mocha.addFile(join(dir, name));
  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        if (failures > 0) reject(new Error(`${failures} extension test(s) failed`));
        // a run of nothing (no compiled file found, a grep that matches none) is no pass
        else if ((runner.stats?.passes ?? 0) === 0)
          reject(new Error(`no extension test ran (${names.length} file(s) in ${dir})`));
        else resolve();
      });
    } catch (error) {
      reject(error);
    }
  });
}
