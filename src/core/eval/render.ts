import type { BacktestReport } from './backtest';
import { sameRule, type RuleReplay } from './replay';

// The backtest as a reader sees it: a Markdown page (beside the proposal in VS Code), the CLI's lines, and the
// figures one proposed rule carries in its tooltip. Rule and lesson text come from sessions: escaped, never markup.

/** Text shown literally in Markdown: every character that could start markup is escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&"']/g, (c) => `\\${c}`).replace(/\s*\n\s*/g, ' ');
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

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

export function backtestMarkdown(report: BacktestReport): string {
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
        `| ${escapeMarkdown(r.id)} | ${r.prevented.length} | ${r.misled.length} | ${r.agreed.length} | ${r.untouched} | ${escapeMarkdown(r.content)} |`,
      );
    lines.push('');
  }
  if (report.mistakes.length > 0) {
    lines.push('## Mistakes in the later sessions', '');
    lines.push('| Session | Kind | Prevented by | Lesson |', '| --- | --- | --- | --- |');
    for (const m of report.mistakes)
      lines.push(
        `| ${escapeMarkdown(m.sessionId)} | ${m.kind} | ${m.preventedBy.length > 0 ? escapeMarkdown(m.preventedBy.join(', ')) : '—'} | ${escapeMarkdown(m.lesson)} |`,
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
