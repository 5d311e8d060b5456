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

interface Window {
  acquireVsCodeApi(): VsCodeApiStandIn;
  posted: PostedMessage[];
  /** the webview's kept state (the view's zoom among it) */
  saved: { view?: { scale: number }; [field: string]: unknown } | undefined;
  answer(message: PostedMessage): Promise<unknown>;
  receivedAt: number;
  startedAt: number;
  pwned: unknown;
}
