import { afterGroup, ci, type SecretRule } from './rule';

/**
 * Provider token shapes, modelled on the shapes of gitleaks' published rule set (regexes written here). A token
 * must start at a token boundary (see `startsToken`) and end before the next token character.
 */
function shape(id: string, provider: string, keywords: string[], source: string, anchored = true): SecretRule {
  return { id, provider, keywords, pattern: new RegExp(`(?:${source})(?![A-Za-z0-9_-])`, 'g'), anchored };
}

/**
 * A provider whose keys have no prefix of their own: the value of an assignment whose name mentions the provider
 * (`COHERE_API_KEY=…`, `"datadog_app_key": "…"`), as gitleaks does with its keyword-in-context rules.
 */
function named(id: string, provider: string, keywords: string[], value: string): SecretRule {
  const names = keywords.map(ci).join('|');
  return {
    id,
    provider,
    keywords,
    pattern: new RegExp(
      `((?:${names})[A-Za-z0-9_.-]{0,40}(?:\\\\?["'])?[ \\t]{0,4}(?::=|=>|=|:)[ \\t]{0,4}(?:\\\\{0,3}["'])?)(${value})(?![A-Za-z0-9_-])`,
      'g',
    ),
    locate: afterGroup,
    boundary: false,
    anchored: true,
  };
}

const B64 = 'A-Za-z0-9+/';

export const PROVIDER_RULES: SecretRule[] = [
  // AI providers
  shape('anthropic-admin-key', 'Anthropic', ['sk-ant-admin'], 'sk-ant-admin\\d{2}-[A-Za-z0-9_-]{20,}'),
  shape('anthropic-key', 'Anthropic', ['sk-ant-'], 'sk-ant-(?:api\\d{2}-|oat\\d{2}-|sid\\d{2}-)?[A-Za-z0-9_-]{20,}'),
  shape(
    'openai-key',
    'OpenAI',
    ['sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-none-'],
    'sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}',
  ),
  // DeepSeek, OpenRouter (sk-or-v1-), Moonshot and other OpenAI-compatible endpoints use sk- too
  shape('api-key', 'OpenAI-compatible (sk-…)', ['sk-'], 'sk-[A-Za-z0-9][A-Za-z0-9_-]{19,}'),
  shape('groq-key', 'Groq', ['gsk_'], 'gsk_[A-Za-z0-9]{40,}'),
  shape('xai-key', 'xAI', ['xai-'], 'xai-[A-Za-z0-9]{60,}'),
  shape('perplexity-key', 'Perplexity', ['pplx-'], 'pplx-[A-Za-z0-9]{40,}'),
  shape('huggingface-token', 'Hugging Face', ['hf_', 'api_org_'], 'hf_[A-Za-z0-9]{30,}|api_org_[A-Za-z0-9]{30,}'),
  shape('replicate-token', 'Replicate', ['r8_'], 'r8_[A-Za-z0-9]{30,}'),
  shape('langsmith-key', 'LangSmith', ['lsv2_'], 'lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}'),
  shape('tavily-key', 'Tavily', ['tvly-'], 'tvly-(?:dev-)?[A-Za-z0-9]{28,}'),
  shape('elevenlabs-key', 'ElevenLabs', ['sk_'], 'sk_[a-f0-9]{48}'),
  named('cohere-key', 'Cohere', ['cohere', 'co_api_key'], '[A-Za-z0-9]{40}'),
  named('mistral-key', 'Mistral', ['mistral'], '[A-Za-z0-9]{32}'),
  // Source hosting and package registries
  shape(
    'github-token',
    'GitHub',
    ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    'gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}',
  ),
  shape(
    'gitlab-token',
    'GitLab',
    [
      'glpat-',
      'gldt-',
      'glrt-',
      'glptt-',
      'glcbt-',
      'glimt-',
      'glsoat-',
      'glft-',
      'glffct-',
      'gloas-',
      'glagent-',
      'gr1348941',
    ],
    'gl(?:pat|dt|rt|ptt|cbt|imt|soat|ft|ffct|oas|agent)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,}',
  ),
  shape(
    'bitbucket-token',
    'Atlassian',
    ['atatt3', 'atctt3', 'atbb'],
    'AT(?:ATT|CTT)3[A-Za-z0-9_=+/-]{40,}|ATBB[A-Za-z0-9_=+/-]{28,}',
  ),
  shape('npm-token', 'npm', ['npm_'], 'npm_[A-Za-z0-9]{36}'),
  shape('pypi-token', 'PyPI', ['pypi-'], 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}'),
  shape('rubygems-key', 'RubyGems', ['rubygems_'], 'rubygems_[a-f0-9]{48}'),
  shape('nuget-key', 'NuGet', ['oy2'], 'oy2[a-z0-9]{43}'),
  shape('dockerhub-token', 'Docker Hub', ['dckr_pat_', 'dckr_oat_'], 'dckr_(?:pat|oat)_[A-Za-z0-9_-]{24,}'),
  shape('jfrog-key', 'JFrog', ['akcp', 'cmvmdgtu'], 'AKCp[A-Za-z0-9]{60,}|cmVmdGtu[A-Za-z0-9]{56,}'),
  shape('buildkite-token', 'Buildkite', ['bkua_'], 'bkua_[a-f0-9]{40}'),
  shape('circleci-token', 'CircleCI', ['ccipat_'], 'CCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}'),
  // Cloud
  shape(
    'aws-access-key',
    'AWS',
    ['akia', 'asia', 'abia', 'acca', 'a3t'],
    '(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}',
  ),
  named('aws-secret-key', 'AWS', ['aws_secret', 'secretaccesskey', 'secret_access_key', 'aws-secret'], `[${B64}]{40}`),
  shape('google-api-key', 'Google', ['aiza'], 'AIza[0-9A-Za-z_-]{35}'),
  shape('google-oauth-secret', 'Google', ['gocspx-'], 'GOCSPX-[A-Za-z0-9_-]{28}'),
  shape('google-oauth-token', 'Google', ['ya29.', '1//0'], 'ya29\\.[A-Za-z0-9_-]{30,}|1//0[A-Za-z0-9_-]{40,}'),
  shape('firebase-fcm-key', 'Firebase', ['apa91b'], 'AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}', false),
  shape('azure-ad-secret', 'Azure', ['q~'], '[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}', false),
  {
    id: 'azure-sas',
    provider: 'Azure',
    keywords: ['sig='],
    pattern: /([?&]sig=)([A-Za-z0-9%+/=]{30,})/g,
    locate: afterGroup,
    boundary: false,
  },
  shape('alibaba-key', 'Alibaba Cloud', ['ltai'], 'LTAI[A-Za-z0-9]{20}'),
  named('alibaba-secret', 'Alibaba Cloud', ['alibaba', 'aliyun'], '[A-Za-z0-9]{30}'),
  shape('digitalocean-token', 'DigitalOcean', ['dop_v1_', 'doo_v1_', 'dor_v1_'], 'do[por]_v1_[a-f0-9]{64}'),
  shape('heroku-key', 'Heroku', ['hrku-'], 'HRKU-[A-Za-z0-9_-]{40,}'),
  named(
    'heroku-legacy-key',
    'Heroku',
    ['heroku'],
    '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
  ),
  shape('cloudflare-ca-key', 'Cloudflare', ['v1.0-'], 'v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}'),
  named('cloudflare-key', 'Cloudflare', ['cloudflare', 'cf_api'], '[A-Za-z0-9_-]{37,40}'),
  shape('vercel-token', 'Vercel', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], 'vc[pikar]_[A-Za-z0-9]{24,}'),
  named('vercel-legacy-token', 'Vercel', ['vercel'], '[A-Za-z0-9]{24}'),
  shape('supabase-key', 'Supabase', ['sbp_', 'sb_secret_'], 'sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,}'),
  shape('flyio-token', 'Fly.io', ['fo1_', 'fm1', 'fm2'], 'fo1_[A-Za-z0-9_-]{40,}|fm[12][ar]?_[A-Za-z0-9+/=_-]{40,}'),
  shape('render-key', 'Render', ['rnd_'], 'rnd_[A-Za-z0-9]{32}'),
  shape('scaleway-key', 'Scaleway', ['scw'], 'SCW[A-Z0-9]{17}'),
  shape('planetscale-token', 'PlanetScale', ['pscale_'], 'pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,64}'),
  shape('pulumi-token', 'Pulumi', ['pul-'], 'pul-[a-f0-9]{40}'),
  shape(
    'terraform-token',
    'HashiCorp Terraform',
    ['atlasv1'],
    '[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}',
    false,
  ),
  shape('vault-token', 'HashiCorp Vault', ['hvs.', 'hvb.', 'hvr.'], 'hv[sbr]\\.[A-Za-z0-9_-]{24,}'),
  shape(
    'doppler-token',
    'Doppler',
    ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'],
    'dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9_.-]{40,}',
  ),
  shape('databricks-token', 'Databricks', ['dapi'], 'dapi[a-f0-9]{32}(?:-\\d)?'),
  // Payments and commerce
  shape('stripe-key', 'Stripe', ['sk_live', 'sk_test', 'rk_live', 'rk_test'], '[sr]k_(?:live|test)_[A-Za-z0-9]{10,}'),
  shape('stripe-webhook-secret', 'Stripe', ['whsec_'], 'whsec_[A-Za-z0-9_]{16,}'),
  shape(
    'square-token',
    'Square',
    ['sq0atp-', 'sq0csp-', 'eaaa'],
    'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|EAAA[A-Za-z0-9_-]{60}',
  ),
  shape('shopify-token', 'Shopify', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}'),
  shape('shippo-token', 'Shippo', ['shippo_'], 'shippo_(?:live|test)_[a-f0-9]{40}'),
  shape(
    'plaid-token',
    'Plaid',
    ['access-sandbox-', 'access-development-', 'access-production-'],
    'access-(?:sandbox|development|production)-[a-f0-9-]{36}',
  ),
  // Messaging and mail
  shape(
    'slack-token',
    'Slack',
    ['xox', 'xapp-'],
    'xox[abposre]-[A-Za-z0-9-]{10,}|xoxe\\.xox[bp]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+',
  ),
  shape(
    'slack-webhook',
    'Slack',
    ['hooks.slack.com'],
    'hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}',
  ),
  shape('discord-webhook', 'Discord', ['discord'], 'discord(?:app)?\\.com/api/webhooks/\\d+/[A-Za-z0-9_-]{40,}'),
  named(
    'discord-token',
    'Discord',
    ['discord', 'bot_token'],
    '[MNO][A-Za-z0-9_-]{23,25}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}',
  ),
  // also inside `/bot<token>/` of the API's URLs, where no boundary precedes it
  { ...shape('telegram-token', 'Telegram', [':aa'], '(?<!\\d)\\d{8,10}:AA[A-Za-z0-9_-]{33}', false), boundary: false },
  // no keyword of its own but `sk`: tried at each `sk`, it fails at once where the case or the length is wrong
  shape('twilio-key', 'Twilio', ['sk'], 'SK[0-9a-fA-F]{32}'),
  named('twilio-auth-token', 'Twilio', ['twilio'], '[0-9a-f]{32}'),
  shape('sendgrid-key', 'SendGrid', ['sg.'], 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}'),
  shape('mailgun-key', 'Mailgun', ['key-'], 'key-[0-9a-z]{32}'),
  shape('mailchimp-key', 'Mailchimp', ['-us'], '[0-9a-f]{32}-us\\d{1,2}', false),
  named('postmark-token', 'Postmark', ['postmark'], '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'),
  // Productivity, observability, developer tools
  shape('linear-key', 'Linear', ['lin_api_', 'lin_oauth_'], 'lin_(?:api|oauth)_[A-Za-z0-9]{32,}'),
  shape('notion-token', 'Notion', ['ntn_', 'secret_'], 'ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}'),
  shape('figma-token', 'Figma', ['figd_', 'figu_'], 'fig[du]_[A-Za-z0-9_-]{38,}'),
  shape(
    'dropbox-token',
    'Dropbox',
    ['sl.', 'aaaaaaaaaa'],
    'sl\\.[A-Za-z0-9_-]{130,}|[a-z0-9]{11}AAAAAAAAAA[a-z0-9_=-]{43}',
    false,
  ),
  shape(
    'grafana-token',
    'Grafana',
    ['glc_', 'glsa_', 'eyjrijoi'],
    'glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{60,}={0,2}',
  ),
  shape('sentry-token', 'Sentry', ['sntryu_', 'sntrys_'], 'sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/=_-]{50,}'),
  {
    id: 'sentry-dsn',
    provider: 'Sentry',
    keywords: ['sentry'],
    pattern: /(https?:\/\/)([a-f0-9]{32}(?::[a-f0-9]{32})?)@[a-z0-9.-]*sentry/g,
    locate: afterGroup,
    boundary: false,
    anchored: false,
  },
  shape(
    'newrelic-key',
    'New Relic',
    ['nrak-', 'nrjs-', 'nrii-', 'nral'],
    'NRAK-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9_-]{32}|[a-fA-F0-9]{36}NRAL',
    false,
  ),
  named('datadog-key', 'Datadog', ['datadog', 'dd_api', 'dd_app', 'dd-api', 'dd-app'], '[a-f0-9]{32}(?:[a-f0-9]{8})?'),
  named('okta-token', 'Okta', ['okta'], '00[A-Za-z0-9_-]{40}'),
  shape('postman-key', 'Postman', ['pmak-'], 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'),
  shape('contentful-token', 'Contentful', ['cfpat-'], 'CFPAT-[A-Za-z0-9_-]{43}'),
  shape('airtable-token', 'Airtable', ['airtable', 'pat'], 'pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}'),
  shape('typeform-token', 'Typeform', ['tfp_'], 'tfp_[A-Za-z0-9_.=-]{59}'),
  shape('prefect-key', 'Prefect', ['pnu_'], 'pnu_[A-Za-z0-9]{36}'),
  shape('readme-key', 'ReadMe', ['rdme_'], 'rdme_[a-z0-9]{70}'),
  shape('adafruit-key', 'Adafruit IO', ['aio_'], 'aio_[A-Za-z0-9]{28}'),
  shape('frameio-token', 'Frame.io', ['fio-u-'], 'fio-u-[A-Za-z0-9_=-]{64}'),
  shape('mapbox-token', 'Mapbox', ['sk.eyj'], 'sk\\.eyJ[A-Za-z0-9_-]{50,}\\.[A-Za-z0-9_-]{20,}'),
  shape('facebook-token', 'Facebook', ['eaac', 'eaag'], 'EAA[CG][A-Za-z0-9]{100,}'),
  named('algolia-key', 'Algolia', ['algolia'], '[a-f0-9]{32}'),
  named('ngrok-token', 'ngrok', ['ngrok'], '[0-9][A-Za-z0-9]{26}_[A-Za-z0-9]{21}'),
  named('snyk-token', 'Snyk', ['snyk'], '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'),
  // Key material
  shape('age-secret-key', 'age', ['age-secret-key-1'], 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}'),
  shape('jwt', 'JWT', ['eyj'], 'eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}'),
];
