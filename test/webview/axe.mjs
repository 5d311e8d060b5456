// Accessibility checks for the webview pages: axe-core's rules (serious and critical violations only), and the
// contrast of two colours as WCAG computes it, for what axe cannot read (an SVG stroke, a code span's colours).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function axeSource() {
  try {
    return readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  } catch {
    throw new Error('test/webview needs the axe-core package (a devDependency): npm install');
  }
}

/** axe-core's serious and critical violations on the page, one line each. */
export async function seriousViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource() });
  const violations = await page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1] ?? ''}`),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(' | ')}`);
}

function parse(colour) {
  const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(colour);
  if (!m) throw new Error(`not a colour: ${colour}`);
  return { r: +m[1], g: +m[2], b: +m[3], a: m[4] === undefined ? 1 : +m[4] };
}

function over(top, bottom) {
  return {
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  };
}

function luminance({ r, g, b }) {
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of a colour drawn over a background, each over the page's (computed CSS colours). */
export function contrast(foreground, background, page) {
  const base = over(parse(background), parse(page));
  const front = over(parse(foreground), base);
  const [hi, lo] = [luminance(front), luminance(base)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}
