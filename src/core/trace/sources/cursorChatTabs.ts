import { titleLine } from '../../util/text';
import type { TraceDraft } from '../model';
import { countUnknown, isRecord } from './common';
import { type Acc, push, str, timeOf, unreadableWhy } from './cursorSteps';
import { SessionLosses } from './sessionLosses';
import type { ReadContext, SessionFile } from './types';

// The old Cursor chat pane's tabs (ItemTable, in workspace databases) → one trace per tab.

export const CHAT_DATA_KEY = 'workbench.panel.aichat.view.aichat.chatdata';

/** The old chat pane: `{tabs:[{tabId, chatTitle, lastSendTime, bubbles:[{type:"user"|"ai", text, rawText}]}]}`. */
export function readChatTabs(data: unknown, file: SessionFile, ctx: ReadContext, losses: SessionLosses): TraceDraft[] {
  if (data === null) return [];
  if (!isRecord(data) || !Array.isArray(data.tabs)) {
    losses.skip(CHAT_DATA_KEY, 'not the chat pane’s tabs');
    return [];
  }
  const drafts: TraceDraft[] = [];
  for (const [i, tab] of data.tabs.entries()) {
    if (!isRecord(tab) || typeof tab.tabId !== 'string' || !Array.isArray(tab.bubbles)) {
      losses.skip(`${CHAT_DATA_KEY} tab ${i + 1}`, 'not a chat tab');
      continue;
    }
    const acc: Acc = { ctx, steps: [], unknown: {}, synthetic: 0 };
    for (const bubble of tab.bubbles) {
      if (!isRecord(bubble)) {
        countUnknown(acc.unknown, 'bubble:invalid');
        continue;
      }
      const delegate = isRecord(bubble.delegate) ? bubble.delegate : undefined;
      if (bubble.type === 'user') {
        const text = (str(bubble.text) ?? str(bubble.rawText) ?? str(delegate?.a))?.trim();
        if (text) push(acc, { kind: 'user', text }, undefined);
      } else if (bubble.type === 'ai') {
        const text = (str(bubble.rawText) ?? str(bubble.text))?.trim();
        if (text) push(acc, { kind: 'assistant', text, model: str(bubble.modelType) }, undefined);
      } else {
        countUnknown(acc.unknown, `bubble:${String(bubble.type)}`);
      }
    }
    if (acc.steps.length === 0) {
      if (Object.keys(acc.unknown).length > 0)
        losses.skip(`tab ${tab.tabId}`, unreadableWhy(tab.bubbles.length, acc.unknown));
      continue;
    }
    const firstUser = acc.steps.find((s) => s.kind === 'user');
    drafts.push({
      id: `cursor:${tab.tabId}`,
      agent: 'cursor',
      title:
        str(tab.chatTitle)?.split('\n')[0].trim() ||
        (firstUser?.kind === 'user' ? titleLine(firstUser.text) : undefined),
      endedAt: timeOf(tab.lastSendTime),
      source: { path: file.path, bytes: file.bytes },
      steps: acc.steps,
      unknown: acc.unknown,
      warnings: [],
    });
  }
  return drafts;
}
