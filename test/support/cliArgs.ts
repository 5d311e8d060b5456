/** `combee learn` on a store and workspace against an OpenAI-compatible endpoint: how the CLI tests start a run. */
export function learnAgainst(store: string, workspace: string, baseUrl: string): string[] {
  return ['learn', '--store', store, '--workspace', workspace, '--provider', 'openai', '--base-url', baseUrl];
}
