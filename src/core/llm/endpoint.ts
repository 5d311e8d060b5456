/**
 * Where model requests may go. The endpoint URL is the user's own choice (their settings or flags), yet a key
 * entered for one endpoint must never travel to another, and plain http is only for this machine unless the user
 * allows it for a model server on their network.
 */
export class EndpointRefusedError extends Error {
  constructor(
    readonly url: string,
    why: string,
  ) {
    super(`the endpoint ${url} is refused: ${why}`);
    this.name = 'EndpointRefusedError';
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Local servers (Ollama, vLLM, LM Studio) take any key; hosted ones need a real one. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return LOOPBACK_HOSTS.has(host) || /^127(?:\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/** `https://api.openai.com` for `https://api.openai.com/v1/`: what a stored key is bound to. */
export function endpointOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EndpointRefusedError(url, 'it is not a URL');
  }
  return parsed.origin;
}

/** Throws unless the URL is https, or http on loopback, or http the user allowed for their network. */
export function checkEndpoint(url: string, options: { allowInsecureHttp?: boolean } = {}): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EndpointRefusedError(url, 'it is not a URL');
  }
  if (parsed.username || parsed.password)
    throw new EndpointRefusedError(
      `${parsed.protocol}//…@${parsed.host}`,
      'credentials in the URL are not sent; store the key with Set API Key',
    );
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol !== 'http:') throw new EndpointRefusedError(url, `${parsed.protocol} is not http or https`);
  if (isLoopbackUrl(url) || options.allowInsecureHttp) return parsed;
  throw new EndpointRefusedError(
    url,
    'plain http to another machine would send the sessions and the key unencrypted (allow it for a model server on your network with combee.openai.allowInsecureHttp in your user settings, or --allow-insecure-http)',
  );
}

/** The SecretStorage name of the key for one endpoint origin. */
export function apiKeySecretName(url: string): string {
  return `combee.apiKey:${endpointOrigin(url)}`;
}
