// No imports: the webview's protocol types use this file too (as they use batchMode.ts).

/** The kinds of node in a run's aggregation tree, from sessions to the applied operations. */
export const NODE_KINDS = ['trace', 'reflection', 'group', 'single', 'local', 'global', 'apply'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export const NODE_STATUSES = ['ok', 'failed', 'skipped'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];
