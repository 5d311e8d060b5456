import { stripVTControlCharacters } from 'node:util';

/**
 * Terminal escape codes removed from a tool's output: colours and cursor moves say nothing in an error line, a rule
 * or a prompt. Node's own stripper takes whole sequences; what is left when a log lost the ESC byte (`[31m`, `[0m`,
 * `[2K`, `[1G`) is taken too, unless a `]` closes it (`x[1m]`, `[2K]` are text).
 */
const LOST_ESCAPE = /\[\d{1,3}(?:;\d{1,3})*[mKGJ](?!\])|\[[mK](?![\]\w])/g;

export function stripTerminalCodes(text: string): string {
  if (!text.includes('[')) return text;
  return stripVTControlCharacters(text).replace(LOST_ESCAPE, '');
}
