import { shortHash } from '../../util/hash';
import { isRecord } from './common';

// Claude Code records a message typed while the agent works as a `queue-operation` record: `enqueue` with the text
// (as it was typed, at that time), then `dequeue` when the message starts the next turn (the same text follows as an
// ordinary user record) or `remove` when it was handed to the agent mid-turn (nothing follows). Each message is one
// user turn, at the time it was typed: the ordinary record that delivers it is not counted again. The queue keeps
// hashes only (it is saved with the resume state).

export interface QueuedMessage {
  /** Hash of the text. */
  text: string;
  /** Hash of the command name, for a slash command (delivered as a `<command-name>` record). */
  command?: string;
  /** A background task's notification, not the user's words: kept only to pair the operations in order. */
  notification?: true;
  /** Dequeued: its ordinary user record comes next. */
  delivered?: true;
}

const COMMAND = /^\/([A-Za-z0-9:_-]+)/;
const COMMAND_RECORD = /<command-name>\/?([^<\s]+)<\/command-name>/;

/** Applies a queue record; returns what the user typed when it is a new message of theirs. */
export function applyQueueOperation(
  queue: QueuedMessage[],
  operation: string | undefined,
  content: unknown,
): { text: string; command: boolean } | undefined {
  switch (operation) {
    case 'enqueue': {
      const text = typeof content === 'string' ? content.trim() : '';
      if (!text) return undefined;
      const command = COMMAND.exec(text)?.[1];
      const notification = isTaskNotification(text);
      queue.push({
        text: shortHash(text, 16),
        command: command ? shortHash(command, 16) : undefined,
        notification: notification || undefined,
      });
      return notification ? undefined : { text, command: command !== undefined };
    }
    case 'dequeue': {
      const next = queue.findIndex((q) => !q.delivered);
      if (next === -1) return undefined;
      if (queue[next].notification) queue.splice(next, 1);
      else queue[next].delivered = true;
      return undefined;
    }
    case 'remove': {
      const next = queue.findIndex((q) => !q.delivered);
      if (next !== -1) queue.splice(next, 1);
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Whether a user record's text delivers a dequeued message (then it is not a new turn). Any other words of the user
 * (`meta` false) end the wait: a dequeued message not delivered by the next one was delivered otherwise.
 */
export function isQueuedDelivery(queue: QueuedMessage[], text: string, meta: boolean): boolean {
  if (!queue.some((q) => q.delivered)) return false;
  const hash = shortHash(text, 16);
  const command = COMMAND_RECORD.exec(text)?.[1];
  const commandHash = command ? shortHash(command, 16) : undefined;
  const match = queue.findIndex((q) => q.delivered && (q.text === hash || (q.command && q.command === commandHash)));
  if (match !== -1) {
    queue.splice(match, 1);
    return true;
  }
  if (!meta) for (let i = queue.length - 1; i >= 0; i--) if (queue[i].delivered) queue.splice(i, 1);
  return false;
}

/** Background tasks report through the queue too, as a JSON object with their `task_id`. */
function isTaskNotification(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) && typeof parsed.task_id === 'string';
  } catch {
    return false;
  }
}
