#!/usr/bin/env node
// The aggregation tree's webview on big runs, in headless Chromium: the time from the run arriving to the tree laid
// out and painted, and the frame times while zooming and panning. The runs are real run records: 1,000 simulated
// sessions learned through the real client, prompts and scan against the loopback simulation (latencies off).
// Usage: node esbuild.mjs && node esbuild.mjs --tests && node bench/webview-render.mjs [--runs n]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../testing/codeServer.mjs';
import { REPO_ROOT } from '../testing/fixtureWorkspace.mjs';

const require = createRequire(import.meta.url);
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const out = (path) => require(join(REPO_ROOT, 'out', path));
const { startModelServer } = out('testing/modelServer.js');
const { instantResponder } = out('bench/learn/simulation.js');
const { learnSimulated } = out('bench/learn/simulatedRun.js');
const { learningCorpus, plantedLessons } = out('bench/learn/corpus.js');
const { runView, runSummaryView, runMessageView } = out('src/extension/webview/runView.js');

const bundle = readFileSync(join(REPO_ROOT, 'dist', 'webview.js'), 'utf8');
const css = readFileSync(join(REPO_ROOT, 'media', 'webview.css'), 'utf8');
const ARTIFACTS = join(REPO_ROOT, 'bench', 'results');

async function record(sessions, batch) {
  const server = await startModelServer({ responder: instantResponder, concurrencyCap: 64 });
  try {
    const traces = learningCorpus(sessions, plantedLessons(sessions / 2), 2, 5);
    return (await learnSimulated(server.url, traces, { batchSize: batch, seed: 5 })).record;
  } finally {
    await server.close();
  }
}

/**
 * Milliseconds `timed` (a statement given `nodes` and the layout module's exports) takes in a fresh process, as in a
 * fresh worker: the median of 3. `setup` runs before the clock starts.
 */
function inFreshProcess(run, setup, timed) {
  const dir = mkdtempSync(join(tmpdir(), 'combee-layout-'));
  try {
    const nodes = join(dir, 'nodes.json');
    writeFileSync(nodes, JSON.stringify(run.nodes));
    const script = `const { layoutRun, storeLayout, BatchLayoutCache } = require(${JSON.stringify(join(REPO_ROOT, 'out/src/core/learn/record/layout.js'))});
const nodes = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(nodes)}, 'utf8'));
${setup}
const t = performance.now(); ${timed}; console.log(performance.now() - t);`;
    const times = [0, 1, 2].map(() => Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })));
    return times.sort((a, b) => a - b)[1];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the learner pays, once per run, to lay the tree out. */
const learnerLayoutMs = (run) => inFreshProcess(run, '', 'storeLayout(layoutRun(nodes), nodes)');

/**
 * What the panel pays to lay out a run in progress again when an update adds one node to its last batch, with the
 * batch layouts kept from the update before.
 */
const liveUpdateLayoutMs = (run) =>
  inFreshProcess(
    run,
    'const cache = new BatchLayoutCache(); layoutRun(nodes.slice(0, -5), cache);',
    'layoutRun(nodes.slice(0, -4), cache)',
  );

async function measure(browser, run, shot) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.setContent('<!DOCTYPE html><html><body><div id="root"></div></body></html>');
  await page.addStyleTag({ content: css });
  await page.evaluate(() => {
    window.acquireVsCodeApi = () => ({ postMessage() {}, getState() {}, setState() {} });
    window.addEventListener('message', () => (window.receivedAt ??= performance.now()));
  });
  await page.addScriptTag({ content: bundle });
  // from the message to the second animation frame after it: laid out, drawn and painted
  const firstRenderMs = await page.evaluate(
    ([runs, selected]) =>
      new Promise((resolve) => {
        const start = performance.now();
        window.startedAt = start;
        window.postMessage({ type: 'runs', runs, selected }, '*');
        const done = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
        const wait = () => (document.querySelector('.node') ? done() : setTimeout(wait, 0));
        wait();
      }),
    [[runSummaryView(run)], runMessageView(runView(run))],
  );
  const timings = await page.evaluate(() => ({
    ...Object.fromEntries(performance.getEntriesByType('measure').map((m) => [m.name, m.duration])),
    delivery: window.receivedAt - window.startedAt,
    beforeLayout: performance.getEntriesByName('combee:layout')[0].startTime - window.startedAt,
  }));
  const nodes = await page.locator('.node').count();
  const edges = ((await page.locator('path.edge:not(.lit)').getAttribute('d')).match(/M/g) ?? []).length;
  // far out (the whole run in view, fitted with 0: 16 notches in, 18×, and out) and from 100 % (6 notches in, to the
  // 300 % limit, and out), then 60 frames of panning each
  await page.locator('.graph').focus();
  await page.keyboard.press('0');
  const far = await gestureFrames(page, 16, 0);
  if (shot) await page.screenshot({ path: join(ARTIFACTS, shot) });
  const scale = await page.evaluate(() =>
    Number(
      /** @type {RegExpExecArray} */ (
        /scale\(([\d.]+)\)/.exec(/** @type {HTMLElement} */ (document.querySelector('.stage')).style.transform)
      )[1],
    ),
  );
  const near = await gestureFrames(page, 6, scale);
  await page.close();
  return {
    nodes,
    edges,
    firstRenderMs,
    deliveryMs: timings.delivery,
    layoutMs: timings['combee:layout'],
    drawMs: timings['combee:layout+draw'] - timings['combee:layout'],
    farMedianMs: percentile(far.gaps, 0.5),
    farP95Ms: percentile(far.gaps, 0.95),
    nearMedianMs: percentile(near.gaps, 0.5),
    nearP95Ms: percentile(near.gaps, 0.95),
    restMs: near.restMs,
  };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * p)];
}

/**
 * The gaps between animation frames while the wheel zooms in and out (one notch a frame, `notches` each way; a notch
 * is a steady 1.2×) and a drag pans: what the user sees. Given the current `scale`, the view first zooms to about
 * 100 % at once (as many notches as that takes, in one task) and rests.
 */
async function gestureFrames(page, notches, scale) {
  // the longest frame while the view rests after that jump: labels made, the drawing shown again and rastered
  const restMs = scale
    ? await page.evaluate(
        (scale) =>
          new Promise((resolve) => {
            const canvas = /** @type {HTMLElement} */ (document.querySelector('.canvas'));
            const box = canvas.getBoundingClientRect();
            const steps = Math.round(Math.log(1 / scale) / Math.log(1.2));
            const gaps = [];
            let last = performance.now();
            const frame = (now) => {
              gaps.push(now - last);
              last = now;
              if (gaps.length < 40) requestAnimationFrame(frame);
              else resolve(Math.max(...gaps.slice(2)));
            };
            requestAnimationFrame(frame);
            for (let i = 0; i < Math.abs(steps); i++)
              canvas.dispatchEvent(
                new WheelEvent('wheel', {
                  deltaY: steps > 0 ? -100 : 100,
                  clientX: box.width / 2,
                  clientY: box.height / 2,
                  bubbles: true,
                  cancelable: true,
                }),
              );
          }),
        scale,
      )
    : undefined;
  const gaps = await page.evaluate(
    (notches) =>
      new Promise((resolve) => {
        const canvas = /** @type {HTMLElement} */ (document.querySelector('.canvas'));
        const box = canvas.getBoundingClientRect();
        const gaps = [];
        let last = performance.now();
        let i = 0;
        const frame = (now) => {
          gaps.push(now - last);
          last = now;
          const zoom = 2 * notches;
          if (i < zoom) {
            canvas.dispatchEvent(
              new WheelEvent('wheel', {
                deltaY: i < notches ? -100 : 100,
                clientX: box.width / 2,
                clientY: box.height / 2,
                bubbles: true,
                cancelable: true,
              }),
            );
          } else if (i < zoom + 60) {
            const x = box.left + 200 + (i - zoom) * 5;
            const type = i === zoom ? 'pointerdown' : i === zoom + 59 ? 'pointerup' : 'pointermove';
            canvas.dispatchEvent(
              new PointerEvent(type, { clientX: x, clientY: box.top + 300, pointerId: 1, bubbles: true }),
            );
          } else return resolve(gaps.slice(2));
          i++;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    notches,
  );
  return { gaps, restMs };
}

const scenarios = [
  { name: '1,000 sessions, batches of 40', sessions: 1000, batch: 40, shot: 'tree-1000.png' },
  { name: '1,000 sessions, one batch', sessions: 1000, batch: 1000 },
];
const browser = await launchBrowser();
const results = [];
try {
  for (const scenario of scenarios) {
    const run = await record(scenario.sessions, scenario.batch);
    const runs = [];
    for (let r = 0; r < Number(values.runs); r++)
      runs.push(await measure(browser, run, r === 0 ? scenario.shot : undefined));
    const median = (key) => runs.map((x) => x[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
    const result = {
      scenario: scenario.name,
      nodes: runs[0].nodes,
      edges: runs[0].edges,
      firstRenderMs: median('firstRenderMs'),
      deliveryMs: median('deliveryMs'),
      layoutMs: median('layoutMs'),
      drawMs: median('drawMs'),
      farMedianMs: median('farMedianMs'),
      farP95Ms: median('farP95Ms'),
      nearMedianMs: median('nearMedianMs'),
      nearP95Ms: median('nearP95Ms'),
      restMs: median('restMs'),
      learnerLayoutMs: learnerLayoutMs(run),
      liveUpdateLayoutMs: liveUpdateLayoutMs(run),
    };
    results.push(result);
    console.log(
      `${scenario.name}: ${result.nodes} nodes, ${result.edges} edges — laid out and painted in ${result.firstRenderMs.toFixed(0)} ms (the message ${result.deliveryMs.toFixed(0)}, layout ${result.layoutMs.toFixed(0)}, DOM ${result.drawMs.toFixed(0)}, then style, raster and paint); zoom and pan frames with the whole run in view ${result.farMedianMs.toFixed(1)} ms median, ${result.farP95Ms.toFixed(1)} ms p95, at 100 % ${result.nearMedianMs.toFixed(1)} / ${result.nearP95Ms.toFixed(1)} ms, the frame where a zoom to 100 % comes to rest ${result.restMs.toFixed(0)} ms (median of ${runs.length} runs); the learner laid it out once in ${result.learnerLayoutMs.toFixed(0)} ms; a live update of it is laid out again in ${result.liveUpdateLayoutMs.toFixed(0)} ms`,
    );
  }
} finally {
  await browser.close();
}
mkdirSync(ARTIFACTS, { recursive: true });
writeFileSync(
  join(ARTIFACTS, 'webview-render.json'),
  `${JSON.stringify({ chromium: 'headless, no GPU', results }, null, 2)}\n`,
);
