import type * as vscode from 'vscode';
import { apiKeySecretName, endpointOrigin } from '../../core/llm/endpoint';

/** Where keys lived before they were bound to an endpoint: one key for whatever endpoint was configured. */
const LEGACY_SECRET = 'combee.openai.apiKey';

/** The key stored for this endpoint's origin; a key saved for another endpoint is never returned. */
export async function apiKeyFor(secrets: vscode.SecretStorage, baseUrl: string): Promise<string | undefined> {
  return secrets.get(apiKeySecretName(baseUrl));
}

export async function storeApiKey(
  secrets: vscode.SecretStorage,
  baseUrl: string,
  key: string | undefined,
): Promise<void> {
  if (key) await secrets.store(apiKeySecretName(baseUrl), key);
  else await secrets.delete(apiKeySecretName(baseUrl));
}

/**
 * A key saved by an earlier version belongs to the endpoint in the user's own settings (the only place an endpoint
 * can come from); it moves there once. Returns the origin it moved to.
 */
export async function migrateLegacyKey(
  secrets: vscode.SecretStorage,
  userBaseUrl: string,
): Promise<string | undefined> {
  const legacy = await secrets.get(LEGACY_SECRET);
  if (!legacy) return undefined;
  if (!(await apiKeyFor(secrets, userBaseUrl))) await storeApiKey(secrets, userBaseUrl, legacy);
  await secrets.delete(LEGACY_SECRET);
  return endpointOrigin(userBaseUrl);
}
