import { el } from './dom';

// Inline Markdown as the playbook writes it — `code`, **strong**, *emphasis*, [text](target) — built as DOM nodes
// from text. Nothing is parsed as HTML and nothing becomes a link: a rule's text can come from any web page.
const INLINE = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|\*([^*\s][^*\n]*)\*|\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/** `text` as inline Markdown in a span: code, strong and emphasis styled; a link shows its text and its target. */
export function inlineMarkdown(text: string, className?: string): HTMLElement {
  const out = el('span', undefined, className);
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    const start = m.index ?? 0;
    if (start > at) out.append(document.createTextNode(text.slice(at, start)));
    if (m[1] !== undefined) out.append(el('code', m[1]));
    else if (m[2] !== undefined) out.append(el('strong', m[2]));
    else if (m[3] !== undefined) out.append(el('em', m[3]));
    else out.append(document.createTextNode(m[4]), el('span', ` (${m[5]})`, 'link-target'));
    at = start + m[0].length;
  }
  if (at < text.length) out.append(document.createTextNode(text.slice(at)));
  return out;
}
