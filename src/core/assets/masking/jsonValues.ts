import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { MAX_SETTINGS_DEPTH, nesting } from '../enforce/hookConfig';
import type { MaskedValue } from './maskedValue';
import { maskTag, type ValuePath } from './secretNames';

// The secret values of a JSON (or JSONC) config file, found on its syntax tree: the file is never rewritten, only the
// values' own text is replaced, so everything else stays byte for byte.

/** The values to mask in a JSON object text, in order (duplicate members too); undefined when it can't be read. */
export function jsonMaskedValues(text: string): MaskedValue[] | undefined {
  if (nesting(text) > MAX_SETTINGS_DEPTH) return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true });
  if (!root || errors.length > 0 || root.type !== 'object') return undefined;
  const values: MaskedValue[] = [];
  // a stack, not recursion: the depth is bounded above, but a stack keeps it so whatever the bound
  const stack: Array<{ node: Node; path: ValuePath }> = [{ node: root, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const children: Array<{ node: Node; path: ValuePath }> = [];
    if (node.type === 'object')
      for (const member of node.children ?? []) {
        const [name, value] = member.children ?? [];
        if (typeof name?.value === 'string' && value) children.push({ node: value, path: [...path, name.value] });
      }
    else if (node.type === 'array')
      (node.children ?? []).forEach((child, i) => children.push({ node: child, path: [...path, i] }));
    else {
      const tag = maskTag(path, node.type === 'string');
      if (tag) values.push({ path, start: node.offset, end: node.offset + node.length, tagged: JSON.stringify(tag) });
    }
    stack.push(...children.reverse());
  }
  return values;
}
