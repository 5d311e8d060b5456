import { redactText } from '../trace/redact';
import type { ChatMessage } from './client';

/**
 * The last line of defence before a request leaves the process: every message's content through the built-in
 * secret rules. What the learner sends comes from redacted traces, so this finds nothing there and costs one
 * keyword scan per message; it catches what reaches a prompt by another way (a playbook rule, a model's answer fed
 * back in a repair turn).
 */
export function redactMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    const content = redactText(m.content);
    return content === m.content ? m : { ...m, content };
  });
}
