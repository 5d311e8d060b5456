import { parse } from 'unbash';

// A heredoc is the data a command reads: one whose delimiter or body is missing was cut from the line it came from,
// and the command would wait for input or read nothing.

type Node = { type?: string; [key: string]: unknown };
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

function collect(value: unknown, out: Node[]): void {
  if (Array.isArray(value)) for (const item of value) collect(item, out);
  else if (isNode(value)) {
    if (value.type === 'HereDoc') out.push(value);
    for (const inner of Object.values(value)) if (typeof inner === 'object') collect(inner, out);
  }
}

/** Heredocs of the line with no delimiter or an empty body; 0 when the line has none or cannot be read. */
export function heredocsWithoutBody(line: string): number {
  let script: unknown;
  try {
    script = parse(line);
  } catch {
    return 0;
  }
  const heredocs: Node[] = [];
  collect(script, heredocs);
  const bodyOf = (doc: Node) => {
    const body = Array.isArray(doc.body) ? undefined : doc.body;
    return isNode(body) && typeof body.text === 'string' ? body.text : undefined;
  };
  return heredocs.filter((doc) => {
    const delimiter = isNode(doc.delimiter) && typeof doc.delimiter.value === 'string' ? doc.delimiter.value : '';
    return delimiter === '' || !bodyOf(doc)?.trim();
  }).length;
}
