// Entry VS Code calls inside the extension host (payload `extensionTestsPath`): run every *.test.js with mocha.
// Plain CommonJS: this folder is loaded as is, not compiled.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const { format } = require('node:util');
const Mocha = require('mocha');

// The runner prints lines with this mark; the rest of the extension host's console goes to its log file.
Mocha.reporters.Base.consoleLog = (...args) => console.log(`[mocha] ${format(...args)}`);

exports.run = function run() {
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
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.test.js'))
    .sort())
    mocha.addFile(join(dir, name));
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension test(s) failed`)) : resolve()));
    } catch (error) {
      reject(error);
    }
  });
};
