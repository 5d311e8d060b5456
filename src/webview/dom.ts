/** An element with text content (never HTML: everything shown comes from traces and model answers). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A button with one of VS Code's icons before its text (the icon is decoration; the text or label names it). */
export function iconButton(icon: string, text: string, title: string): HTMLButtonElement {
  const button = el('button', undefined, text ? 'with-icon' : 'icon-only');
  const glyph = el('span', undefined, `codicon codicon-${icon}`);
  glyph.setAttribute('aria-hidden', 'true');
  button.append(glyph);
  if (text) button.append(document.createTextNode(text));
  button.title = title;
  if (!text) button.setAttribute('aria-label', title);
  return button;
}

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}
