// What Learn says when it has nothing to show, and the ways on it offers: a notice never ends in a dead end.

/** The actions a notice can offer; each front end maps them to its own commands. */
export const LEARN_ACTIONS = {
  importSessions: 'Import Sessions…',
  addFolders: 'Add Session Folders',
  learnOffline: 'Learn Offline',
  setApiKey: 'Set API Key',
  showLog: 'Show Log',
  retry: 'Retry',
} as const;

export type LearnAction = (typeof LEARN_ACTIONS)[keyof typeof LEARN_ACTIONS];

export interface LearnNotice {
  message: string;
  actions: LearnAction[];
}

/** No session to learn from: bring some in, from a folder of logs or an agent's folder Combee does not watch yet. */
export function noSessionsNotice(): LearnNotice {
  return {
    message:
      'Combee found no new sessions for this workspace. Import a folder of session logs, or add the folders your agents keep them in.',
    actions: [LEARN_ACTIONS.importSessions, LEARN_ACTIONS.addFolders],
  };
}

/**
 * A run whose model provider failed: its key, its log, another try, and (when the provider was not already the
 * offline learner) a run with the offline learner, which needs no model at all.
 */
export function failedRunNotice(reason: string, provider: string): LearnNotice {
  return {
    message: `Combee could not learn: ${reason}. Nothing was marked learned.`,
    actions: [
      ...(provider === 'offline' ? [] : [LEARN_ACTIONS.learnOffline]),
      ...(provider === 'openai' ? [LEARN_ACTIONS.setApiKey] : []),
      LEARN_ACTIONS.showLog,
      LEARN_ACTIONS.retry,
    ],
  };
}
