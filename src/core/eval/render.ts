import type { BacktestReport } from './backtest';
import { sameRule, type RuleReplay } from './replay';

// The backtest as a reader sees it: a Markdown page (beside the proposal in VS Code), the CLI's lines, and the
// figures one proposed rule carries in its tooltip. Rule and lesson text come from sessions: escaped, never markup.

/** Text shown literally in Markdown: every character that could start markup is escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&"']/g, (c) => `\\${c}`).replace(/\s*\n\s*/g, ' ');
}

/**
 * Text for a Markdown table cell with its `code spans` shown as code and everything else literally: a span's text is
 * never markup, and a pipe in it is escaped so the cell does not end there.
 */
export function markdownWithCode(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  const parts: string[] = [];
  let last = 0;
  for (const span of flat.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)) {
    parts.push(escapeMarkdown(flat.slice(last, span.index)), codeSpan(span[2]));
    last = span.index + span[0].length;
  }
  parts.push(escapeMarkdown(flat.slice(last)));
  return parts.join('');
}

/** A code span around `code`, fenced by more backticks than it holds (CommonMark), its pipes escaped for a table. */
function codeSpan(code: string): string {
  const cell = code.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...[...cell.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^`|`$/.test(cell) || /^ .* $/.test(cell) ? ' ' : '';
  return `${fence}${pad}${cell}${pad}${fence}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How the reader knows the backtest's rules and sessions; each falls back to the backtest's own when not given. */
export interface BacktestNames {
  /** The id a rule has where the reader reviews it (the proposal's or the playbook's); undefined when it has none. */
  ruleId?: (rule: RuleReplay) => string | undefined;
  /** A session's title; undefined when unknown. */
  sessionTitle?: (sessionId: string) => string | undefined;
}

/** What the Rule column says of a rule the backtest learned but the reader's proposal and playbook do not hold. */
export const NOT_PROPOSED = 'not proposed';

function splitLine(report: BacktestReport): string {
  const cut =
    'at' in report.split
      ? `sessions that ended before ${report.split.at}`
      : `the first ${Math.round(report.split.ratio * 100)} % of the sessions`;
  const range = (p: BacktestReport['earlier']) => (p.from ? ` (${p.from.slice(0, 10)} – ${p.to?.slice(0, 10)})` : '');
  return `Learned from ${plural(report.earlier.sessions, 'earlier session')}${range(report.earlier)} — ${cut} — and replayed over ${plural(report.later.sessions, 'later session')}${range(report.later)}.`;
}

function playbookLine(report: BacktestReport): string {
  const { path, source } = report.playbook;
  switch (source.kind) {
    case 'commit':
      return `Starting playbook: ${path} as committed in ${source.sha.slice(0, 12)} (${source.at.slice(0, 10)}).`;
    case 'working tree':
      return `Starting playbook: ${path} as it is now (no history).`;
    case 'none':
      return `Starting playbook: none (${path} did not exist yet).`;
  }
}

/** What one rule's replay says, in a few words: "prevented 2 · misled 1 · agreed 3 · untouched 4". */
export function ruleFigures(rule: RuleReplay): string {
  return `prevented ${rule.prevented.length} · misled ${rule.misled.length} · agreed ${rule.agreed.length} · untouched ${rule.untouched}`;
}

export function backtestMarkdown(report: BacktestReport, names: BacktestNames = {}): string {
  // the backtest learned its own ids: the reader knows a rule by the id it is proposed under
  const ruleName = (rule: RuleReplay) => {
    if (!names.ruleId) return escapeMarkdown(rule.id);
    const id = names.ruleId(rule);
    return id === undefined ? `*${NOT_PROPOSED}*` : escapeMarkdown(id);
  };
  const byId = new Map(report.rules.map((r) => [r.id, ruleName(r)]));
  const session = (id: string) => {
    const title = names.sessionTitle?.(id);
    return title ? markdownWithCode(title) : escapeMarkdown(id);
  };
  const lines = [
    '# Combee backtest',
    '',
    `**${escapeMarkdown(report.summary.charAt(0).toUpperCase() + report.summary.slice(1))}.**`,
    '',
    escapeMarkdown(splitLine(report)),
    '',
    escapeMarkdown(playbookLine(report)),
    '',
    escapeMarkdown(
      `Learner: ${report.provider} (${report.model}), seed ${report.seed}; the learning ended ${report.learnStatus}.`,
    ),
    '',
    'A rule *prevented* a mistake when the session did otherwise and had to fix it (or learned the very lesson the rule states); it *misled* a session when following it went wrong; it *agreed* when following it worked.',
    '',
  ];
  if (report.rules.length > 0) {
    lines.push('## Rules learned from the earlier sessions', '');
    lines.push(
      '| Rule | Prevented | Misled | Agreed | Untouched | Content |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
    );
    for (const r of report.rules)
      lines.push(
        `| ${ruleName(r)} | ${r.prevented.length} | ${r.misled.length} | ${r.agreed.length} | ${r.untouched} | ${markdownWithCode(r.content)} |`,
      );
    lines.push('');
  }
  if (report.mistakes.length > 0) {
    lines.push('## Mistakes in the later sessions', '');
    lines.push('| Session | Kind | Prevented by | Lesson |', '| --- | --- | --- | --- |');
    for (const m of report.mistakes)
      lines.push(
        `| ${session(m.sessionId)} | ${m.kind} | ${m.preventedBy.length > 0 ? [...new Set(m.preventedBy.map((id) => byId.get(id) ?? escapeMarkdown(id)))].join(', ') : '—'} | ${markdownWithCode(m.lesson)} |`,
      );
    lines.push('');
  }
  if (report.warnings.length > 0) {
    lines.push('## Warnings', '');
    for (const w of report.warnings) lines.push(`- ${escapeMarkdown(w)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** The CLI's text: the summary, the split, then one line per rule. */
export function backtestText(report: BacktestReport): string {
  const lines = [report.summary, splitLine(report), playbookLine(report)];
  for (const r of report.rules) lines.push(`[${r.id}] ${ruleFigures(r)} · ${r.content}`);
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

/**
 * The backtest's figures for a proposed rule the backtest learned too (the same text, or the same lesson key and commands), or
 * undefined when it did not learn it.
 */
export function figuresForRule(
  report: BacktestReport,
  rule: { content?: string; key?: string },
): { rule: RuleReplay; line: string } | undefined {
  const found = report.rules.find((r) => sameRule(r, rule));
  if (!found) return undefined;
  return {
    rule: found,
    line: `Backtest (learned from ${plural(report.earlier.sessions, 'earlier session')}, replayed over ${report.later.sessions}): ${ruleFigures(found)}`,
  };
}
