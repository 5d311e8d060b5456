// UI end-to-end: the extension loaded as a development extension into code-server, driven through
// chromium like a user would (command palette, diff editor, activity bar). One fresh server per test.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  clickDialogButton,
  launchBrowser,
  remoteUri,
  runCommand,
  startCodeServer,
  waitForDiffShowing,
  waitForSideBarContent,
  waitForWorkbench,
  workbenchUrl,
} from '../../testing/codeServer.mjs';
import { makeFixtureWorkspace, REPO_ROOT } from '../../testing/fixtureWorkspace.mjs';

const ARTIFACTS = join(REPO_ROOT, '.test-artifacts', 'e2e');
const TEST_TIMEOUT_MS = Number(process.env.COMBEE_TEST_TIMEOUT_MS) || 3 * 60_000;
const extensionPath = process.env.COMBEE_EXTENSION_PATH ?? REPO_ROOT; // override: develop against a stub
const only = process.argv.slice(2);

if (!existsSync(join(extensionPath, 'dist', 'extension.js'))) {
  console.error(`test/e2e: ${join(extensionPath, 'dist', 'extension.js')} is missing; run \`npm run build\` first`);
  process.exit(1);
}
rmSync(ARTIFACTS, { recursive: true, force: true });
mkdirSync(ARTIFACTS, { recursive: true });

const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, name) });

async function waitForFile(path, text, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (existsSync(path) && readFileSync(path, 'utf8').includes(text)) return;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error(
    `${path} ${existsSync(path) ? `does not contain "${text}"` : 'was not written'} within ${timeout / 1000} s`,
  );
}

/** A notification toast whose message matches. */
const notification = (page, text) =>
  page.locator('.notifications-toasts .notification-list-item-message').filter({ hasText: text }).first();

/** The rules the status bar says wait for review, once it says a number other than `not`. */
async function rulesToReview(page, not = -1) {
  const item = page
    .locator('.part.statusbar .statusbar-item')
    .filter({ hasText: /Combee: \d+ rules? (and|to review)/ });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text =
      (await item
        .first()
        .innerText({ timeout: 30_000 })
        .catch(() => '')) ?? '';
    const count = Number(/Combee: (\d+) rules?/.exec(text)?.[1] ?? NaN);
    if (Number.isInteger(count) && count !== not) return count;
    if (Date.now() > deadline) throw new Error(`the status bar says "${text}"`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

/** Clears the toasts, so that a wait for a message finds the next one, not an older one. */
async function clearNotifications(page) {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page
    .locator('.notifications-toasts .notification-toast')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 });
}

/** The session that arrives between two learns (one of the examples' Claude Code sessions). */
const HELD_SESSION = '53fdbb4a-8379-4108-b6a2-15ef3156b593.jsonl';

/** Moves a session out of the agent's folder before the server starts; `releaseHeldSessions()` puts it back. */
function holdBack(fixture, name) {
  const find = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = find(path);
        if (found) return found;
      } else if (entry.name === name) return path;
    }
    return undefined;
  };
  const path = find(fixture.sessionsDir);
  if (!path) throw new Error(`${name} is not among the fixture's sessions`);
  const aside = join(dirname(fixture.sessionsDir), name);
  renameSync(path, aside);
  fixture.releaseHeldSessions = () => renameSync(aside, path);
}

/** Every AGENTS.md and CLAUDE.md of the workspace (nested ones too), Combee's own folder aside. */
function agentFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '.combee' ? [] : agentFiles(path);
    return entry.name === 'AGENTS.md' || entry.name === 'CLAUDE.md' ? [path] : [];
  });
}

/** Opens the Combee activity bar entry (its views in the side bar). */
async function openCombeeViews(page) {
  const entry = page
    .locator(
      '.part.activitybar .action-item [aria-label^="Combee"], .part.activitybar .action-item[aria-label^="Combee"]',
    )
    .first();
  await entry.waitFor({ state: 'visible', timeout: 60_000 });
  await entry.click();
}

/** @type {[string, (context: any) => Promise<void>, { restricted?: boolean, holdBack?: string }?][]} */
const tests = [
  [
    'learn → diff → accept from the command palette',
    async ({ page, fixture, step }) => {
      const agentsBefore = readFileSync(join(fixture.workspace, 'AGENTS.md'));
      step('run "Combee: Learn from Recent Sessions"');
      await runCommand(page, 'Combee: Learn from Recent Sessions');
      step('wait for a diff showing pnpm db:generate');
      await waitForDiffShowing(page, 'pnpm db:generate');
      await shot(page, '01-diff.png');
      const playbook = join(fixture.workspace, '.combee', 'playbook.md');
      if (existsSync(playbook)) throw new Error('.combee/playbook.md was written before the proposal was accepted');
      step('run "Combee: Accept Proposal"; it asks before writing several files');
      await runCommand(page, 'Combee: Accept Proposal');
      await page.locator('.monaco-dialog-box').waitFor({ state: 'visible', timeout: 30_000 });
      await shot(page, '02-confirm.png');
      await clickDialogButton(page, /^Write \d+ Files$/);
      step('wait for .combee/playbook.md on disk');
      await waitForFile(playbook, 'pnpm db:generate');
      await shot(page, '02-accepted.png');
      // a modified file is saved after the edit is applied: wait for it like for the new playbook
      await waitForFile(join(fixture.workspace, 'AGENTS.md'), '<!-- combee:end -->');
      const agentsAfter = readFileSync(join(fixture.workspace, 'AGENTS.md'), 'utf8');
      // the team's text is untouched; Combee's rules sit in its own marked block after it
      if (
        !agentsAfter.startsWith(agentsBefore.toString('utf8')) ||
        !/<!-- combee:begin[\s\S]*pnpm db:generate[\s\S]*<!-- combee:end -->\n$/.test(agentsAfter)
      )
        throw new Error(`AGENTS.md: unexpected content\n${agentsAfter}`);
    },
  ],
  [
    'the Combee view container shows the Sessions view',
    async ({ page, step }) => {
      step('open the Combee activity bar entry');
      await openCombeeViews(page);
      step('wait for the Sessions view and its content');
      await page
        .locator('.part.sidebar')
        .getByText(/sessions/i)
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
      await waitForSideBarContent(page);
      step('wait for the imported example sessions to be listed');
      // Opening the view imports the agents' sessions: their titles appear without running any command.
      await page
        .locator('.part.sidebar .monaco-list-row')
        .getByText('Fix NaN checkout total for coupons without expiry')
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      await shot(page, '03-views.png');
    },
  ],
  [
    'in Restricted Mode the Combee views say why nothing is learned, and still list the sessions',
    async ({ page, step }) => {
      step('open the Combee activity bar entry in an untrusted window');
      await openCombeeViews(page);
      step('wait for the Restricted Mode message');
      await page
        .locator('.part.sidebar')
        .getByText(/Restricted Mode: Combee lists this folder's sessions but learns and writes nothing/)
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      step('wait for the sessions to be listed anyway');
      await page
        .locator('.part.sidebar .monaco-list-row')
        .getByText('Fix NaN checkout total for coupons without expiry')
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      await shot(page, '06-restricted.png');
    },
    { restricted: true },
  ],
  [
    'the aggregation tree webview shows the run, from sessions to applied changes',
    async ({ page, step }) => {
      step('learn first');
      await runCommand(page, 'Combee: Learn from Recent Sessions');
      await waitForDiffShowing(page, 'pnpm db:generate');
      step('run "Combee: Show Aggregation Tree"');
      await runCommand(page, 'Combee: Show Aggregation Tree');
      step('read the webview (nested iframes) until the run is drawn');
      const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await view.getByRole('heading', { name: 'Aggregation tree' }).waitFor({ timeout: 60_000 });
      await view
        .getByText(/combee · seed \d+ · p=2/)
        .first()
        .waitFor({ timeout: 30_000 });
      step('the graph has its edges; search finds a session by its title');
      await view.locator('path.edge').first().waitFor({ timeout: 10_000 });
      await view.getByRole('searchbox', { name: 'Search nodes' }).fill('Fix NaN checkout total for coupons');
      await view.locator('.node.kind-trace.match').first().waitFor({ timeout: 10_000 });
      step('select the applied changes: the details pane lists them with their support');
      await view.locator('.node.kind-apply').first().click();
      await view
        .locator('.details')
        .getByText('pnpm db:generate', { exact: false })
        .first()
        .waitFor({ timeout: 10_000 });
      await view
        .locator('.details')
        .getByText(/supported by \d+ sessions?\b/)
        .first()
        .waitFor({ timeout: 10_000 });
      step('and where their review stands now: all pending, nothing accepted yet');
      await view
        .locator('.details')
        .getByText(/^Review now: \d+ pending$/)
        .waitFor({ timeout: 10_000 });
      await shot(page, '04-tree.png');
    },
  ],
  [
    'a proposed rule followed from the Proposals view into the tree, and on to its session at the cited step',
    async ({ page, step }) => {
      step('learn first');
      await runCommand(page, 'Combee: Learn from Recent Sessions');
      await waitForDiffShowing(page, 'pnpm db:generate');
      step('open the Combee activity bar entry and find the proposed rule in the Proposals view');
      await openCombeeViews(page);
      const ruleRow = page
        .locator('.part.sidebar .monaco-list-row')
        .filter({ hasText: /^(ADD|RULE|UPDATE)\s/ })
        .filter({ hasText: 'pnpm db:generate' })
        .first();
      await ruleRow.waitFor({ state: 'visible', timeout: 60_000 });
      step('right-click it and choose "Show Rule in Aggregation Tree"');
      await ruleRow.click({ button: 'right' });
      const menuItem = page
        .locator('.monaco-menu .action-item')
        .filter({ hasText: /Show Rule in/ })
        .first();
      await menuItem.waitFor({ state: 'visible', timeout: 10_000 });
      await menuItem.hover();
      await menuItem.click();
      // a context menu can swallow a click that comes right after it opened: still open, it is clicked again
      await page.waitForTimeout(500);
      if (await menuItem.isVisible()) await menuItem.click({ timeout: 5_000 }).catch(() => undefined);
      step('the tree follows the rule: its sessions and the change that made it are lit');
      const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      const following = view
        .getByText(/Following rule \S+: from [1-9]\d* session\(s\) to the change that made it/)
        .first();
      await following.waitFor({ timeout: 60_000 });
      const ruleId = /** @type {RegExpExecArray} */ (/Following rule (\S+):/.exec(await following.innerText()))[1];
      await view.locator('.node.kind-trace.lit').first().waitFor({ timeout: 10_000 });
      await view.locator('.node.kind-apply.selected').first().waitFor({ timeout: 10_000 });
      step('the details pane names the sessions that support it; one opens as a transcript at the cited step');
      // the rule's change is marked in the details, with its supporting sessions listed
      const support = view
        .locator('.details li.op.followed')
        .filter({ hasText: ruleId })
        .locator('details.support[open]');
      const link = support
        .locator('button.link')
        .filter({ hasText: /, step #\d+/ })
        .first();
      await link.waitFor({ timeout: 10_000 });
      const [, title, cited] = /** @type {RegExpExecArray} */ (/^(.*), step #(\d+)/.exec(await link.innerText()));
      await link.click();
      step(`the transcript's tab is named by the session's title (${title.slice(0, 30)}…)`);
      await page
        .locator('.tabs-container .tab')
        .filter({ hasText: title.slice(0, 30) })
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
      const citedLine = page
        .locator('.editor-instance .view-line')
        .filter({ hasText: new RegExp(`^#${cited}[\\s\\u00a0]`) })
        .first();
      await citedLine.waitFor({ state: 'visible', timeout: 30_000 });
      step(`step #${cited} is highlighted: a decoration drawn across its line`);
      await page.waitForFunction(
        (text) => {
          const editor = [...document.querySelectorAll('.editor-instance')].find((e) =>
            [...e.querySelectorAll('.view-line')].some((l) => l.textContent?.replace(/\u00a0/g, ' ').startsWith(text)),
          );
          const line = [...(editor?.querySelectorAll('.view-line') ?? [])].find((l) =>
            l.textContent?.replace(/\u00a0/g, ' ').startsWith(text),
          );
          if (!editor || !line) return false;
          const top = line.getBoundingClientRect().top;
          // a whole-line decoration is a .cdr in the line's overlay, besides the cursor line's own highlight
          return [...editor.querySelectorAll('.view-overlays .cdr')].some(
            (d) => Math.abs(d.getBoundingClientRect().top - top) < 2 && d.getBoundingClientRect().width > 100,
          );
        },
        `#${cited} `,
        { timeout: 10_000, polling: 250 },
      );
      await shot(page, '05-rule-to-transcript.png');
    },
  ],
  [
    "the rule helpfulness webview lists the accepted playbook's rules",
    async ({ page, fixture, step }) => {
      step('learn and accept');
      await runCommand(page, 'Combee: Learn from Recent Sessions');
      await waitForDiffShowing(page, 'pnpm db:generate');
      await runCommand(page, 'Combee: Accept Proposal');
      await clickDialogButton(page, /^Write \d+ Files$/);
      await waitForFile(join(fixture.workspace, '.combee', 'playbook.md'), 'pnpm db:generate');
      step('run "Combee: Show Rule Helpfulness"');
      await runCommand(page, 'Combee: Show Rule Helpfulness');
      const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await view.getByRole('heading', { name: 'Rule helpfulness' }).waitFor({ timeout: 60_000 });
      await view
        .getByText(/Run pnpm db:generate before pnpm test/)
        .first()
        .waitFor({ timeout: 30_000 });
      await view
        .getByText(/^No evidence yet: it is counted when/)
        .first()
        .waitFor({ timeout: 10_000 });
      step('search and filter by chip: the rule is new, and found by its text');
      await view.getByRole('searchbox', { name: 'Search rules' }).fill('db:generate');
      await view.getByRole('button', { name: /^new \d+$/ }).click();
      await view
        .getByText(/^Showing \d+ of \d+ rule\(s\)\.$|^Showing all \d+ rule\(s\)\.$/)
        .waitFor({ timeout: 10_000 });
      const card = view.locator('li.rule').filter({ hasText: 'pnpm db:generate' }).first();
      const ruleId = await card.getAttribute('data-rule-id');
      await shot(page, '07-helpfulness.png');
      step(`retire [${ruleId}]: a proposal removing it opens as a diff, and nothing is written`);
      await card.getByRole('button', { name: `Retire rule ${ruleId}…`, exact: true }).click();
      await page.waitForFunction(
        (id) =>
          [...document.querySelectorAll('.monaco-diff-editor')].some((diff) => {
            const before = diff.querySelector('.editor.original .view-lines')?.textContent ?? '';
            const after = diff.querySelector('.editor.modified .view-lines')?.textContent ?? '';
            return before.includes(`[${id}]`) && !after.includes(`[${id}]`);
          }),
        ruleId,
        { timeout: 60_000, polling: 500 },
      );
      const playbook = readFileSync(join(fixture.workspace, '.combee', 'playbook.md'), 'utf8');
      if (!playbook.includes(`[${ruleId}]`))
        throw new Error('the retire proposal wrote the playbook before any accept');
    },
  ],
  [
    'learn → learn → accept → accept: one Combee block per file, CLAUDE.md imports it once, and no rule twice in the playbook',
    async ({ page, fixture, step }) => {
      step('learn from the sessions there are so far');
      await runCommand(page, 'Combee: Learn from Recent Sessions');
      await waitForDiffShowing(page, 'pnpm db:generate');
      await notification(page, /^Combee proposes \d+ file change/).waitFor({ timeout: 60_000 });
      const firstCount = await rulesToReview(page);
      await shot(page, '08-first-learn.png');
      step('a later session arrives; learn again while the first proposal is still pending');
      fixture.releaseHeldSessions();
      await clearNotifications(page);
      await runCommand(page, 'Combee: Learn from Recent Sessions');
      const replaced = notification(
        page,
        /It replaces proposal \S+: its undecided rules are in it, under the same ids/,
      );
      await replaced.waitFor({ timeout: 120_000 });
      const first = /** @type {RegExpExecArray} */ (/It replaces proposal (\S+):/.exec(await replaced.innerText()))[1];
      // the rules still pending are counted once, with the later session's rule beside them
      const secondCount = await rulesToReview(page, firstCount);
      if (secondCount <= firstCount)
        throw new Error(`${secondCount} rule(s) to review after the second learn, ${firstCount} after the first`);
      await shot(page, '09-second-learn.png');
      step('accept from the palette: the proposal now pending is written');
      await clearNotifications(page);
      await runCommand(page, 'Combee: Accept Proposal');
      await clickDialogButton(page, /^Write \d+ Files$/);
      const playbook = join(fixture.workspace, '.combee', 'playbook.md');
      await waitForFile(playbook, 'pnpm db:generate');
      // Claude Code gets AGENTS.md's rules by the import line, not a copy
      await waitForFile(join(fixture.workspace, 'CLAUDE.md'), '@AGENTS.md');
      await waitForFile(join(fixture.workspace, 'AGENTS.md'), '<!-- combee:end -->');
      step(`accept again, from the first proposal's diff still open: ${first} is refused, nothing is written`);
      const written = agentFiles(fixture.workspace).map((path) => [path, readFileSync(path, 'utf8')]);
      await clearNotifications(page);
      await runCommand(page, 'Combee: Accept Proposal');
      await notification(page, new RegExp(`^Combee: proposal ${first} was superseded by \\S+`)).waitFor({
        timeout: 30_000,
      });
      await shot(page, '10-accepted-twice.png');
      for (const [path, text] of written)
        if (readFileSync(path, 'utf8') !== text) throw new Error(`${path} changed on the refused accept`);
      for (const [path] of written) {
        const text = readFileSync(path, 'utf8');
        if (path.endsWith('CLAUDE.md')) {
          const imports = text.match(/^@AGENTS\.md$/gm) ?? [];
          if (imports.length !== 1 || text.includes('<!-- combee:'))
            throw new Error(`${path}: ${imports.length} @AGENTS.md lines, or a Combee block beside them\n${text}`);
          continue;
        }
        const begins = text.match(/<!-- combee:begin\b/g) ?? [];
        const ends = text.match(/<!-- combee:end\b/g) ?? [];
        if (begins.length !== 1 || ends.length !== 1)
          throw new Error(`${path}: ${begins.length} combee:begin and ${ends.length} combee:end markers\n${text}`);
      }
      const names = written.map(([path]) => path.slice(fixture.workspace.length + 1));
      for (const file of ['AGENTS.md', 'CLAUDE.md'])
        if (!names.includes(file)) throw new Error(`${file} was not written: ${names.join(', ')}`);
      const rules = [...readFileSync(playbook, 'utf8').matchAll(/^(?:[-*] )?\[([a-z]+-\d+)\][^\n]*?:: ([^\n]*)$/gm)];
      if (rules.length !== secondCount)
        throw new Error(`the playbook holds ${rules.length} rule(s); ${secondCount} were to review`);
      for (const [index, name] of [
        [1, 'id'],
        [2, 'text'],
      ]) {
        const seen = rules.map((r) => r[index].replace(/\s+/g, ' ').trim());
        const twice = seen.filter((v, i) => seen.indexOf(v) !== i);
        if (twice.length > 0) throw new Error(`the playbook holds a rule ${name} twice: ${twice.join('; ')}`);
      }
    },
    { holdBack: HELD_SESSION },
  ],
];

async function runTest(_name, body, index, options = {}) {
  const fixture = makeFixtureWorkspace();
  if (options.holdBack) holdBack(fixture, options.holdBack);
  const serverLog = [];
  let server,
    browser,
    page,
    timer,
    failed = false,
    current = 'start code-server';
  const step = (s) => {
    current = s;
  };
  try {
    server = await startCodeServer({
      workspace: fixture.workspace,
      userSettings: fixture.userSettings,
      restricted: options.restricted,
      log: (t) => serverLog.push(t),
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') serverLog.push(`[page error] ${m.text()}\n`);
    });
    await page.goto(
      workbenchUrl(server, fixture.workspace, [
        ['extensionDevelopmentPath', remoteUri(server, extensionPath)],
        ['skipWelcome', 'true'],
      ]),
    );
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${TEST_TIMEOUT_MS / 1000} s`)), TEST_TIMEOUT_MS);
    });
    step('wait for the workbench');
    const work = (async () => {
      await waitForWorkbench(page);
      await body({ page, fixture, server, step });
    })();
    work.catch(() => {}); // after a timeout it fails later, once the browser is closed
    await Promise.race([work, timeout]);
    fixture.cleanup();
    return undefined;
  } catch (error) {
    failed = true;
    if (page) await shot(page, `failure-${index + 1}.png`).catch(() => {});
    writeFileSync(join(ARTIFACTS, `code-server-${index + 1}.log`), serverLog.join(''));
    console.log(`     workspace kept at ${fixture.workspace}`);
    return new Error(`during "${current}": ${/** @type {Error} */ (error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
    await browser?.close().catch(() => {});
    await server?.stop(failed ? { saveLogsTo: join(ARTIFACTS, `server-logs-${index + 1}`) } : {}).catch(() => {});
  }
}

let failed = 0;
const started = Date.now();
for (const [index, [name, body, options]] of tests.entries()) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const t0 = Date.now();
  const error = await runTest(name, body, index, options);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (error) {
    failed++;
    console.log(`FAIL ${name} (${secs} s)\n     ${error.message.split('\n').slice(0, 8).join('\n     ')}`);
  } else console.log(`PASS ${name} (${secs} s)`);
}
console.log(
  `test/e2e: ${failed ? `${failed} failed` : 'all passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${ARTIFACTS}`,
);
process.exit(failed ? 1 : 0);
