// Keyboard focus stays in the panel. A webview is a page of its own: Tab past its last control, or a redraw that
// removes the focused control, leaves the focus on the page's body, where no key does anything.

const FOCUSABLE =
  'button:not([disabled]), input:not([disabled]), select:not([disabled]), summary, a[href], [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => e.getClientRects().length > 0);
}

/** Tab from the last control goes to the first, Shift+Tab from the first to the last; from the body, into the panel. */
export function keepTabIn(root: HTMLElement): void {
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const all = focusables(root);
    if (all.length === 0) return;
    const active = document.activeElement;
    const first = all[0];
    const last = all[all.length - 1];
    const outside = !active || active === document.body || !root.contains(active);
    if (event.shiftKey && (outside || active === first)) last.focus();
    else if (!event.shiftKey && (outside || active === last)) first.focus();
    else return;
    event.preventDefault();
  });
}

/** What names the focused control, to find its like again once the panel is drawn anew. */
export interface FocusKey {
  /** The rule card or tree node it belongs to. */
  owner?: string;
  name: string;
  tag: string;
}

function nameOf(element: Element): string {
  return element.getAttribute('aria-label') ?? element.id ?? element.textContent ?? '';
}

/** The focused control inside the panel, if any. */
export function focusKey(root: HTMLElement): FocusKey | undefined {
  const active = document.activeElement;
  if (!active || active === document.body || !root.contains(active)) return undefined;
  const owner = active.closest<HTMLElement>('[data-rule-id]')?.dataset.ruleId;
  return { owner, name: nameOf(active), tag: active.tagName };
}

/** After a redraw: the focus back on the same control, else on the panel's first control. */
export function restoreFocus(root: HTMLElement, key: FocusKey | undefined): void {
  if (!key || root.contains(document.activeElement)) return;
  const all = focusables(root);
  const same = all.find(
    (e) =>
      e.tagName === key.tag &&
      nameOf(e) === key.name &&
      e.closest<HTMLElement>('[data-rule-id]')?.dataset.ruleId === key.owner,
  );
  (same ?? all.find((e) => e.classList.contains('graph')) ?? all[0])?.focus();
}
