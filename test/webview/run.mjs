// The webview bundle (dist/webview.js) in headless Chromium, hosted by a page with a stand-in `acquireVsCodeApi`:
// a real run's tree drawn with its edges, a node's content in the details pane, keyboard navigation, search, the
// saved state, and a run whose every text is an injection payload rendered as text with no script run.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { launchBrowser } from '../../testing/codeServer.mjs';
import { REPO_ROOT } from '../../testing/fixtureWorkspace.mjs';
import { contrast, seriousViolations } from './axe.mjs';
import { THEMES, themeHead } from './themes.mjs';

const require = createRequire(import.meta.url);
const ARTIFACTS = join(REPO_ROOT, '.test-artifacts', 'webview');
mkdirSync(ARTIFACTS, { recursive: true });
for (const [file, build] of [
  ['dist/webview.js', 'node esbuild.mjs'],
  ['out/test/support/exampleRun.js', 'node esbuild.mjs --tests'],
])
  if (!existsSync(join(REPO_ROOT, file))) {
    console.error(`test/webview: ${file} is missing; run \`${build}\` first`);
    process.exit(1);
  }
const { exampleRunRecord } = require(join(REPO_ROOT, 'out/test/support/exampleRun.js'));
const { overloadedRunRecord } = require(join(REPO_ROOT, 'out/test/support/overloadedRun.js'));
const { runView, runSummaryView, runMessageView, liveRunView } = require(
  join(REPO_ROOT, 'out/src/extension/webview/runView.js'),
);
const { searchNodes } = require(join(REPO_ROOT, 'out/src/extension/webview/nodeSearch.js'));
const { withReview } = require(join(REPO_ROOT, 'out/src/extension/webview/nodeDetail.js'));
const { rulePath } = require(join(REPO_ROOT, 'out/src/extension/webview/rulePath.js'));
const { sessionPath } = require(join(REPO_ROOT, 'out/src/extension/webview/sessionPath.js'));
const { ruleStandings } = require(join(REPO_ROOT, 'out/src/core/learn/rules/standings.js'));

const bundle = readFileSync(join(REPO_ROOT, 'dist', 'webview.js'), 'utf8');
const css = readFileSync(join(REPO_ROOT, 'media', 'webview.css'), 'utf8');
// the icon font as the panel loads it from dist/codicons, inlined: the page has no URL to load it from
const font = readFileSync(join(REPO_ROOT, 'dist', 'codicons', 'codicon.ttf')).toString('base64');
const icons = readFileSync(join(REPO_ROOT, 'dist', 'codicons', 'codicon.css'), 'utf8').replace(
  /url\("[^"]*codicon\.ttf[^"]*"\)/,
  `url("data:font/ttf;base64,${font}")`,
);
/** A window wide enough for the example run whole at a legible zoom (two lines to a label). */
const WIDE = { width: 2000, height: 1000 };
/** The window the review was tried in: the example run is wider than it at a legible zoom. */
const LAPTOP = { width: 1440, height: 900 };

/**
 * A page hosting the bundle as VS Code would; what it posts and saves is kept on `window`.
 * @param {any} browser
 * @param {string} [theme]
 * @param {Window['saved']} [saved] the state a previous panel kept
 * @param {{ width: number, height: number }} [viewport]
 */
async function openPanel(browser, theme = 'light', saved = undefined, viewport = WIDE) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setContent(
    `<!DOCTYPE html><html lang="en"><head><title>Combee</title>${themeHead(theme)}</head><body class="${THEMES[theme].bodyClass}"><div id="root"></div></body></html>`,
  );
  await page.addStyleTag({ content: icons });
  await page.addStyleTag({ content: css });
  // the extension's side of the requests: answered from the run last shown (see showRun), as panel.ts does
  await page.exposeFunction('answer', (message) => answer(page, message));
  await page.evaluate((state) => {
    window.posted = [];
    window.saved = state;
    window.acquireVsCodeApi = () => ({
      postMessage: (message) => {
        window.posted.push(message);
        void window.answer(message).then((reply) => reply && window.postMessage(reply, '*'));
      },
      getState: () => window.saved,
      setState: (state) => (window.saved = state),
    });
  }, saved);
  await page.addScriptTag({ content: bundle });
  return { page, errors };
}

const shown = new WeakMap();

function answer(page, message) {
  const { view: run, flaggedRules } = shown.get(page) ?? {};
  if (!run || message.runId !== run.id) return undefined;
  if (message.type === 'nodeDetail')
    return {
      type: 'nodeDetail',
      requestId: message.requestId,
      nodeId: message.nodeId,
      detail: withReview(run.nodes.find((n) => n.id === message.nodeId)?.detail, {
        states: new Map(),
        flaggedRules: new Map([...(flaggedRules ?? [])].map((id) => [id, ['remote-code']])),
      }),
    };
  if (message.type === 'search')
    return { type: 'searchResult', requestId: message.requestId, nodeIds: searchNodes(run, message.query) };
  return undefined;
}

async function showRun(page, record, focus, flaggedRules) {
  const view = runView(record, flaggedRules);
  shown.set(page, { view, flaggedRules });
  await page.evaluate(
    ([runs, selected, focus]) => window.postMessage({ type: 'runs', runs, selected, focus }, '*'),
    [[runSummaryView(record)], runMessageView(view), focus],
  );
  // drawn, though far out it is hidden behind the bitmap
  await page.locator('.node').first().waitFor({ state: 'attached' });
}

/** The helpfulness panel's message for rules with these counters, their standing computed by the core from `records`. */
function rulesMessage(records, rules, staleAfterRuns = 5) {
  const standings = ruleStandings(
    records,
    // counted on this machine as the rule's line says (confirmedCounters.ts)
    rules.map((r) => ({
      ...r,
      counters: {
        claimed: { helpful: r.helpful, harmful: r.harmful },
        confirmed: { helpful: r.helpful, harmful: r.harmful },
      },
      flagged: (r.flags ?? []).length > 0,
    })),
    staleAfterRuns,
  );
  return {
    type: 'rules',
    runs: records.length,
    staleAfterRuns,
    playbookPath: '.combee/playbook.md',
    rules: rules.map((r) => {
      const s = standings.get(r.id);
      return {
        section: 'Build and test',
        flags: [],
        ...r,
        history: s.history,
        chips: s.chips,
        runsWithoutEvidence: s.runsWithoutEvidence,
      };
    }),
  };
}

async function showRules(page, message) {
  await page.evaluate((m) => window.postMessage(m, '*'), message);
  await page.locator('li.rule').first().waitFor();
}

/** The view's zoom, read from the stage's transform. */
function scaleOf(page) {
  return page
    .locator('.stage')
    .evaluate((/** @type {HTMLElement} */ stage) => Number(/scale\(([\d.]+)\)/.exec(stage.style.transform)?.[1]));
}

/** A node's box on the page, and its middle. */
async function boxOf(page, id) {
  return page.locator(`.node[data-id="${id}"] .box`).evaluate((n) => {
    const r = n.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
}

/** Once the view rests: the labels drawn, each with its node's id and its rendered font size. */
async function restingLabels(page) {
  await page.waitForFunction(() => {
    const labels = /** @type {HTMLElement | null} */ (document.querySelector('.labels'));
    const stage = /** @type {HTMLElement} */ (document.querySelector('.stage'));
    const label = /** @type {HTMLElement | null | undefined} */ (labels?.querySelector('.label'));
    // built for the current zoom: its font follows the zoom, its height is the node's at this zoom
    const scale = Number(/scale\(([\d.]+)\)/.exec(stage.style.transform)?.[1]);
    return labels && !labels.hidden && label && Math.abs(parseFloat(label.style.height) - 30 * scale) < 0.5;
  });
  return page.locator('.labels .label').evaluateAll((labels) =>
    labels.map((l) => {
      const text = l.querySelector('.label-text');
      return {
        id: l.dataset.id,
        text: text.textContent,
        fontSize: parseFloat(getComputedStyle(text).fontSize),
        cut: text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1,
      };
    }),
  );
}

/**
 * Zoomed out with the − key until the whole run is in view, far out (Fit stops at a legible zoom, where a big run is
 * scrolled).
 */
async function wholeRunFarOut(page) {
  await page.locator('.graph').focus();
  const whole = () =>
    page.evaluate(() => {
      const canvas = /** @type {Element} */ (document.querySelector('.canvas'));
      const view = canvas.getBoundingClientRect();
      return (
        canvas.classList.contains('far') &&
        [...document.querySelectorAll('.node .box')].every((node) => {
          const r = node.getBoundingClientRect();
          return r.left >= view.left && r.right <= view.right && r.top >= view.top && r.bottom <= view.bottom;
        })
      );
    });
  for (let i = 0; i < 40 && !(await whole()); i++) await page.keyboard.press('-');
  assert.ok(await whole(), 'the whole run in view, far out');
}

/** `copies` copies of the example run, `perBatch` to a batch, recorded before layouts were kept. */
function copiesOf(record, copies, perBatch = 1) {
  const big = structuredClone(record);
  big.layout = undefined;
  big.nodes = Array.from({ length: copies }, (_, copy) =>
    record.nodes.map((n) => ({
      ...structuredClone(n),
      id: `c${copy}:${n.id}`,
      batch: n.batch + Math.floor(copy / perBatch) * 10,
      parents: n.parents.map((p) => `c${copy}:${p}`),
    })),
  ).flat();
  return big;
}

const HEADINGS = ['sessions', 'reflections', 'groups', 'local deltas', 'global', 'applied'];
const MIN_LABEL_FONT_PX = 11;

/** @type {[string, (browser: any, record: any) => Promise<void>][]} */
const tests = [
  [
    'a five-session run opens whole at a readable zoom: every node labelled in a legible font, its columns headed',
    async (browser, record) => {
      const { page, errors } = await openPanel(browser);
      await showRun(page, record);
      const labels = await restingLabels(page);
      assert.deepEqual(labels.map((l) => l.id).sort(), record.nodes.map((n) => n.id).sort(), 'every node labelled');
      for (const label of labels)
        assert.ok(label.fontSize >= MIN_LABEL_FONT_PX, `"${label.text}" at ${label.fontSize}px`);
      const graph = await page.locator('.canvas').boundingBox();
      for (const node of record.nodes) {
        const box = await boxOf(page, node.id);
        assert.ok(
          box.left >= graph.x && box.right <= graph.x + graph.width && box.bottom <= graph.y + graph.height,
          `${node.id} is in view`,
        );
      }
      assert.ok((await scaleOf(page)) >= 0.6, 'not shrunk past legibility');
      const headings = await page.locator('.column-heading').allTextContents();
      assert.deepEqual(headings, HEADINGS, 'a heading for each column, in order');
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'in a 1440×900 window the run opens on its newest column, labels wrap to two lines before they are cut, Fit keeps them legible',
    async (browser, record) => {
      const { page, errors } = await openPanel(browser, 'light', undefined, LAPTOP);
      await showRun(page, record);
      const graph = await page.locator('.canvas').boundingBox();
      const inView = async (id) => {
        const box = await boxOf(page, id);
        return box.left >= graph.x && box.right <= graph.x + graph.width;
      };
      const apply = record.nodes.filter((n) => n.kind === 'apply');
      const sessions = record.nodes.filter((n) => n.kind === 'trace');
      const check = async (when) => {
        const labels = await restingLabels(page);
        assert.ok((await scaleOf(page)) >= 0.9, `${when}: not shrunk past two lines a label`);
        for (const node of apply) assert.ok(await inView(node.id), `${when}: ${node.id} (applied) is in view`);
        assert.ok(
          !(await inView(sessions[0].id)),
          `${when}: the run is wider than the window: the rest is scrolled to`,
        );
        assert.ok((await page.locator('.column-heading').allTextContents()).includes('applied'), when);
        const shapes = await page.locator('.labels .label-text').evaluateAll((texts) =>
          texts.map((t) => ({
            text: t.textContent,
            lines: Math.round(t.clientHeight / parseFloat(getComputedStyle(t).lineHeight)),
            cut: t.scrollHeight > t.clientHeight + 1,
            fontSize: parseFloat(getComputedStyle(t).fontSize),
          })),
        );
        assert.equal(shapes.length, labels.length);
        assert.ok(
          shapes.some((s) => s.lines === 2),
          `${when}: a label longer than a line wraps: ${JSON.stringify(shapes)}`,
        );
        for (const shape of shapes) {
          assert.ok(shape.fontSize >= MIN_LABEL_FONT_PX, `${when}: "${shape.text}" at ${shape.fontSize}px`);
          if (shape.cut) assert.equal(shape.lines, 2, `${when}: "${shape.text}" is cut before its second line`);
        }
      };
      await check('as it opens');
      await page.screenshot({ path: join(ARTIFACTS, 'tree-open-1440x900.png') });
      // zoomed in, then Fit: back to a legible zoom, not to blank boxes
      await page.locator('.graph').focus();
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      await page.locator('button[aria-label="Fit the tree (never below a legible size)"]').click();
      await check('after Fit');
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'a 1,000-session run opens on its first batch at a readable zoom in every theme, the overview showing the rest',
    async (browser, record) => {
      const big = copiesOf(record, 200, 8);
      for (const theme of Object.keys(THEMES)) {
        const { page, errors } = await openPanel(browser, theme);
        await showRun(page, big);
        const labels = await restingLabels(page);
        assert.ok(labels.length > 20 && labels.length < big.nodes.length / 10, `${theme}: ${labels.length} labels`);
        for (const label of labels) {
          assert.ok(label.fontSize >= MIN_LABEL_FONT_PX, `${theme}: "${label.text}" at ${label.fontSize}px`);
          assert.ok(Number(label.id.split(':')[0].slice(1)) < 8, `${label.id} is of the first batch`);
        }
        assert.deepEqual(await page.locator('.column-heading').allTextContents(), HEADINGS);
        assert.equal(await page.locator('.canvas.far').count(), 0, 'drawn, not the far-out bitmap');
        await page.locator('.minimap canvas').waitFor();
        const frame = await page.locator('.minimap-frame').boundingBox();
        const map = await page.locator('.minimap canvas').boundingBox();
        assert.ok(frame.width * frame.height < (map.width * map.height) / 10, 'the overview outlines a small part');
        await page.mouse.move(1, 1);
        assert.deepEqual(await seriousViolations(page), [], `${theme}: the 1,000-session tree`);
        await page.screenshot({ path: join(ARTIFACTS, `tree-open-1000-${theme}.png`) });
        assert.deepEqual(errors, []);
        await page.close();
      }
    },
  ],
  [
    'the wheel zooms about the pointer by a steady step within limits; the keys about the selection; labels grow',
    async (browser, record) => {
      const { page, errors } = await openPanel(browser);
      await showRun(page, record);
      const session = record.nodes.find((n) => n.kind === 'trace' && n.label.length > 40);
      const before = await restingLabels(page);
      assert.ok(before.find((l) => l.id === session.id).cut, 'a long title is cut at the opening zoom');
      const at = await boxOf(page, session.id);
      await page.mouse.move(at.x, at.y);
      const opening = await scaleOf(page);
      // a notch is a notch, however big the device says it is
      await page.mouse.wheel(0, -100);
      await page.mouse.wheel(0, -1000);
      await page.mouse.wheel(0, -5);
      const zoomed = await scaleOf(page);
      assert.ok(Math.abs(zoomed / opening - 1.2 ** 3) < 0.01, `three notches: ×${zoomed / opening}`);
      const after = await boxOf(page, session.id);
      assert.ok(Math.abs(after.x - at.x) < 1 && Math.abs(after.y - at.y) < 1, 'the node stays under the pointer');
      for (let i = 0; i < 30; i++) await page.mouse.wheel(0, -100);
      assert.equal(await scaleOf(page), 3, 'zoom in stops at its limit');
      const near = await restingLabels(page);
      const label = near.find((l) => l.id === session.id);
      assert.ok(!label.cut && label.text === session.label, `the whole title shows zoomed in: "${label.text}"`);
      // keys and buttons zoom about the selected node
      await page.locator('.graph').focus();
      await page.keyboard.press('0');
      const reflection = record.nodes.find((n) => n.kind === 'reflection');
      await page.locator(`.node[data-id="${reflection.id}"]`).click();
      const selected = await boxOf(page, reflection.id);
      await page.keyboard.press('+');
      await page.locator('button[aria-label="Zoom in"]').click();
      const kept = await boxOf(page, reflection.id);
      assert.ok(Math.abs(kept.x - selected.x) < 1 && Math.abs(kept.y - selected.y) < 1, 'the selection stays put');
      await page.mouse.move(kept.x, kept.y);
      for (let i = 0; i < 60; i++) await page.mouse.wheel(0, 100);
      assert.equal(await scaleOf(page), 0.02, 'zoom out stops at its limit');
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'every theme legible: the tree at its opening zoom and the helpfulness panel, axe-clean in all four',
    async (browser, record) => {
      const message = rulesMessage(
        [record],
        [
          {
            id: 'build-00001',
            helpful: 7,
            harmful: 1,
            content: 'Run `pnpm db:generate` before `pnpm test`.',
            model: 'openai/gpt-4o-mini',
            promptVersion: '1',
          },
          { id: 'build-00002', helpful: 0, harmful: 4, content: 'Use **npm** for installs, never `yarn`.' },
          { id: 'build-00003', helpful: 2, harmful: 1, content: 'Keep *one* test per file.', pinned: true },
        ],
        1,
      );
      const reflection = record.nodes.find((n) => n.kind === 'reflection');
      for (const theme of Object.keys(THEMES)) {
        const { page, errors } = await openPanel(browser, theme);
        await showRun(page, record);
        const labels = await restingLabels(page);
        assert.equal(labels.length, record.nodes.length, `${theme}: every node labelled`);
        for (const label of labels) assert.ok(label.fontSize >= MIN_LABEL_FONT_PX, `${theme}: ${label.fontSize}px`);
        assert.deepEqual(await page.locator('.column-heading').allTextContents(), HEADINGS);
        // a node's outline stands out from the page (3:1, as WCAG asks of what must be seen to be used)
        const page_ = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const session = record.nodes.find((n) => n.kind === 'trace');
        const [stroke, fill] = await page
          .locator(`.node[data-id="${session.id}"] .box`)
          .evaluate((b) => [getComputedStyle(b).stroke, getComputedStyle(b).fill]);
        const outline = contrast(stroke, fill, page_);
        assert.ok(outline >= 3, `${theme}: a node's outline at ${outline.toFixed(2)}:1`);
        const label = await page
          .locator(`.labels .label[data-id="${session.id}"]`)
          .evaluate((l) => getComputedStyle(l).color);
        const text = contrast(label, fill, page_);
        assert.ok(text >= 4.5, `${theme}: a label at ${text.toFixed(2)}:1`);
        await page.locator(`.node[data-id="${reflection.id}"]`).click();
        await page.locator('.details .lessons').waitFor();
        await page.mouse.move(1, 1);
        assert.deepEqual(await seriousViolations(page), [], `${theme}: the tree`);
        await page.screenshot({ path: join(ARTIFACTS, `tree-open-${theme}.png`) });
        assert.deepEqual(errors, []);
        await page.close();

        const { page: rules, errors: rulesErrors } = await openPanel(browser, theme);
        await showRules(rules, message);
        // a code span reads on its own background (it was black on black in Dark High Contrast)
        for (const colours of await rules
          .locator('.rule-content code')
          .evaluateAll((codes) => codes.map((c) => [getComputedStyle(c).color, getComputedStyle(c).backgroundColor]))) {
          const ratio = contrast(colours[0], colours[1], page_);
          assert.ok(ratio >= 4.5, `${theme}: a code span at ${ratio.toFixed(2)}:1 (${colours})`);
        }
        assert.deepEqual(await seriousViolations(rules), [], `${theme}: the helpfulness panel`);
        await rules.screenshot({ path: join(ARTIFACTS, `helpfulness-${theme}.png`) });
        await rules.getByRole('combobox', { name: 'Group rules by' }).selectOption('model');
        await rules.locator('table.model-stages').waitFor();
        assert.deepEqual(await seriousViolations(rules), [], `${theme}: the helpfulness panel grouped by model`);
        await rules.screenshot({ path: join(ARTIFACTS, `helpfulness-by-model-${theme}.png`) });
        assert.deepEqual(rulesErrors, []);
        await rules.close();
      }
    },
  ],
  [
    'keyboard focus stays in the panel, a redraw keeps it on its control, and the tree toolbar keeps to one line',
    async (browser, record) => {
      const message = rulesMessage(
        [record],
        [
          { id: 'build-00001', helpful: 7, harmful: 1, content: 'Run `pnpm test`.' },
          { id: 'build-00002', helpful: 0, harmful: 4, content: 'Use npm.' },
        ],
        1,
      );
      const { page, errors } = await openPanel(browser);
      await showRules(page, message);
      const active = (on) =>
        on.evaluate(() => {
          const a = document.activeElement;
          return {
            inRoot: !!document.getElementById('root')?.contains(a),
            name: a?.getAttribute('aria-label') ?? a?.id,
          };
        });
      const retire = page.getByRole('button', { name: 'Retire rule build-00002…', exact: true });
      await retire.focus();
      await page.keyboard.press('Tab');
      assert.deepEqual(
        await active(page),
        { inRoot: true, name: 'Search rules' },
        'Tab from the last control: the first',
      );
      await page.keyboard.press('Shift+Tab');
      assert.deepEqual(await active(page), { inRoot: true, name: 'Retire rule build-00002…' }, 'and back');
      // the extension sends the rules again after an action: the focus stays on the same rule's button
      await page.getByRole('button', { name: 'Pin rule build-00001…', exact: true }).focus();
      await page.evaluate((m) => window.postMessage(m, '*'), message);
      await page.waitForFunction(() => document.activeElement !== document.body);
      assert.deepEqual(await active(page), { inRoot: true, name: 'Pin rule build-00001…' });
      await page.close();

      const { page: tree } = await openPanel(browser);
      await tree.setViewportSize({ width: 900, height: 700 });
      await showRun(tree, record);
      const search = tree.locator('input[type="search"]');
      await search.fill('no-node-holds-this-text');
      await tree.locator('.toolbar .meta').getByText('0 match(es)').waitFor();
      const rows = await tree
        .locator('.toolbar > *')
        .evaluateAll((items) =>
          items.map((item) => Math.round(item.getBoundingClientRect().top + item.getBoundingClientRect().height / 2)),
        );
      assert.ok(Math.max(...rows) - Math.min(...rows) <= 2, `the toolbar is one line: ${rows}`);
      const toolbar = await tree.locator('.toolbar').evaluate((t) => [t.scrollWidth, t.clientWidth]);
      assert.ok(toolbar[0] <= toolbar[1] + 1, `nothing cut off: ${toolbar}`);
      await tree.locator('button[aria-label="Zoom out"]').focus();
      await tree.keyboard.press('Tab');
      assert.equal((await active(tree)).inRoot, true, 'Tab from the tree’s last control stays in the panel');
      assert.deepEqual(errors, []);
      await tree.close();
    },
  ],
  [
    'the details pane is resized by its handle (dragged or with the arrow keys), within bounds, and kept after a reload',
    async (browser, record) => {
      const { page, errors } = await openPanel(browser);
      await showRun(page, record);
      const width = (on) => on.locator('.details').evaluate((d) => d.getBoundingClientRect().width);
      const before = await width(page);
      const handle = await page.locator('.splitter').boundingBox();
      await page.mouse.move(handle.x + 3, handle.y + 100);
      await page.mouse.down();
      await page.mouse.move(handle.x + 3 + 150, handle.y + 100, { steps: 5 });
      await page.mouse.up();
      assert.ok(Math.abs((await width(page)) - (before - 150)) <= 1, 'dragged right, the pane narrows');
      await page.locator('.splitter').focus();
      await page.keyboard.press('ArrowLeft');
      assert.ok(Math.abs((await width(page)) - (before - 126)) <= 1, '← widens it a step');
      for (let i = 0; i < 60; i++) await page.keyboard.press('ArrowLeft');
      const graph = await page.locator('.graph').evaluate((g) => g.getBoundingClientRect().width);
      assert.ok(graph >= 0.35 * 1400, `the graph keeps a usable width: ${graph}px`);
      const saved = await page.evaluate(() => window.saved);
      assert.equal(saved.detailsWidth, Math.round(await width(page)));
      // a panel squeezed by a transcript beside it: the details go under the graph, which keeps the whole width
      await page.setViewportSize({ width: 600, height: 900 });
      const squeezed = await page.locator('.graph').evaluate((g) => g.getBoundingClientRect().width);
      assert.ok(squeezed >= 540, `the graph keeps the panel's width: ${squeezed}px`);
      const { page: again } = await openPanel(browser, 'light', saved);
      await showRun(again, record);
      assert.equal(Math.round(await width(again)), saved.detailsWidth);
      assert.deepEqual(errors, []);
      await page.close();
      await again.close();
    },
  ],
  [
    'draws a real run with its edges and shows a node’s real content',
    async (browser, record) => {
      const { page, errors } = await openPanel(browser);
      assert.deepEqual(await page.evaluate(() => window.posted[0]), { type: 'ready' });
      await showRun(page, record);
      const view = runView(record);
      assert.equal(await page.locator('.node').count(), view.nodes.length);
      assert.ok(
        runMessageView(view).nodes.every((n) => n.detail === undefined),
        'contents are fetched, not sent',
      );
      const edges = view.nodes.reduce((n, node) => n + node.parents.length, 0);
      const drawn = await page.locator('path.edge:not(.lit)').getAttribute('d');
      assert.equal(drawn.match(/M/g).length, edges, 'one drawn edge per parent link');
      // a reflection's lessons, as text, with the session's title in the evidence
      const reflection = view.nodes.find((n) => n.kind === 'reflection' && n.detail?.lessons.length);
      await page.locator(`.node[data-id="${reflection.id}"]`).click();
      await page.locator('.details .lessons').waitFor();
      const text = await page.locator('.details').innerText();
      for (const lesson of reflection.detail.lessons) assert.ok(text.includes(lesson.content), text);
      const session = view.nodes.find((n) => n.id === reflection.parents[0]);
      assert.ok(text.includes(session.label), 'evidence names the session by its title');
      // the evidence opens the session at the cited step
      await page.locator('.details .lessons button.link').first().click();
      const lesson = reflection.detail.lessons[0];
      assert.deepEqual((await page.evaluate(() => window.posted)).at(-1), {
        type: 'openSession',
        traceId: lesson.evidence.traceId,
        step: lesson.evidence.steps[0],
        steps: lesson.evidence.steps,
      });
      // its lineage is lit: the session it came from and the applied node it led to
      assert.equal(await page.locator(`.node.lit[data-id="${session.id}"]`).count(), 1);
      assert.equal(await page.locator('.node.kind-apply.lit').count(), 1);
      assert.ok((await page.locator('path.edge.lit').getAttribute('d')).length > 0, 'and the edges between them');
      assert.equal((await page.evaluate(() => window.saved)).nodeId, reflection.id, 'the selection is saved');
      await page.screenshot({ path: join(ARTIFACTS, 'tree-light.png') });
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'moves along edges with the keyboard and finds nodes by text',
    async (browser, record) => {
      const { page } = await openPanel(browser);
      await showRun(page, record);
      const view = runView(record);
      await page.locator('.graph').focus();
      await page.keyboard.press('ArrowDown');
      const first = await page.locator('.node.selected').getAttribute('data-id');
      assert.equal(view.nodes.find((n) => n.id === first)?.kind, 'trace', 'the first node is a session');
      await page.keyboard.press('ArrowRight');
      const next = await page.locator('.node.selected').getAttribute('data-id');
      assert.deepEqual(view.nodes.find((n) => n.id === next)?.parents, [first], '→ goes to what it led to');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.locator('.node.selected').getAttribute('data-id'), first, '← goes back');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'details', 'Enter opens the details');
      assert.ok((await page.locator('[aria-live]').innerText()).length > 0, 'the selection is announced');
      await page.locator('input[type="search"]').fill('pnpm');
      await page.locator('.node.match').first().waitFor();
      const matches = await page.locator('.node.match').count();
      assert.ok(matches > 0, 'search finds nodes by their content');
      await page.locator('input[type="search"]').press('Enter');
      assert.equal(await page.locator('.node.selected.match').count(), 1, 'Enter jumps to the first match');
      await page.close();
    },
  ],
  [
    'comes back on the same run and node after a reload',
    async (browser, record) => {
      const { page } = await openPanel(browser);
      await showRun(page, record);
      const id = runView(record).nodes.find((n) => n.kind === 'local').id;
      await page.locator(`.node[data-id="${id}"]`).click();
      // a zoom is kept too, once the view has settled
      const before = (await page.evaluate(() => window.saved)).view.scale;
      await page.locator('.graph').focus();
      await page.keyboard.press('+');
      await page.waitForFunction(
        (scale) => /** @type {{ view: { scale: number } }} */ (window.saved).view.scale > scale,
        before,
      );
      const saved = await page.evaluate(() => window.saved);
      const { page: again } = await openPanel(browser, 'light', saved);
      assert.deepEqual((await again.evaluate(() => window.posted)).at(-1), { type: 'ready', runId: record.id });
      await showRun(again, record);
      await again.locator('.node.selected').waitFor();
      assert.equal(await again.locator('.node.selected').getAttribute('data-id'), id);
      assert.equal(
        await again.locator('.stage').evaluate((stage) => stage.style.transform),
        await page.locator('.stage').evaluate((stage) => stage.style.transform),
        'the same view',
      );
      await page.close();
      await again.close();
    },
  ],
  [
    'renders every text of a hostile run as text, and no script runs',
    async (browser, record) => {
      const payloads = [
        '<script>window.pwned = "script"</script>',
        '<img src=x onerror="window.pwned = \'img\'">',
        '<svg onload="window.pwned = \'svg\'"><circle r="9"/></svg>',
        '[click](javascript:window.pwned=1) <a href="javascript:window.pwned=2">link</a>',
        '<style>body { display: none }</style><iframe src="javascript:parent.pwned=3"></iframe>',
      ];
      const hostile = structuredClone(record);
      hostile.nodes.forEach((node, i) => {
        const payload = payloads[i % payloads.length];
        node.label = payload;
        if (node.kind === 'reflection' && node.detail?.lessons)
          for (const lesson of node.detail.lessons) lesson.content = payload;
        if (node.kind === 'apply' && Array.isArray(node.detail)) for (const op of node.detail) op.content = payload;
      });
      const { page, errors } = await openPanel(browser, 'dark');
      await showRun(page, hostile);
      for (const id of hostile.nodes.filter((n) => n.kind !== 'group').map((n) => n.id))
        await page.locator(`.node[data-id="${id}"]`).click();
      await page.waitForTimeout(200);
      assert.equal(await page.evaluate(() => window.pwned), undefined, 'no payload ran');
      assert.equal(await page.locator('#root script, #root img, #root iframe, #root style, #root a').count(), 0);
      const shown = await page.locator('.details').innerText();
      assert.ok(shown.includes('<script>') || shown.includes('<img'), `the payload is shown as text:\n${shown}`);
      const labels = await page.locator('.labels .label').allTextContents();
      assert.ok(labels.length > 0 && labels.some((l) => l.startsWith('<script>')), `labels as text: ${labels}`);
      assert.ok(await page.locator('body').isVisible());
      await page.screenshot({ path: join(ARTIFACTS, 'tree-dark-hostile.png') });
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'a followed rule lights the path from its sessions to the change that made it',
    async (browser, record) => {
      const apply = record.nodes.find((n) => n.kind === 'apply');
      const ruleId = apply.detail.find((a) => a.status === 'applied' && a.id).id;
      const focus = { ruleId, ...rulePath(record, ruleId) };
      const { page } = await openPanel(browser);
      await showRun(page, record, focus);
      await page.locator('.node.selected').waitFor();
      assert.equal(await page.locator('.node.selected').getAttribute('data-id'), apply.id);
      const lit = await page.locator('.node.lit').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id')));
      assert.deepEqual(lit.sort(), [...focus.nodeIds].sort(), 'exactly the path is lit');
      assert.ok((await page.locator('.following').innerText()).includes(`Following rule ${ruleId}`));
      await page.locator('.details').getByText(ruleId).first().waitFor();
      await page.screenshot({ path: join(ARTIFACTS, 'tree-rule-path.png') });
      await page.close();
    },
  ],
  [
    'a session followed from the Sessions view is selected, with what its run built on it lit',
    async (browser, record) => {
      const trace = record.nodes.find((n) => n.kind === 'trace');
      const sessionFocus = { title: trace.label, ...sessionPath(record, trace.detail.traceId) };
      const { page, errors } = await openPanel(browser);
      const view = runView(record);
      shown.set(page, { view });
      await page.evaluate(
        ([runs, selected, sessionFocus]) => window.postMessage({ type: 'runs', runs, selected, sessionFocus }, '*'),
        [[runSummaryView(record)], runMessageView(view), sessionFocus],
      );
      await page.locator('.node.selected').waitFor();
      assert.equal(await page.locator('.node.selected').getAttribute('data-id'), trace.id);
      const lit = await page.locator('.node.lit').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id')));
      assert.deepEqual(lit.sort(), [...sessionFocus.nodeIds].sort(), 'exactly what the run built on it is lit');
      assert.ok((await page.locator('.following').innerText()).includes(`Following session ${trace.label}`));
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'the helpfulness panel: stage chips, counts and trend; filter, sort and search, kept after a reload; the actions',
    async (browser, record) => {
      const applied = record.nodes.find((n) => n.kind === 'apply').detail.find((a) => a.status === 'applied' && a.id);
      const message = rulesMessage(
        [record],
        [
          { id: 'build-00001', helpful: 7, harmful: 1, content: 'Run `pnpm db:generate` before `pnpm test`.' },
          { id: 'build-00002', helpful: 0, harmful: 4, content: 'Use **npm** for installs.' },
          { id: 'build-00003', helpful: 2, harmful: 1, content: 'Keep *one* test per file.', pinned: true },
          { id: applied.id, helpful: 0, harmful: 0, content: 'A rule this run just made.' },
          {
            id: 'build-00005',
            helpful: 0,
            harmful: 0,
            content: 'Fetch the setup from https://example.test/x.sh',
            flags: [{ kind: 'remote-code', reason: 'runs a script fetched from the network' }],
          },
        ],
        1,
      );
      const { page, errors } = await openPanel(browser, 'light');
      await showRules(page, message);
      const chipsOf = (id) =>
        page.locator(`li.rule[data-rule-id="${id}"] .rule-head .chip`).evaluateAll((c) => c.map((x) => x.textContent));
      assert.deepEqual(await chipsOf('build-00001'), ['proven', 'stale']);
      assert.deepEqual(await chipsOf('build-00002'), ['harmful', 'stale']);
      assert.deepEqual(await chipsOf('build-00003'), ['contested', 'stale', 'pinned']);
      assert.deepEqual(await chipsOf(applied.id), ['new'], 'the run that made it is its evidence: not stale');
      assert.deepEqual(await chipsOf('build-00005'), ['new', 'stale', 'flagged']);
      // a pinned rule offers to unpin
      await page
        .locator('li.rule[data-rule-id="build-00003"]')
        .getByRole('button', { name: 'Unpin rule build-00003…', exact: true })
        .click();
      assert.deepEqual((await page.evaluate(() => window.posted)).at(-1), { type: 'unpinRule', ruleId: 'build-00003' });
      // the default order: most helpful overall first
      const order = () => page.locator('li.rule').evaluateAll((r) => r.map((x) => x.dataset.ruleId));
      assert.equal((await order())[0], 'build-00001');
      assert.equal((await order()).at(-1), 'build-00002');
      // Markdown as text: code and emphasis styled, nothing else
      assert.equal(await page.locator('li.rule[data-rule-id="build-00001"] .rule-content code').count(), 2);
      assert.equal(await page.locator('li.rule[data-rule-id="build-00002"] .rule-content strong').innerText(), 'npm');
      // a rule with no evidence says how it will get some; a flagged one says why
      const fresh = await page.locator(`li.rule[data-rule-id="${applied.id}"]`).innerText();
      assert.match(
        fresh,
        new RegExp(`No evidence yet: it is counted when a session had it in play .* cites \\[${applied.id}\\]`),
      );
      assert.match(await page.locator('li.rule[data-rule-id="build-00005"]').innerText(), /remote-code: runs a script/);
      // filter by chip, sort, search; all kept in the saved state
      await page.getByRole('button', { name: /^harmful 1$/ }).click();
      assert.deepEqual(await order(), ['build-00002']);
      await page.getByRole('button', { name: /^contested 1$/ }).click();
      assert.deepEqual((await order()).sort(), ['build-00002', 'build-00003']);
      await page.getByRole('button', { name: /^harmful 1$/ }).click();
      await page.getByRole('button', { name: /^contested 1$/ }).click();
      await page.getByRole('combobox', { name: 'Sort rules' }).selectOption('harmful');
      assert.equal((await order())[0], 'build-00002');
      await page.getByRole('searchbox', { name: 'Search rules' }).fill('db:generate');
      assert.deepEqual(await order(), ['build-00001']);
      assert.equal(await page.locator('[aria-live]').innerText(), 'Showing 1 of 5 rule(s).');
      const saved = await page.evaluate(() => window.saved);
      assert.deepEqual(saved, { ruleQuery: 'db:generate', ruleSort: 'harmful', ruleChips: [] });
      // the actions post typed messages; the extension checks the id against the playbook
      const card = page.locator('li.rule[data-rule-id="build-00001"]');
      await card.locator('.rule-id').click();
      await card.getByRole('button', { name: 'Where it came from, rule build-00001', exact: true }).click();
      await card.getByRole('button', { name: 'Pin rule build-00001…', exact: true }).click();
      await card.getByRole('button', { name: 'Retire rule build-00001…', exact: true }).click();
      assert.deepEqual((await page.evaluate(() => window.posted)).slice(-4), [
        { type: 'openRule', ruleId: 'build-00001' },
        { type: 'ruleInTree', ruleId: 'build-00001' },
        { type: 'pinRule', ruleId: 'build-00001' },
        { type: 'retireRule', ruleId: 'build-00001' },
      ]);
      const { page: again } = await openPanel(browser, 'light', saved);
      await showRules(again, message);
      assert.equal(await again.getByRole('searchbox', { name: 'Search rules' }).inputValue(), 'db:generate');
      assert.deepEqual(await again.locator('li.rule').evaluateAll((r) => r.map((x) => x.dataset.ruleId)), [
        'build-00001',
      ]);
      await again.close();
      await page.getByRole('searchbox', { name: 'Search rules' }).fill('');
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'the helpfulness panel groups its rules by the model that wrote them, with their stages per model',
    async (browser, record) => {
      const byMini = { model: 'openai/gpt-4o-mini', promptVersion: '1' };
      const message = rulesMessage(
        [record],
        [
          { id: 'build-00001', helpful: 7, harmful: 1, content: 'Run the codegen first.', ...byMini },
          {
            id: 'build-00002',
            helpful: 0,
            harmful: 4,
            content: 'Use npm for installs.',
            ...byMini,
            changedBy: 'offline/combee-offline-miner',
          },
          { id: 'build-00003', helpful: 0, harmful: 0, content: 'Keep one test per file.' },
        ],
        1,
      );
      const { page, errors } = await openPanel(browser, 'light');
      await showRules(page, message);
      assert.equal(await page.locator('table.model-stages').count(), 0, 'not grouped until asked');
      assert.equal(await page.locator('li.rule[data-rule-id="build-00003"] .rule-model').innerText(), 'by unknown');
      assert.match(
        await page.locator('li.rule[data-rule-id="build-00002"] .rule-model').getAttribute('title'),
        /^Written by openai\/gpt-4o-mini \(prompt 1\); last changed by offline\/combee-offline-miner\./,
      );
      await page.getByRole('combobox', { name: 'Group rules by' }).selectOption('model');
      const table = () =>
        page
          .locator('table.model-stages tbody tr')
          .evaluateAll((rows) => rows.map((tr) => [...tr.children].map((cell) => cell.textContent)));
      const groups = () =>
        page
          .locator('.model-group')
          .evaluateAll((parts) =>
            parts.map((part) => [
              part.querySelector('h3')?.textContent,
              [...part.querySelectorAll('li.rule')].map((li) => li.dataset.ruleId),
            ]),
          );
      // columns: model, new, proven, contested, harmful, total
      assert.deepEqual(await table(), [
        ['openai/gpt-4o-mini', '0', '1', '0', '1', '2'],
        ['unknown', '1', '0', '0', '0', '1'],
      ]);
      assert.deepEqual(await groups(), [
        ['openai/gpt-4o-mini: 2 rule(s)', ['build-00001', 'build-00002']],
        ['unknown: 1 rule(s)', ['build-00003']],
      ]);
      // the table counts the rules shown: a chip filter narrows it
      await page.getByRole('button', { name: /^harmful 1$/ }).click();
      assert.deepEqual(await table(), [['openai/gpt-4o-mini', '0', '0', '0', '1', '1']]);
      await page.getByRole('button', { name: /^harmful 1$/ }).click();
      const saved = await page.evaluate(() => window.saved);
      assert.equal(saved.ruleGroup, 'model');
      const { page: again } = await openPanel(browser, 'light', saved);
      await showRules(again, message);
      assert.equal(await again.getByRole('combobox', { name: 'Group rules by' }).inputValue(), 'model');
      assert.equal(await again.locator('.model-group').count(), 2, 'grouped again after a reload');
      await again.close();
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'renders hostile rule text as text in the helpfulness panel, and no script runs',
    async (browser, record) => {
      const payloads = [
        '<script>window.pwned = "script"</script>',
        '<img src=x onerror="window.pwned = \'img\'">',
        '[click](javascript:window.pwned=1) and `<b onmouseover="window.pwned=2">x</b>`',
        '**<svg onload="window.pwned=3">** *<iframe src="javascript:parent.pwned=4">*',
      ];
      const message = rulesMessage(
        [record],
        payloads.map((content, i) => ({ id: `x-0000${i}`, helpful: i, harmful: 0, content, section: content })),
      );
      const { page, errors } = await openPanel(browser, 'dark');
      await showRules(page, message);
      await page.locator('li.rule').first().hover();
      await page.waitForTimeout(200);
      assert.equal(await page.evaluate(() => window.pwned), undefined, 'no payload ran');
      assert.equal(
        await page.locator('#root script, #root img, #root iframe, #root svg:not(.spark), #root a, #root b').count(),
        0,
      );
      const text = await page.locator('.rule-list').innerText();
      assert.ok(text.includes('<script>') && text.includes('(javascript:window.pwned=1)'), text);
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'a large run without a stored layout is laid out in the page, with an overview that moves the view',
    async (browser, record) => {
      // four copies of the example run as four batches, recorded before layouts were kept
      const big = structuredClone(record);
      big.layout = undefined;
      big.nodes = [0, 1, 2, 3].flatMap((copy) =>
        record.nodes.map((n) => ({
          ...structuredClone(n),
          id: `c${copy}:${n.id}`,
          batch: n.batch + copy * 10,
          parents: n.parents.map((p) => `c${copy}:${p}`),
        })),
      );
      const { page, errors } = await openPanel(browser);
      await showRun(page, big);
      assert.equal(await page.locator('.node').count(), big.nodes.length);
      await page.locator('.minimap canvas').waitFor();
      const frame = await page.locator('.minimap-frame').boundingBox();
      assert.ok(frame && frame.width > 0 && frame.height > 0, 'the visible part is outlined');
      const before = await page.locator('.stage').evaluate((stage) => stage.style.transform);
      await page.locator('.graph').focus();
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      const box = await page.locator('.minimap canvas').boundingBox();
      await page.mouse.click(box.x + box.width - 4, box.y + box.height - 4);
      const after = await page.locator('.stage').evaluate((stage) => stage.style.transform);
      assert.notEqual(after, before, 'a click on the overview moves the view');
      await page.screenshot({ path: join(ARTIFACTS, 'tree-overview.png') });
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'a node’s outline says what its call went through (sent again, hedged) and an apply node its flagged rules',
    async (browser, record) => {
      const marked = structuredClone(record);
      const reflections = marked.nodes.filter((n) => n.kind === 'reflection');
      reflections[0].retries = 2;
      reflections[1].hedges = 1;
      for (const [i, n] of reflections.entries()) n.latencyMs = 100 * (i + 1);
      const apply = marked.nodes.find((n) => n.kind === 'apply');
      const flaggedId = apply.detail.find((a) => a.status === 'applied' && a.id).id;
      const { page, errors } = await openPanel(browser, 'dark');
      await showRun(page, marked, undefined, new Set([flaggedId]));
      assert.deepEqual(await page.locator('.node.mark-retried').evaluateAll((n) => n.map((x) => x.dataset.id)), [
        reflections[0].id,
      ]);
      assert.equal(await page.locator(`.node.mark-hedged[data-id="${reflections[1].id}"]`).count(), 1);
      assert.equal(await page.locator(`.node.mark-flagged[data-id="${apply.id}"]`).count(), 1);
      const timed = marked.nodes.filter((n) => n.latencyMs > 0).length;
      assert.equal(await page.locator('.node .latency').count(), timed, 'a latency bar per timed call');
      const barOf = (id) => page.locator(`.node[data-id="${id}"] .latency`).getAttribute('width').then(Number);
      assert.ok((await barOf(reflections.at(-1).id)) > (await barOf(reflections[0].id)), 'a slower call, a longer bar');
      assert.match(await page.locator('.legend').innerText(), /sent again.*hedged.*holds flagged rules/s);
      await page.locator(`.node[data-id="${reflections[0].id}"]`).hover();
      assert.match(await page.locator('.tooltip').innerText(), /sent again 2×/);
      await page.locator(`.node[data-id="${apply.id}"]`).click();
      await page
        .locator('.details')
        .getByText(/held back \(remote-code\)/)
        .waitFor();
      await page.screenshot({ path: join(ARTIFACTS, 'tree-marks-dark.png') });
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'a call that dropped items is outlined, says how many on hover, and lists them and its rejected items in its details',
    async (browser) => {
      const record = await overloadedRunRecord();
      const calls = record.nodes.filter((n) => n.items);
      const call = calls.find((n) => n.items.overloaded && n.items.rejected > 0);
      const redo = calls.find((n) => n.items.redoOf === call.id);
      const carrying = calls.find((n) => n.items.carried);
      assert.ok(call && redo && carrying, 'the run overloaded, redid, and carried an item in code');
      // a dropped item's text is the model's input: shown as text, never run (the high-contrast pass shows one)
      const hostile = structuredClone(record);
      const payload = '<img src=x onerror="window.pwned = \'dropped\'">';
      hostile.nodes.find((n) => n.id === call.id).items.droppedItems[0].text = payload;
      for (const theme of ['light', 'dark', 'high-contrast']) {
        const { page, errors } = await openPanel(browser, theme);
        await showRun(page, theme === 'high-contrast' ? hostile : record);
        await wholeRunFarOut(page);
        const marked = (mark) => page.locator(`.node.mark-${mark}`).evaluateAll((n) => n.map((x) => x.dataset.id));
        assert.deepEqual(
          (await marked('dropped')).sort(),
          calls
            .filter((n) => n.items.dropped > 0)
            .map((n) => n.id)
            .sort(),
        );
        assert.deepEqual(
          (await marked('redo')).sort(),
          calls
            .filter((n) => n.items.redoOf)
            .map((n) => n.id)
            .sort(),
        );
        // the outline is drawn in the theme's colour, unlike an unmarked call's
        const stroke = (id) =>
          page.locator(`.node[data-id="${id}"] .box`).evaluate((box) => getComputedStyle(box).stroke);
        const plain = calls.find((n) => n.items.dropped === 0 && !n.items.redoOf);
        assert.notEqual(await stroke(call.id), await stroke(plain.id));
        assert.notEqual(await stroke(redo.id), await stroke(plain.id));
        assert.notEqual(await stroke(redo.id), await stroke(call.id));
        assert.match(await page.locator('.legend').innerText(), /dropped items.*sends dropped items again/s);
        assert.match(
          await page.locator('.run-drops').innerText(),
          /^\d+ aggregation call\(s\) dropped \d+ item\(s\) without a reason: .*1 from several sessions carried in code$/,
        );
        // the run is shown whole, far out, where the pointer finds a node by where it is drawn
        const centre = (id) =>
          page.locator(`.node[data-id="${id}"]`).evaluate((n) => {
            const r = n.getBoundingClientRect();
            return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
          });
        const { x, y } = await centre(call.id);
        await page.mouse.move(x, y);
        assert.match(
          await page.locator('.tooltip').innerText(),
          new RegExp(`dropped ${call.items.dropped} of ${call.items.in} \\(sent again in 1 smaller call\\)`),
        );
        await page.mouse.click(x, y);
        await page.locator('.details .dropped-items').waitFor();
        const tally = await page.locator('.details .items-tally').innerText();
        assert.equal(
          tally,
          `${call.items.in} item(s) given: ${call.items.kept} kept, ${call.items.merged} merged, ${call.items.rejected} rejected with a reason, ${call.items.dropped} dropped (sent again in 1 smaller call)`,
        );
        const dropped = await page.locator('.details .dropped-items > li').allInnerTexts();
        assert.equal(dropped.length, call.items.dropped);
        for (const [i, item] of call.items.droppedItems.entries()) {
          const text = theme === 'high-contrast' && i === 0 ? payload : item.text;
          assert.ok(dropped[i].includes(item.label) && dropped[i].includes(text), dropped[i]);
          assert.ok(dropped[i].includes(`${item.sessions} session(s)`), dropped[i]);
        }
        const rejected = await page.locator('.details .rejected-items > li').allInnerTexts();
        assert.equal(rejected.length, call.items.rejected);
        for (const text of rejected) assert.ok(text.includes('reason: the playbook already says it'), text);
        assert.equal(await page.evaluate(() => window.pwned), undefined, 'no payload ran');
        assert.equal(await page.locator('#root img').count(), 0);
        if (theme === 'dark') {
          await page.mouse.move(1, 1);
          await page.screenshot({ path: join(ARTIFACTS, 'tree-dropped-dark.png') });
        }
        const redoAt = await centre(carrying.id);
        await page.mouse.click(redoAt.x, redoAt.y);
        await page.locator('.details .redo-of').waitFor();
        const of = record.nodes.find((n) => n.id === carrying.items.redoOf);
        assert.equal(
          await page.locator('.details .redo-of').innerText(),
          `Sends again what ${of.label.split(':')[0]} dropped.`,
        );
        assert.match(
          await page.locator('.details .items-tally').innerText(),
          new RegExp(`${carrying.items.dropped} dropped \\(carried ${carrying.items.carried} in code\\)$`),
        );
        await page.screenshot({ path: join(ARTIFACTS, `tree-redo-${theme}.png`) });
        assert.deepEqual(errors, []);
        await page.close();
      }
    },
  ],
  [
    'far out the whole run is one bitmap that takes clicks; zoomed in and at rest, the drawing and the labels in view',
    async (browser, record) => {
      const big = structuredClone(record);
      big.layout = undefined;
      big.nodes = Array.from({ length: 12 }, (_, copy) =>
        record.nodes.map((n) => ({
          ...structuredClone(n),
          id: `c${copy}:${n.id}`,
          label: `copy ${copy} ${n.label}`,
          batch: n.batch + copy * 10,
          parents: n.parents.map((p) => `c${copy}:${p}`),
        })),
      ).flat();
      const { page, errors } = await openPanel(browser, 'dark');
      await showRun(page, big);
      // it opens on its first batch, legible; zoomed out, the whole run
      await wholeRunFarOut(page);
      assert.ok(await page.locator('.far-drawing').isVisible(), 'the bitmap is shown');
      assert.equal(await page.locator('.drawing').evaluate((d) => getComputedStyle(d).visibility), 'hidden');
      assert.equal(await page.locator('.labels .label').count(), 0, 'no labels too small to read');
      const bitmap = () => page.locator('.far-drawing').evaluate((c) => c.toDataURL());
      const before = await bitmap();
      // a click on the bitmap where a node is selects that node
      const apply = big.nodes.find((n) => n.kind === 'apply' && n.id.startsWith('c5:'));
      const box = await page.locator(`.node[data-id="${apply.id}"]`).evaluate((n) => {
        const r = n.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      });
      await page.mouse.click(box.x, box.y);
      assert.equal(await page.locator('.node.selected').getAttribute('data-id'), apply.id);
      assert.notEqual(await bitmap(), before, 'the bitmap shows the selection');
      // zoomed in past the threshold, once the view rests: the drawing again, and labels for the nodes in view only
      await page.locator('.graph').focus();
      for (let i = 0; i < 12; i++) await page.keyboard.press('+');
      await page.waitForFunction(() => {
        const canvas = /** @type {Element} */ (document.querySelector('.canvas'));
        return !canvas.classList.contains('far');
      });
      await page.locator('.labels .label').first().waitFor();
      const labels = await page.locator('.labels .label').allTextContents();
      assert.ok(labels.length < big.nodes.length, `${labels.length} labels of ${big.nodes.length} nodes`);
      const names = big.nodes.map((n) => n.label);
      for (const label of labels)
        assert.ok(
          names.some((name) => name === label || name.startsWith(label.slice(0, -1))),
          `"${label}" is a node's label`,
        );
      assert.ok(await page.locator(`.node[data-id="${apply.id}"]`).isVisible(), 'the drawing is shown again');
      await page.screenshot({ path: join(ARTIFACTS, 'tree-near-labels.png') });
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
  [
    'a run in progress is drawn as far as it got, and grows when more of it arrives',
    async (browser, record) => {
      const snapshot = (count) => ({
        workspace: record.workspace,
        startedAt: record.startedAt,
        provider: record.provider,
        model: record.model,
        strategy: record.strategy,
        seed: record.seed,
        duplication: record.duplication,
        traces: record.totals.traces,
        calls: count,
        costUsd: 0,
        nodes: record.nodes.slice(0, count).map(({ detail: _detail, ...n }) => n),
      });
      const { page, errors } = await openPanel(browser);
      const post = (live) =>
        page.evaluate((view) => window.postMessage({ type: 'runs', runs: [view], selected: view }, '*'), live);
      const half = Math.ceil(record.nodes.length / 2);
      await post(runMessageView(liveRunView(snapshot(half))));
      await page.locator('.node').first().waitFor();
      assert.equal(await page.locator('.node').count(), half);
      assert.match(await page.locator('select').innerText(), /in progress/);
      const posted = (await page.evaluate(() => window.posted)).length;
      await page.locator('.node').first().click();
      await page
        .locator('.details')
        .getByText(/The run is still going/)
        .waitFor();
      assert.equal((await page.evaluate(() => window.posted)).length, posted, 'nothing to ask for yet');
      // updates coming faster than the panel draws: the newest is drawn, and the recorded run replaces them all
      await post(runMessageView(liveRunView(snapshot(half + 1))));
      await post(runMessageView(liveRunView(snapshot(record.nodes.length))));
      await page.waitForFunction((n) => document.querySelectorAll('.node').length === n, record.nodes.length);
      await post(runMessageView(liveRunView(snapshot(half + 2))));
      await showRun(page, record);
      await page.waitForTimeout(500);
      assert.doesNotMatch(await page.locator('select').innerText(), /in progress/, 'no older update drawn after it');
      assert.equal(await page.locator('.node').count(), record.nodes.length);
      assert.deepEqual(errors, []);
      await page.close();
    },
  ],
];

/** `node test/webview/run.mjs <name part>…` runs only the tests whose name contains one of them. */
const only = process.argv.slice(2);
const record = await exampleRunRecord();
const browser = await launchBrowser();
let failed = 0;
try {
  for (const [name, test] of tests) {
    if (only.length && !only.some((o) => name.includes(o))) continue;
    try {
      await test(browser, record);
      console.log(`  ✔ ${name}`);
    } catch (error) {
      failed++;
      console.log(`  ✘ ${name}\n${/** @type {Error} */ (error).stack ?? error}`);
    }
  }
} finally {
  await browser.close();
}
console.log(`${tests.length - failed} passing, ${failed} failing (screenshots in ${ARTIFACTS})`);
process.exit(failed ? 1 : 0);
