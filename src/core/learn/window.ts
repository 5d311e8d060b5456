/** The window the extension and the CLI apply by default (`combee.learn.windowDays`, `--window-days`). */
export const DEFAULT_WINDOW_DAYS = 14;

const DAY_MS = 86_400_000;

/** The earliest time a session may end to be learned from, or undefined when there is no window (0 days). */
export function windowStart(anchorMs: number, windowDays: number | undefined): number | undefined {
  return windowDays && Number.isFinite(anchorMs) ? anchorMs - windowDays * DAY_MS : undefined;
}
