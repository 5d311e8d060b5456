import { isAbsolute, relative } from 'node:path';
import type { ToolCallStep } from './model';

const EDITING_TOOL = /(edit|write|replace|patch|create_file|insert|str_replace|multiedit|apply_diff)/i;
const PATH_KEYS = ['file_path', 'filePath', 'path', 'target_file', 'notebook_path', 'absolutePath'];
const PATCH_FILE = /^\*\*\* (?:Update|Add) File: (.+)$/gm;

/** Files a tool call changed (edits, writes, patches), relative to the session's folder when inside it. */
export function editedFiles(step: ToolCallStep, cwd?: string): string[] {
  if (!EDITING_TOOL.test(step.tool)) return [];
  const found = new Set<string>();
  for (const m of step.input.matchAll(PATCH_FILE)) found.add(m[1].trim());
  try {
    const input = JSON.parse(step.input) as Record<string, unknown>;
    for (const key of PATH_KEYS) if (typeof input[key] === 'string') found.add(input[key] as string);
    if (typeof input.input === 'string') for (const m of input.input.matchAll(PATCH_FILE)) found.add(m[1].trim());
  } catch {
    // free-form input (a raw patch): the patch headers above are all there is
  }
  return [...found]
    .map((file) => (cwd && isAbsolute(file) && file.startsWith(cwd) ? relative(cwd, file) : file))
    .map((f) => f.replace(/\\/g, '/'));
}
