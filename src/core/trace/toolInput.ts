import type { ToolCallStep } from './model';

/** The values a tool call was given, field by field; none when its input is no JSON object (a raw patch, a command). */
export function inputValues(call: Pick<ToolCallStep, 'input'>): unknown[] {
  let input: unknown;
  try {
    input = JSON.parse(call.input);
  } catch {
    return [];
  }
  return input && typeof input === 'object' && !Array.isArray(input) ? Object.values(input) : [];
}
