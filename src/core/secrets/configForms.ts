import { afterGroup, ci, isPlaceholder, type SecretRule } from './rule';

/**
 * Secrets in the forms of particular tools, where no `=` or `:` follows the name: `.netrc` (`machine h login me password X`),
 * `curl -u user:X`, Dockerfile `ENV API_TOKEN X` and fish `set -x API_TOKEN X`, `gh secret set NAME --body X`,
 * `<add key="…Password" value="X"/>` (NuGet.config, app.config), `.npmrc` `_auth=`, Bundler's `BUNDLE_HOST__COM=`.
 * A match needs no token boundary before it: a word glued to its context (`…totcurl -u`) is no reason to keep the secret.
 */

const ASSIGNMENTS = 'Assignments (.env, shell, JSON, YAML, TOML, connection strings, flags)';
/** A found value that is a placeholder (`$TOKEN`, `<token>`) is kept. */
const unlessPlaceholder = (m: RegExpExecArray): [number, number] | undefined =>
  isPlaceholder(m[2]) ? undefined : afterGroup(m);

const NETRC: SecretRule = {
  id: 'secret-assignment',
  provider: ASSIGNMENTS,
  keywords: ['machine'],
  pattern: /(machine[ \t]+[^\s]{1,200}[ \t]+login[ \t]+[^\s]{1,200}[ \t]+password[ \t]+)([^\s\\]{1,300})/g,
  locate: unlessPlaceholder,
  boundary: false,
  anchored: true,
};

const CURL_USER: SecretRule = {
  id: 'secret-flag',
  provider: ASSIGNMENTS,
  keywords: ['curl'],
  pattern:
    /(curl\b[^\n\r]{0,300}?[ \t](?:-u|--user)(?:[ \t]+|=)(?:\\{0,3}["'])?[^\s:"'\\]{1,100}:)([^\s"'@\\]{3,300})/g,
  locate: unlessPlaceholder,
  boundary: false,
  anchored: true,
};

/** A secret's name: ends in one of these words (after any prefix of the name). */
const SECRET_NAME = `[A-Za-z0-9_]{0,60}?(?:${['PASSWORD', 'PASSWD', 'TOKEN', 'SECRET', 'API_KEY', 'APIKEY', 'ACCESS_KEY', 'PRIVATE_KEY'].map(ci).join('|')})`;

/** Dockerfile `ENV NAME value` and fish `set -x NAME value` / `set -gx`: a space, not `=`. */
const SPACE_ASSIGNMENT: SecretRule = {
  id: 'secret-assignment',
  provider: ASSIGNMENTS,
  keywords: ['env ', 'set -'],
  pattern: new RegExp(
    `((?:ENV|set[ \\t]+-[gUux]{1,3})[ \\t]+${SECRET_NAME}[ \\t]+(?:\\\\{0,3}["'])?)([^\\s"'=\\\\]{3,300})`,
    'g',
  ),
  locate: unlessPlaceholder,
  boundary: false,
  anchored: true,
};

/** `gh secret set NAME --body X` (also `-b X`, `--body=X`). */
const GH_SECRET: SecretRule = {
  id: 'secret-flag',
  provider: ASSIGNMENTS,
  keywords: ['secret set'],
  pattern:
    /(secret[ \t]+set[ \t]+[A-Za-z0-9_]{1,100}[^\n\r|;&]{0,200}?[ \t](?:--body|-b)(?:[ \t]+|=)(?:\\{0,3}["'])?)([^\s"'\\]{3,300})/g,
  locate: unlessPlaceholder,
  boundary: false,
  anchored: true,
};

/** `<add key="ClearTextPassword" value="X" />` and the like in .NET configs. */
const XML_ADD_KEY: SecretRule = {
  id: 'secret-assignment',
  provider: ASSIGNMENTS,
  keywords: ['<add key='],
  pattern: new RegExp(
    `(<add[ \\t]+key=\\\\?"[^"\\\\]{0,60}?(?:${['password', 'secret', 'token', 'apikey', 'api_key', 'connectionstring'].map(ci).join('|')})[^"\\\\]{0,20}\\\\?"[ \\t]+value=\\\\?")([^"\\\\]{3,300})`,
    'g',
  ),
  locate: unlessPlaceholder,
  boundary: false,
  anchored: true,
};

/** `.npmrc`'s `_auth=<base64 of user:password>` (`_authToken` and `_password` are assignments already). */
const NPMRC_AUTH: SecretRule = {
  id: 'secret-assignment',
  provider: ASSIGNMENTS,
  keywords: ['_auth'],
  pattern: /(_auth[ \t]*=[ \t]*(?:\\{0,3}["'])?)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9_-])/g,
  locate: afterGroup,
  boundary: false,
  anchored: true,
};

/** Bundler's credentials for a host: `BUNDLE_GEMS__CONTRIBSYS__COM=user:pass`, `BUNDLE_RUBYGEMS__PKG__GITHUB__COM=…`. */
const BUNDLER: SecretRule = {
  id: 'secret-assignment',
  provider: ASSIGNMENTS,
  keywords: ['bundle_'],
  pattern: /(BUNDLE_[A-Z0-9_]{1,100}__[A-Z0-9_]{1,100}[ \t]*[=:][ \t]*(?:\\{0,3}["'])?)([^\s"'\\]{6,300})/g,
  locate: unlessPlaceholder,
  boundary: false,
  anchored: true,
};

export const CONFIG_FORM_RULES: SecretRule[] = [
  NETRC,
  CURL_USER,
  SPACE_ASSIGNMENT,
  GH_SECRET,
  XML_ADD_KEY,
  NPMRC_AUTH,
  BUNDLER,
];
