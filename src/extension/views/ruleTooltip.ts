import { escapeMarkdown } from '../../core/eval/render';
import { plural } from '../../core/util/text';

/** A proposed rule as its tooltip tells it; every string here may quote text anyone could write. */
export interface ProposedRuleTooltip {
  content: string;
  flags: { kind: string; reason: string }[];
  notes: string[];
  /** One line per supporting session: its title, agent and date, and the steps. */
  sessions: string[];
  people: number;
  backtest?: string;
}

/**
 * Markdown for a MarkdownString with theme icons on: the text is escaped (icons too, so `$(…)` in a rule stays text),
 * the notes carry the `$(info)` codicon (a font glyph such as ⓘ may be missing from the editor's font), and the
 * sessions are a list on lines of their own.
 */
export function proposedRuleTooltip(rule: ProposedRuleTooltip): string {
  // `$(` escaped so the renderer's icon pass, which runs on the parsed text, sees `\$(` and leaves it as text
  const text = (s: string) => escapeMarkdown(s).replace(/\$\\\(/g, () => '\\\\$\\(');
  const blocks = [text(rule.content)];
  if (rule.flags.length > 0)
    blocks.push(
      `**Flagged**, kept out of AGENTS.md and the other files until accepted by name:\n\n${rule.flags
        .map((f) => `- **${text(f.kind)}**: ${text(f.reason)}`)
        .join('\n')}`,
    );
  for (const note of rule.notes) blocks.push(`$(info) ${text(note)}`);
  const from = rule.people >= 2 ? ` from ${rule.people} people` : '';
  // a change no session backs (a retirement, a pin, upkeep) says so instead of heading an empty list
  if (rule.sessions.length === 0) blocks.push('No session supports this change directly.');
  else
    blocks.push(
      `Supported by ${plural(rule.sessions.length, 'session')}${from}:`,
      rule.sessions.map((s) => `- ${text(s)}`).join('\n'),
    );
  if (rule.backtest) blocks.push(text(rule.backtest));
  return blocks.join('\n\n');
}
