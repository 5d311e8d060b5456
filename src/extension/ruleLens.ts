import { describeClaim } from '../core/learn/rules/confirmedCounters';
import { relative } from 'node:path';
import * as vscode from 'vscode';
import { parseBulletLine } from '../core/playbook/markdown';
import { playbookRules, type PlaybookRule } from '../core/service/playbookRules';
import type { Services } from './services';
import { readSettings } from './settings';
import { readWorkspacePlaybook } from './playbookFile';
import { COMMANDS } from './commandIds';

/** `[id]` as the playbook and the assets write a rule's id (only ids the playbook holds get a hover). */
const RULE_REF = /\[([^\]\s[]{1,120})\]/;
/** The only commands a hover's links may run, each with a rule id. */
const HOVER_COMMANDS = [
  COMMANDS.showRuleInTree,
  COMMANDS.openRuleInPlaybook,
  COMMANDS.pinRule,
  COMMANDS.unpinRule,
  COMMANDS.retireRule,
];

/** The rule files agents read (and the playbook): where a hover on `[id]` tells what the rule is worth. */
const SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', language: 'markdown' },
  { scheme: 'file', pattern: '**/*.mdc' },
  { scheme: 'file', pattern: '**/.clinerules/**' },
];

/**
 * The rules of the playbook of a document's workspace folder, read again only when the playbook's text or Combee's
 * state changes (a hover must not read every run record each time).
 */
class RuleIndex {
  private cache = new Map<string, { text: string; rules: Map<string, PlaybookRule>; playbook: string }>();

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.cache.clear());
  }

  async forDocument(uri: vscode.Uri): Promise<{ rules: Map<string, PlaybookRule>; playbook: string } | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return undefined;
    const workspace = folder.uri.fsPath;
    const file = await readWorkspacePlaybook(workspace);
    if (!file) return undefined;
    const { path: playbook, text } = file;
    const cached = this.cache.get(workspace);
    if (cached?.text === text) return cached;
    const { staleAfterRuns } = readSettings(vscode.Uri.file(workspace));
    const { rules } = await playbookRules(this.services.state, workspace, text, staleAfterRuns);
    const entry = { text, rules: new Map(rules.map((r) => [r.id, r])), playbook };
    this.cache.set(workspace, entry);
    return entry;
  }
}

function commandLink(label: string, command: string, ruleId: string): string {
  return `[${label}](command:${command}?${encodeURIComponent(JSON.stringify([ruleId]))})`;
}

/** What the hover says of a rule: its counts and stage, why it is flagged, and what can be done with it. */
export function ruleHoverMarkdown(rule: PlaybookRule): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: HOVER_COMMANDS };
  md.appendText(`[${rule.id}] `);
  md.appendMarkdown(`**${rule.standing.chips.join(' · ')}** · helpful ${rule.helpful} · harmful ${rule.harmful}`);
  md.appendText(` · ${rule.section}\n\n`);
  const claim = describeClaim(rule.standing.counters);
  if (claim) md.appendText(`Counters ${claim}: only what was counted here decides its stage.\n\n`);
  if (rule.helpful + rule.harmful === 0 && !claim)
    md.appendText(
      'No evidence yet: it is counted when a session had it in play (a file its agent loads held it, as CLAUDE.md for Claude Code, or the session cites this id) and did what it says or otherwise: helpful when doing what it says worked, harmful when it failed or was overruled, or when doing otherwise worked.\n\n',
    );
  else if (rule.standing.history.length > 0)
    md.appendText(
      `Over ${rule.standing.history.length} run(s): ${rule.standing.history.map((h) => `+${h.helpful} −${h.harmful}`).join(' → ')}\n\n`,
    );
  for (const flag of rule.flags) md.appendText(`⚠ ${flag.kind}: ${flag.reason}\n\n`);
  md.appendMarkdown(
    [
      commandLink('Where it came from', COMMANDS.showRuleInTree, rule.id),
      commandLink('Open in playbook', COMMANDS.openRuleInPlaybook, rule.id),
      rule.pinned ? commandLink('Unpin…', COMMANDS.unpinRule, rule.id) : commandLink('Pin…', COMMANDS.pinRule, rule.id),
      commandLink('Retire…', COMMANDS.retireRule, rule.id),
    ].join(' · '),
  );
  return md;
}

/** Hovers on `[id]` in the assets, and a lens above each rule of the playbook. */
export function registerRuleLens(services: Services): vscode.Disposable[] {
  const index = new RuleIndex(services);
  const lensesChanged = new vscode.EventEmitter<void>();
  services.onDidChange(() => lensesChanged.fire());
  const hover = vscode.languages.registerHoverProvider(SELECTOR, {
    async provideHover(document, position) {
      const range = document.getWordRangeAtPosition(position, new RegExp(RULE_REF.source));
      if (!range) return undefined;
      const id = RULE_REF.exec(document.getText(range))?.[1];
      const rule = id === undefined ? undefined : (await index.forDocument(document.uri))?.rules.get(id);
      return rule ? new vscode.Hover(ruleHoverMarkdown(rule), range) : undefined;
    },
  });
  const lens = vscode.languages.registerCodeLensProvider(
    { scheme: 'file', language: 'markdown' },
    {
      onDidChangeCodeLenses: lensesChanged.event,
      async provideCodeLenses(document) {
        const found = await index.forDocument(document.uri);
        if (!found || relative(found.playbook, document.uri.fsPath) !== '') return [];
        const lenses: vscode.CodeLens[] = [];
        // from the document as it is in the editor (unsaved edits move lines)
        for (let line = 0; line < document.lineCount; line++) {
          const id = parseBulletLine(document.lineAt(line).text)?.id;
          const rule = id === undefined ? undefined : found.rules.get(id);
          if (!rule) continue;
          const range = new vscode.Range(line, 0, line, 0);
          lenses.push(
            new vscode.CodeLens(range, {
              title: `${rule.standing.chips.join(' · ')} · +${rule.helpful} −${rule.harmful}`,
              tooltip: 'What the runs say of this rule (Combee: Show Rule Helpfulness)',
              command: COMMANDS.showHelpfulness,
            }),
            new vscode.CodeLens(range, {
              title: 'Where it came from',
              tooltip: 'Follow the rule in the aggregation tree',
              command: COMMANDS.showRuleInTree,
              arguments: [rule.id],
            }),
          );
        }
        return lenses;
      },
    },
  );
  return [hover, lens, lensesChanged];
}
