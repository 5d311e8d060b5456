/**
 * Every tree view the extension creates, declared once. package.json's `contributes.views` must list exactly these, and
 * every menu or welcome entry must name one of them (test/unit/architecture/views.test.ts checks in plain Node). No
 * `vscode` import.
 */
export const VIEWS = {
  sessions: 'combee.sessions',
  proposals: 'combee.proposals',
  rules: 'combee.rules',
} as const;

export type ViewId = (typeof VIEWS)[keyof typeof VIEWS];
