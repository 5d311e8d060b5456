import { seededRandom } from '../src/core/learn/random';
/**
 * The project's own secret corpus: one line per secret shape, as it would appear in a session (with its context:
 * `export X=`, a header, a URL). Every random part is generated here from a seeded generator, at run time, by
 * concatenation, so the repository holds no real-looking secret. `needles` are the random parts: none of their
 * 8-character pieces may survive redaction anywhere.
 */

export interface SecretShape {
  /** Provider or category, and which kind of its secrets. */
  name: string;
  /** The secret in its context, one or more lines. */
  text: string;
  /** Random parts of the secret (each ≥ 8 characters). */
  needles: string[];
}

/** The same seeded generator as the learning run's shuffle. */
const generator = seededRandom;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const URLSAFE = `${ALNUM}_-`;
const BASE64 = `${ALNUM}+/`;
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';

export function buildCorpus(seed = 20261201): SecretShape[] {
  const random = generator(seed);
  const pick = (alphabet: string, n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
    return s;
  };
  // random parts start and end with a letter or digit (a generated `-` at the edge would be a separator)
  const rnd = (alphabet: string, n: number) => {
    const edge = alphabet.replace(/[^A-Za-z0-9]/g, '');
    return pick(edge, 1) + pick(alphabet, n - 2) + pick(edge, 1);
  };
  const shapes: SecretShape[] = [];
  const add = (name: string, text: (parts: string[]) => string, ...parts: string[]) =>
    shapes.push({ name, text: text(parts), needles: parts });
  const token = (name: string, context: string, prefix: string, ...parts: string[]) =>
    add(name, (p) => `${context}${prefix}${p.join('')}`, ...parts);

  // AI providers
  token('OpenAI project key', 'export OPENAI_API_KEY=', 'sk-' + 'proj-', rnd(URLSAFE, 48));
  token('OpenAI service account key', 'OPENAI_KEY: ', 'sk-' + 'svcacct-', rnd(URLSAFE, 44));
  token('OpenAI admin key', 'using key ', 'sk-' + 'admin-', rnd(URLSAFE, 44));
  add('OpenAI legacy key', (p) => `key=sk-${p[0]}T3Blbk` + `FJ${p[1]}`, rnd(ALNUM, 20), rnd(ALNUM, 20));
  token('Anthropic API key', 'ANTHROPIC_API_KEY=', 'sk-' + 'ant-api03-', rnd(URLSAFE, 93) + 'AA');
  token('Anthropic admin key', 'admin key ', 'sk-' + 'ant-admin01-', rnd(URLSAFE, 93));
  token('DeepSeek-style sk- key', 'DEEPSEEK_API_KEY=', 'sk-', rnd(HEX, 32));
  token('OpenRouter key', 'openrouter: ', 'sk-' + 'or-v1-', rnd(HEX, 64));
  token('Groq key', 'groq ', 'gsk' + '_', rnd(ALNUM, 52));
  token('xAI key', 'XAI_API_KEY="', 'xai' + '-', rnd(ALNUM, 80));
  token('Perplexity key', 'pplx key: ', 'pplx' + '-', rnd(ALNUM, 48));
  token('Hugging Face token', 'HF_TOKEN=', 'hf' + '_', rnd(ALNUM, 34));
  token('Replicate token', 'REPLICATE_API_TOKEN=', 'r8' + '_', rnd(ALNUM, 37));
  token('Cohere key', 'COHERE_API_KEY=', '', rnd(ALNUM, 40));
  token('Mistral key', 'MISTRAL_API_KEY: ', '', rnd(ALNUM, 32));
  token('LangSmith key', 'LANGSMITH ', 'lsv2' + '_pt_', rnd(HEX, 32), '_' + rnd(HEX, 10));
  // Source hosting and registries
  token('GitHub classic PAT', 'git remote set-url origin https://x:', 'ghp' + '_', rnd(ALNUM, 36));
  token('GitHub OAuth token', 'token ', 'gho' + '_', rnd(ALNUM, 36));
  token('GitHub app token', 'GH_APP=', 'ghs' + '_', rnd(ALNUM, 36));
  token('GitHub user-to-server token', 'ghu ', 'ghu' + '_', rnd(ALNUM, 36));
  token('GitHub refresh token', 'refresh ', 'ghr' + '_', rnd(ALNUM, 76));
  add('GitHub fine-grained PAT', (p) => `GITHUB_TOKEN=github` + `_pat_${p[0]}_${p[1]}`, rnd(ALNUM, 22), rnd(ALNUM, 59));
  token('GitLab PAT', 'PRIVATE-TOKEN: ', 'glpat' + '-', rnd(URLSAFE, 20));
  token('GitLab deploy token', 'deploy ', 'gldt' + '-', rnd(URLSAFE, 20));
  token('GitLab runner token', 'runner ', 'glrt' + '-', rnd(URLSAFE, 20));
  token('GitLab runner registration', 'register ', 'GR1348' + '941', rnd(URLSAFE, 20));
  token('GitLab pipeline trigger', 'trigger ', 'glptt' + '-', rnd(HEX, 40));
  token('Atlassian API token', 'JIRA=', 'ATATT3' + 'xFfGF0', rnd(URLSAFE, 180));
  token('npm token', '//registry.npmjs.org/:_authToken=', 'npm' + '_', rnd(ALNUM, 36));
  token('PyPI token', 'password = ', 'pypi' + '-AgEIcHlwaS5vcmc', rnd(URLSAFE, 70));
  token('RubyGems key', 'GEM_HOST_API_KEY=', 'rubygems' + '_', rnd(HEX, 48));
  token('NuGet key', 'nuget push -k ', 'oy2', rnd(LOWER_ALNUM, 43));
  token('Docker Hub PAT', 'docker login -p ', 'dckr' + '_pat_', rnd(URLSAFE, 27));
  // Cloud
  token('AWS access key id', 'aws_access_key_id = ', 'AKIA', rnd(UPPER_ALNUM, 16));
  token('AWS secret access key', 'aws_secret_access_key = ', '', rnd(BASE64, 40));
  token('Google API key', 'GOOGLE_API_KEY=', 'AIza', rnd(URLSAFE, 35));
  token('Google OAuth client secret', '"client_secret":"', 'GOCSPX' + '-', rnd(URLSAFE, 28));
  token('Google OAuth access token', 'Bearer ', 'ya29' + '.', rnd(URLSAFE, 80));
  add(
    'GCP service account key (JSON)',
    (p) =>
      JSON.stringify({
        type: 'service_account',
        private_key_id: p[0],
        private_key: `-----BEGIN PRIVATE KEY-----\n${p[1]}\n${p[2]}\n-----END PRIVATE KEY-----\n`,
      }),
    rnd(HEX, 40),
    rnd(BASE64, 64),
    rnd(BASE64, 64),
  );
  add(
    'Azure storage connection string',
    (p) => `DefaultEndpointsProtocol=https;AccountName=shopdata;AccountKey=${p[0]}==;EndpointSuffix=core.windows.net`,
    rnd(BASE64, 86),
  );
  add('Azure AD client secret', (p) => `AZURE_CLIENT_SECRET=${p[0]}8Q~${p[1]}`, rnd(ALNUM, 3), rnd(URLSAFE, 34));
  add(
    'Azure SAS token',
    (p) => `https://shop.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=${p[0]}%3D`,
    rnd(ALNUM, 43),
  );
  token('Alibaba access key', 'ALIYUN_ID=', 'LTAI', rnd(ALNUM, 20));
  token('DigitalOcean token', 'doctl auth init -t ', 'dop' + '_v1_', rnd(HEX, 64));
  token('Heroku API key', 'HEROKU_API_KEY=', 'HRKU' + '-', rnd(URLSAFE, 60));
  token('Cloudflare API token', 'CLOUDFLARE_API_TOKEN=', '', rnd(URLSAFE, 40));
  token('Vercel token', 'vercel --token ', 'vcp' + '_', rnd(ALNUM, 40));
  token('Supabase PAT', 'supabase login --token ', 'sbp' + '_', rnd(HEX, 40));
  token('Supabase secret key', 'SUPABASE_KEY=', 'sb' + '_secret_', rnd(URLSAFE, 31));
  token('Fly.io token', 'FLY_API_TOKEN=', 'fo1' + '_', rnd(URLSAFE, 43));
  token('PlanetScale token', 'PLANETSCALE=', 'pscale' + '_tkn_', rnd(URLSAFE, 43));
  token('Pulumi token', 'PULUMI_ACCESS_TOKEN=', 'pul' + '-', rnd(HEX, 40));
  add(
    'Terraform Cloud token',
    (p) => `credentials "app.terraform.io" { token = "${p[0]}.atlas` + `v1.${p[1]}" }`,
    rnd(ALNUM, 14),
    rnd(URLSAFE, 67),
  );
  token('HashiCorp Vault token', 'VAULT_TOKEN=', 'hvs' + '.', rnd(URLSAFE, 90));
  token('Doppler token', 'DOPPLER_TOKEN=', 'dp.pt' + '.', rnd(ALNUM, 43));
  token('Databricks token', 'DATABRICKS_HOST=x DATABRICKS_TOKEN=', 'dapi', rnd(HEX, 32));
  add('Firebase FCM server key', (p) => `fcm server key AAAA${p[0]}:APA91b${p[1]}`, rnd(URLSAFE, 7), rnd(URLSAFE, 134));
  // Payments and commerce
  token('Stripe live secret key', 'STRIPE_SECRET_KEY=', 'sk' + '_live_', rnd(ALNUM, 99));
  token('Stripe test secret key', 'stripe ', 'sk' + '_test_', rnd(ALNUM, 24));
  token('Stripe restricted key', 'rk ', 'rk' + '_live_', rnd(ALNUM, 24));
  token('Stripe webhook secret', 'STRIPE_WEBHOOK=', 'whsec' + '_', rnd(ALNUM, 32));
  token('Square access token', 'SQUARE=', 'EAAA', rnd(URLSAFE, 60));
  token('Square OAuth secret', 'square ', 'sq0csp' + '-', rnd(URLSAFE, 43));
  token('Shopify access token', 'X-Shopify-Access-Token: ', 'shpat' + '_', rnd(HEX, 32));
  // Messaging and mail
  add(
    'Slack bot token',
    (p) => `SLACK_BOT=xoxb-${p[0]}-${p[1]}-${p[2]}`,
    rnd(DIGITS, 12),
    rnd(DIGITS, 13),
    rnd(ALNUM, 24),
  );
  add(
    'Slack user token',
    (p) => `slack xoxp-${p[0]}-${p[1]}-${p[2]}-${p[3]}`,
    rnd(DIGITS, 12),
    rnd(DIGITS, 12),
    rnd(DIGITS, 13),
    rnd(HEX, 32),
  );
  add(
    'Slack webhook',
    (p) => `curl -X POST https://hooks.slack.com/services/T${p[0]}/B${p[1]}/${p[2]}`,
    rnd(UPPER_ALNUM, 10),
    rnd(UPPER_ALNUM, 10),
    rnd(ALNUM, 24),
  );
  add('Discord webhook', (p) => `https://discord.com/api/webhooks/${p[0]}/${p[1]}`, rnd(DIGITS, 18), rnd(URLSAFE, 68));
  add(
    'Discord bot token',
    (p) => `DISCORD_BOT_TOKEN=M${p[0]}.${p[1]}.${p[2]}`,
    rnd(URLSAFE, 23),
    rnd(URLSAFE, 6),
    rnd(URLSAFE, 27),
  );
  add(
    'Telegram bot token',
    (p) => `https://api.telegram.org/bot${p[0]}:AA${p[1]}/getMe`,
    rnd(DIGITS, 10),
    rnd(URLSAFE, 33),
  );
  token('Twilio API key', 'twilio api key ', 'SK', rnd(HEX, 32));
  add('SendGrid key', (p) => `SENDGRID=SG.${p[0]}.${p[1]}`, rnd(URLSAFE, 22), rnd(URLSAFE, 43));
  token('Mailgun key', 'api:', 'key' + '-', rnd(HEX, 32));
  add('Mailchimp key', (p) => `mailchimp ${p[0]}-us14`, rnd(HEX, 32));
  // Productivity, observability, developer tools
  token('Linear key', 'LINEAR=', 'lin' + '_api_', rnd(ALNUM, 40));
  token('Notion token', 'NOTION=', 'ntn' + '_', rnd(DIGITS, 11) + rnd(ALNUM, 35));
  token('Figma token', 'X-Figma-Token: ', 'figd' + '_', rnd(URLSAFE, 40));
  token('Dropbox token', 'dropbox ', 'sl' + '.', rnd(URLSAFE, 140));
  add('Grafana service account token', (p) => `GRAFANA=glsa_${p[0]}_${p[1]}`, rnd(ALNUM, 32), rnd(HEX, 8));
  token('Grafana cloud token', 'grafana ', 'glc' + '_', rnd(ALNUM, 60));
  token('Sentry user token', 'SENTRY_AUTH_TOKEN=', 'sntryu' + '_', rnd(HEX, 64));
  add('Sentry DSN', (p) => `SENTRY_DSN=https://${p[0]}@o123456.ingest.sentry.io/4504`, rnd(HEX, 32));
  token('New Relic user key', 'NEW_RELIC=', 'NRAK' + '-', rnd(UPPER_ALNUM, 27));
  token('Datadog API key', 'DD_API_KEY=', '', rnd(HEX, 32));
  token('Okta token', 'OKTA_API_TOKEN=', '00', rnd(URLSAFE, 40));
  add('Postman key', (p) => `postman PMAK-${p[0]}-${p[1]}`, rnd(HEX, 24), rnd(HEX, 34));
  token('Contentful token', 'contentful ', 'CFPAT' + '-', rnd(URLSAFE, 43));
  token('Age secret key', '# created: 2026\n', 'AGE-SECRET-KEY-1', rnd(BECH32, 58));
  // Private keys, every kind, and JWTs
  const block = (kind: string) =>
    add(
      `private key (${kind})`,
      (p) => `-----BEGIN ${kind}-----\n${p.join('\n')}\n-----END ${kind}-----`,
      rnd(BASE64, 64),
      rnd(BASE64, 64),
      rnd(BASE64, 64),
      rnd(BASE64, 40),
    );
  for (const kind of [
    'RSA PRIVATE KEY',
    'EC PRIVATE KEY',
    'DSA PRIVATE KEY',
    'OPENSSH PRIVATE KEY',
    'PRIVATE KEY',
    'ENCRYPTED PRIVATE KEY',
    'PGP PRIVATE KEY BLOCK',
  ])
    block(kind);
  add('JWT', (p) => `id_token: eyJhbGciOiJIUzI1NiJ9.eyJ${p[0]}.${p[1]}`, rnd(URLSAFE, 40), rnd(URLSAFE, 43));
  // Credentials in URLs, any scheme
  const url = (scheme: string, user: string, host: string) =>
    add(`URL credentials (${scheme})`, (p) => `DATABASE_URL=${scheme}://${user}:${p[0]}@${host}`, rnd(ALNUM, 16));
  url('postgres', 'shop', 'db.internal:5432/shop');
  url('mysql', 'root', 'localhost:3306/app');
  url('mongodb+srv', 'admin', 'cluster0.example.mongodb.net/test');
  url('redis', '', 'cache:6379/0');
  url('amqp', 'guest', 'rabbit:5672');
  url('https', 'deploy', 'git.example.com/repo.git');
  url('ftp', 'upload', 'files.example.com');
  add(
    'URL credentials (URL-encoded password)',
    (p) => `postgres://app:${p[0]}%40%21${p[1]}@db:5432/app`,
    rnd(ALNUM, 10),
    rnd(ALNUM, 10),
  );
  // Authorization headers, any scheme
  add(
    'Authorization: Bearer',
    (p) => `curl -H "Authorization: Bearer ${p[0]}" https://api.example.com/v1`,
    rnd(URLSAFE, 40),
  );
  add(
    'Authorization: Basic',
    (p) => `curl -H 'Authorization: Basic ${Buffer.from(`deploy:${p[0]}`).toString('base64')}' https://x`,
    rnd(ALNUM, 18),
  );
  add('Authorization: Token', (p) => `Authorization: Token ${p[0]}`, rnd(HEX, 40));
  add('Authorization: Bot', (p) => `{"authorization": "Bot ${p[0]}"}`, rnd(URLSAFE, 50));
  add('Authorization: custom scheme', (p) => `Authorization: SSWS ${p[0]}`, rnd(URLSAFE, 42));
  // Assignments: .env (anywhere on the line), JSON, YAML, flags, connection strings
  add('.env password', (p) => `DB_PASSWORD=${p[0]}`, rnd(ALNUM, 16));
  add('.env secret mid-line', (p) => `PORT=3000 APP_SECRET=${p[0]} NODE_ENV=production`, rnd(ALNUM, 24));
  add('JSON password', (p) => `{"user": "admin", "password": "${p[0]}"}`, rnd(ALNUM, 18));
  add('YAML secret', (p) => `database:\n  user: shop\n  password: ${p[0]}\n`, rnd(ALNUM, 18));
  add('flag --password=', (p) => `psql --host db --password=${p[0]} shop`, rnd(ALNUM, 16));
  add('flag --token', (p) => `deploy-cli --token ${p[0]} --env prod`, rnd(ALNUM, 32));
  add(
    'connection string Password=',
    (p) => `Server=tcp:shop.database.windows.net,1433;User ID=app;Password=${p[0]};Encrypt=True`,
    rnd(ALNUM, 16),
  );
  add('mysql -p', (p) => `mysql -u root -p${p[0]} shop`, rnd(ALNUM, 14));
  // The wider set: provider shapes added after comparing with gitleaks' rule set one by one
  token('Amazon Bedrock long-lived key', 'AWS_BEARER_TOKEN_BEDROCK=', 'ABSK', rnd(BASE64, 132));
  token(
    'Amazon Bedrock short-lived key',
    'bedrock ',
    'bedrock-api-key-' + 'YmVkcm9jay5hbWF6b25hd3MuY29t',
    rnd(BASE64, 300),
  );
  token('Pinecone key', 'pinecone ', 'pcsk' + '_', rnd(ALNUM, 6) + '_' + rnd(ALNUM, 60));
  add(
    'GitLab routable PAT',
    (p) => `glab auth login --token glpat-${p[0]}.01${p[1]}`,
    rnd(URLSAFE, 27),
    rnd(LOWER_ALNUM, 7),
  );
  token('GitLab session cookie', 'Cookie: _gitlab_session=', '', rnd(HEX, 32));
  token('Sourcegraph token', 'SRC ', 'sgp' + '_', rnd(HEX, 16) + '_' + rnd(HEX, 40));
  token('Clojars token', 'clojars deploy ', 'CLOJARS' + '_', rnd(LOWER_ALNUM, 60));
  token('Octopus Deploy key', 'octo push --apiKey ', 'API' + '-', rnd(UPPER_ALNUM, 26));
  add('Harness token', (p) => `harness pat.${p[0]}.${p[1]}.${p[2]}`, rnd(URLSAFE, 22), rnd(ALNUM, 24), rnd(ALNUM, 20));
  token('Scalingo token', 'scalingo login --api-token ', 'tk-us' + '-', rnd(URLSAFE, 48));
  token('Infracost token', 'infracost ', 'ico' + '-', rnd(ALNUM, 32));
  add('Dynatrace token', (p) => `dynatrace dt0c01.${p[0]}.${p[1]}`, rnd(UPPER_ALNUM, 24), rnd(ALNUM, 64));
  token('OpenShift token', 'oc login --server https://api.c1 ', 'sha256' + '~', rnd(URLSAFE, 43));
  token('ClickHouse Cloud key', 'clickhouse ', '4b1d', rnd(ALNUM, 38));
  add(
    '1Password secret key',
    (p) => `1password A3-${p[0]}-${p[1]}-${p[2]}-${p[3]}-${p[4]}`,
    rnd(UPPER_ALNUM, 6),
    rnd(UPPER_ALNUM, 11),
    rnd(UPPER_ALNUM, 5),
    rnd(UPPER_ALNUM, 5),
    rnd(UPPER_ALNUM, 5),
  );
  token('1Password service account token', 'OP_SERVICE_ACCOUNT_TOKEN=', 'ops' + '_eyJ', rnd(BASE64, 300));
  token('Yandex Cloud API key', 'yc ', 'AQVN', rnd(URLSAFE, 36));
  token('Yandex Cloud access key', 'yandex_access_key: ', 'YC', rnd(URLSAFE, 38));
  token('Netlify token', 'netlify_auth: ', '', rnd(URLSAFE, 43));
  token('Fastly token', 'fastly_key: ', '', rnd(URLSAFE, 32));
  add(
    'Braintree access token',
    (p) => `BT=access_token$production$${p[0]}$${p[1]}`,
    rnd(LOWER_ALNUM, 16),
    rnd(HEX, 32),
  );
  add('Flutterwave secret key', (p) => `flw FLWSECK_TEST-${p[0]}-X`, rnd('abcdef0123456789', 32));
  token('Duffel token', 'duffel ', 'duffel' + '_live_', rnd(URLSAFE, 43));
  token('EasyPost key', 'easypost ', 'EZAK', rnd(ALNUM, 54));
  token('Coinbase key', 'coinbase_api: ', '', rnd(URLSAFE, 64));
  token('GoCardless token', 'gocardless: ', 'live' + '_', rnd(URLSAFE, 40));
  add('Brevo key', (p) => `brevo xkeysib-${p[0]}-${p[1]}`, rnd(HEX, 64), rnd(ALNUM, 16));
  add(
    'Microsoft Teams webhook',
    (p) => `curl https://acme.webhook.office.com/webhookb2/${p[0]}@${p[1]}/IncomingWebhook/${p[2]}/${p[3]}`,
    rnd(HEX, 8) + '-1111-2222-3333-' + rnd(HEX, 12),
    rnd(HEX, 8) + '-4444-5555-6666-' + rnd(HEX, 12),
    rnd(HEX, 32),
    rnd(HEX, 8) + '-7777-8888-9999-' + rnd(HEX, 12),
  );
  token('Mattermost token', 'mattermost_token_id: ', '', rnd(LOWER_ALNUM, 26));
  token('Twitter bearer token', 'twitter_bearer: ', 'AAAAAAAAAAAAAAAAAAAAA' + 'A', rnd(ALNUM, 90));
  token('Zendesk token', 'zendesk_api: ', '', rnd(ALNUM, 40));
  token('Intercom token', 'intercom_access: ', '', rnd(URLSAFE, 60));
  token('Adobe client secret', 'adobe ', 'p8e' + '-', rnd(ALNUM, 32));
  add('MaxMind license key', (p) => `maxmind ${p[0]}_${p[1]}_mmk`, rnd(ALNUM, 6), rnd(ALNUM, 29));
  token('SettleMint token', 'settlemint ', 'sm' + '_pat_', rnd(ALNUM, 16));
  token('42 Intra secret', 'intra ', 's-s4t2ud' + '-', rnd(HEX, 64));
  token(
    'HubSpot key',
    'hubspot_api: ',
    '',
    rnd(HEX, 8) + '-' + rnd(HEX, 4) + '-4' + rnd(HEX, 3) + '-a' + rnd(HEX, 3) + '-' + rnd(HEX, 12),
  );
  token(
    'LaunchDarkly token',
    'launchdarkly: ',
    'api' + '-',
    rnd(HEX, 8) + '-' + rnd(HEX, 4) + '-' + rnd(HEX, 4) + '-' + rnd(HEX, 4) + '-' + rnd(HEX, 12),
  );
  token('SonarQube token', 'sonar-scanner -Dsonar.token=', 'squ' + '_', rnd(HEX, 40));
  // Context forms: prose, names that go on past the word, tools' own forms
  add('prose: password is', (p) => `the staging db password is ${p[0]} (rotate it after the demo)`, rnd(ALNUM, 14));
  add('prose: token, no verb', (p) => `use the token ${p[0]}9x for the deploy`, rnd(ALNUM, 24));
  add('prose: API key for … is', (p) => `The API key for prod is \`${p[0]}\`.`, rnd(HEX, 32));
  add('suffixed name SECRET_KEY_BASE', (p) => `+SECRET_KEY_BASE=${p[0]}`, rnd(HEX, 64));
  add('suffixed name _TOKEN_RO', (p) => `export GITHUB_TOKEN_RO=${p[0]}`, rnd(ALNUM, 30));
  add('Dockerfile ENV', (p) => `ENV NPM_TOKEN ${p[0]}`, rnd(ALNUM, 30));
  add('fish set -x', (p) => `set -gx OPENAI_API_KEY ${p[0]}`, rnd(ALNUM, 30));
  add('.netrc line', (p) => `machine api.heroku.com login me@example.com password ${p[0]}`, rnd(ALNUM, 20));
  add('curl -u', (p) => `curl -u admin:${p[0]} https://ci.example.com/api/json`, rnd(ALNUM, 18));
  add('gh secret set --body', (p) => `gh secret set DEPLOY_KEY --body "${p[0]}"`, rnd(ALNUM, 30));
  add('NuGet.config password', (p) => `<add key="ClearTextPassword" value="${p[0]}" />`, rnd(ALNUM, 20));
  add('.npmrc _auth', (p) => `//npm.pkg.github.com/:_auth=${p[0]}==`, rnd(ALNUM, 30));
  // a name the rules reject (`key:` alone) must not hide the assignment that follows it
  add('assignment after a rejected name', (p) => `set the key: DB_PASSWORD=${p[0]}`, rnd(ALNUM, 16));
  add('Bundler credentials', (p) => `BUNDLE_GEMS__CONTRIBSYS__COM=${p[0]}:${p[1]}`, rnd(HEX, 8), rnd(HEX, 8));
  return shapes;
}

/** Text that looks like a secret and is none: it must reach the store unchanged. */
export const LOOK_ALIKES: string[] = [
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
  'session 50a7220d-7250-46f3-b38e-b716ce25032e',
  'sha256:' + 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'sha512 ' +
    'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
  '"integrity": "sha512-' + 'z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="',
  'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
  'version 2.10.0, typescript@5.9.3, node v20.20.2',
  'MAX_TOKENS=4096',
  'CACHE_KEY_PREFIX=myapp',
  'TOKENIZER=cl100k_base',
  'password: ${DB_PASSWORD}',
  'api_key: <your-api-key>',
  'Set STRIPE_PUBLISHABLE_KEY to pk_test_' + '51H8abcdefghijklmnopqrstuv',
  'publishable pk_live_' + 'Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8',
  'mail alice.smith@example.com or ops@shop.example.org',
  'msg_vrtx_01YY7H3tCjVRQYgmw8yWWcUn',
  'toolu_01A09q90qw90lq917835lq9',
  'image id img_5f2c9b7e1d3a4c8f',
  'see https://example.com/docs/sk-learn',
  'risk-assessment-framework-v2-final-draft',
  'max_tokens: 1024, input_tokens: 12, token_count: 5',
  'https://github.com/acme/shop/pull/42',
  'cd /srv/app && npm run build -- --watch',
  // look-alikes of the wider set's shapes and forms
  'API-VERSION-2026-01 header, see api-docs',
  'oc get sha256~short',
  'commit 4b1d' + '9fceb02d0ae598e95dc970b74767f19372d6',
  'see pat.md and sat.json',
  'ico-home.svg, tk-us-east-1, sm_pat_short',
  'a t1.micro instance',
  'A3-battery pack',
  'the password is required',
  'the token is expired, refresh it',
  'Password reset flow is broken in Safari',
  'the API key is in .env.local',
  'the token count is 4096',
  'a secret key rotation job runs nightly',
  'The token TokenKind.Identifier is emitted by the lexer',
  'password for the admin user is set by the installer',
  'ENV NODE_ENV production',
  'set -x PATH /usr/local/bin',
  'curl -u admin:$PASSWORD https://ci.example.com',
  'gh secret set DEPLOY_KEY --body "$VALUE"',
  'login with password reset link',
  'SECRET_KEY_BASE=changeme',
  'PASSWORD_MIN_LENGTH=12',
  'TOKEN_URL=https://auth.example.com/token',
];
