/** `text` as a regular expression that matches it literally, wherever it is put in a larger pattern. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
