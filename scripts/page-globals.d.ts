// What the webview runners (test/webview, bench/webview-render) set on a page's window from page.evaluate: the
// stand-in for VS Code's webview API, the messages it saw, and the marks an injected payload would leave.

interface PostedMessage {
  type: string;
  [field: string]: unknown;
}

interface VsCodeApiStandIn {
  postMessage(message: PostedMessage): void;
  getState(): unknown;
  setState(state: Window['saved']): unknown;
}

/** What the webview tests read of an axe-core violation. */
interface AxeViolation {
  id: string;
  impact?: string | null;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

interface Window {
  acquireVsCodeApi(): VsCodeApiStandIn;
  posted: PostedMessage[];
  /** the webview's kept state (the view's zoom among it) */
  saved: { view?: { scale: number }; [field: string]: unknown } | undefined;
  answer(message: PostedMessage): Promise<unknown>;
  receivedAt: number;
  startedAt: number;
  pwned: unknown;
  /** axe-core, added to the page by test/webview/axe.mjs */
  axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
}
