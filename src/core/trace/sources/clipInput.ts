import { clipMiddle } from '../../util/text';
import { isRecord } from './common';
import { jsonText } from './jsonText';

/**
 * A tool call's input as stored, at most `maxChars`: long string values are cut inside the JSON first, so the input
 * stays JSON and its short fields (the file a Write names) stay readable; only what is still too long is cut whole.
 */
export function clippedInput(input: unknown, maxChars: number): string {
  const text = jsonText(input ?? {});
  if (text.length <= maxChars || !isRecord(input)) return clipMiddle(text, maxChars).text;
  const share = Math.max(200, Math.floor(maxChars / Math.max(1, Object.keys(input).length)));
  const clipped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input))
    clipped[key] = typeof value === 'string' ? clipMiddle(value, share).text : value;
  return clipMiddle(jsonText(clipped), maxChars).text;
}
