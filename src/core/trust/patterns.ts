import type { RiskKind } from './kinds';

// What a poisoned rule looks like, on normalized text (lower case, no Markdown; see normalize.ts).
// Precision matters as much as recall: each pattern names the risky act itself, not a word near it, and the
// look-alikes a real team writes stay clean (documented beside the pattern that lets them through).

export interface RiskPattern {
  kind: RiskKind;
  re: RegExp;
  reason: string;
  /** A negation before the match in its clause ("never run …", "instead of …") makes it advice against: no flag. */
  negatable?: boolean;
  /** The match is fine after all (a build folder for `rm -rf`, a container for `sudo`). */
  acceptable?: (match: string, text: string) => boolean;
}

const FETCH = String.raw`(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|http|https|aria2c)`;
const SHELL = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:(?:ba|z|da|k|fi|tc|c)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell|source|osascript)\b`;
const SECRET_PATH = String.raw`(?:~?/?\.ssh\b|id_rsa|id_ed25519|id_ecdsa|\.aws/|aws/credentials|\.env\b|\.npmrc|\.netrc|\.git-credentials|\.pypirc|\.docker/config|/etc/passwd|/etc/shadow|\.kube/config|kubeconfig|\.gnupg|keychain|\.config/gh/hosts)`;
/** A secrets file as the thing copied: `.env` itself (`.env.example` is a template, and `cp .env.example .env` is setup). */
const COPIED_SECRET = String.raw`(?:[\w~./-]*\/)?(?:\.env(?:\.(?:local|prod|production|staging|development|dev|test))?(?![\w.-])|id_rsa|id_ed25519|id_ecdsa|\.ssh\/|\.aws\/credentials|\.npmrc|\.netrc|\.git-credentials|\.pypirc|\.docker\/config\.json|\.kube\/config|kubeconfig|[\w.-]*\.pem\b|[\w.-]*\.key\b|credentials\.json|secrets?\.(?:json|ya?ml|txt|env))`;
const NET_SINK = String.raw`(?:curl|wget|nc|ncat|netcat|socat|telnet|http|https|scp|rsync|ftp|sendmail|mail)\b`;
const SECRET_WORD = String.raw`(?:env(?:ironment)?(?: variables?| vars?)?|secrets?|credentials?|api[ _-]?keys?|tokens?|passwords?|private keys?|ssh keys?|\.env(?: file)?|cookies?|session ids?|aws keys?)`;
const EXFIL_DEST = String.raw`(?:https?://|webhook|endpoint|collector|analytics|third[- ]party|tracking|telemetry|remote server|external server|server at|url\b|pastebin|discord|telegram|gist|ngrok|requestbin|pipedream|an? (?:email|e-mail)|dashboard|issue(?: tracker)?|tracker|channel|chat|forum|comment|pull request|pr description|slack)`;
/** The environment or a secret's value, as a rule would name it ("the env vars", "the output of `printenv`", "$API_TOKEN"). */
const SHAREABLE_SECRET = String.raw`(?:(?:values?|contents?|output|dump) of [^.;\n]{0,20})?(?:environment(?: variables?)?|env(?:ironment)?(?: vars?| variables?)|\benv\b|printenv|\$\{?[a-z_]*(?:secret|token|api_?key|password|passwd|credential|private_?key|access_?key)[a-z_]*\}?|\x60?[a-z]+_[a-z_]*(?:secret|token|api_?key|password|passwd|credential|private_?key|access_?key)[a-z_]*\x60?|(?:api|secret|access|private|ssh|deploy|signing) keys?|(?:access |auth |api )?tokens?|secrets?|credentials|passwords?|\.env\b)`;
/** Places others read: a pull request and its parts, issues, comments, commit messages, release notes, chat, URLs. */
const READ_BY_OTHERS = String.raw`(?:(?:every|each|all|the|a|an|any|new) )?(?:pull requests?|prs?\b|pr (?:descriptions?|bod(?:y|ies)|comments?|titles?)|issues?|(?:issue |review )?comments?|commit messages?|changelogs?|release notes|bug reports?|discussions?|wikis?|gists?|slack|chat|(?:build |ci )?logs?\b|urls?\b|query strings?)`;

/** Build output and caches: `rm -rf dist` is cleanup, not destruction. */
const DISPOSABLE =
  /^["']?(?:\.\/)?(?:dist|build|out|target|coverage|node_modules|\.next|\.nuxt|\.turbo|\.cache|\.parcel-cache|\.vite|tmp|temp|\.tmp|__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.gradle|bin|obj|lib|es|cjs|esm|storybook-static|\.svelte-kit|\.expo|\.venv|venv|\.tox|\.nyc_output|\.angular|\.eslintcache|\.tsbuildinfo|[\w.-]*\.tsbuildinfo|\/tmp\/[\w./-]+|\$\{?tmpdir\}?[\w./-]*|packages\/\*\/(?:dist|build|node_modules))(?:\/[\w.*-]*)?\/?["']?$/;

function rmTargetsAreDisposable(match: string): boolean {
  const words = match
    .replace(/^rm\s+(?:-{1,2}[\w-]+\s+)+/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  // Targets run until the prose resumes: a plain word after the first target ("rm -rf dist to start clean").
  const end = words.findIndex((w, i) => i > 0 && /^[a-z]+$/.test(w) && !DISPOSABLE.test(w));
  const targets = end < 0 ? words : words.slice(0, end);
  return targets.length > 0 && targets.every((t) => DISPOSABLE.test(t));
}

/** `sudo` where it is the normal way in: a container, a Dockerfile, a CI image, a VM. */
const CONTAINER =
  /\b(?:docker(?:file)?|container|devcontainer|codespaces?|podman|ci (?:image|runner|job)|github actions runner|vm|virtual machine|chroot|vagrant)\b/;

/** A force push onto one's own branch (`--force-with-lease`, "your feature branch") keeps others' work. */
const SHARED = /\b(?:main|master|develop|trunk|release|prod(?:uction)?|shared|everyone'?s?|upstream)\b/;
/** Names a shared branch as the target, not in a trailing "never a shared one". */
const namesSharedBranch = (m: string) => SHARED.test(m.replace(/,?\s*\b(?:never|not|but not|except)\b.*$/, ''));

export const RISK_PATTERNS: readonly RiskPattern[] = [
  // Remote code execution: something fetched from the network runs without being read.
  {
    kind: 'remote-code',
    re: new RegExp(String.raw`\b${FETCH}\b[^|\n]{0,300}\|\s*${SHELL}`),
    reason: 'pipes a download into a shell or interpreter',
  },
  {
    kind: 'remote-code',
    re: new RegExp(String.raw`\b(?:(?:ba|z|k)?sh|source|\.)\s+(?:-s\s+)?<\s*\(\s*${FETCH}\b`),
    reason: 'runs a download through process substitution',
  },
  {
    kind: 'remote-code',
    re: new RegExp(
      String.raw`\b(?:eval|exec|(?:ba|z)?sh\s+-c|python[0-9.]*\s+-c|node\s+-e)\s*\(?\s*["']?\$\(\s*${FETCH}\b`,
    ),
    reason: 'evaluates the output of a download',
  },
  {
    kind: 'remote-code',
    re: new RegExp(String.raw`(?:^|[;&|]\s*|\b(?:execute|run|eval|call)\s+)\$\(\s*${FETCH}\b`),
    reason: 'runs the output of a download as a command',
  },
  {
    kind: 'remote-code',
    re: new RegExp(
      String.raw`<<<\s*["']?\$\(\s*${FETCH}\b|\b(?:source|\.)\s+\/dev\/stdin\b|\b(?:run|execute|install|use)\b[^.;\n]{0,60}\bfrom (?:a |the )?(?:gist|pastebin|paste)\b`,
    ),
    reason: 'runs code straight from a download or a paste',
  },
  {
    kind: 'remote-code',
    re: /\b(?:iex|invoke-expression)\b[^\n]{0,40}\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|net\.webclient|downloadstring)|downloadstring\s*\(/,
    reason: 'evaluates a downloaded PowerShell script',
  },
  {
    kind: 'remote-code',
    re: new RegExp(
      String.raw`\bbase64\s+(?:-d|--decode|-D)\b[^\n]{0,200}\|\s*${SHELL}|frombase64string[^\n]{0,200}\b(?:iex|invoke-expression)\b|\b(?:exec|eval)\s*\(\s*(?:base64\.b64decode|atob|buffer\.from\([^)]*base64)`,
    ),
    reason: 'decodes and executes hidden code',
  },
  {
    kind: 'remote-code',
    re: new RegExp(
      String.raw`\b(?:curl|wget)\b[^\n;&|]{0,200}(?:\s-o\s*\S+|\s--output\s+\S+|\s-O\b)[^\n]{0,40}(?:&&|;)\s*(?:sudo\s+)?(?:chmod\s+\+x|(?:ba|z)?sh\s|\.\/|python[0-9.]*\s|node\s)`,
    ),
    reason: 'downloads a program and runs it',
  },
  {
    kind: 'remote-code',
    re: /\b(?:exec|eval)\s*\(\s*(?:urllib|requests\.get|urlopen|fetch\()/,
    reason: 'executes code fetched from the network',
  },
  {
    kind: 'remote-code',
    re: /\b(?:pipe[sd]?|piping|feed|pass)\b[^.;\n]{0,30}\b(?:to|into|through)\s+(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:download|fetch|grab|get|pull)\b[^.;\n]{0,80}(?:https?:\/\/\S+|\bscript\b|\binstaller\b)[^.;\n]{0,60}\b(?:and|then)\s+(?:run|execute|pipe|source|eval)\b(?! it by hand)/,
    reason: 'runs a downloaded script unread',
  },
  {
    kind: 'remote-code',
    re: /["']?(?:preinstall|postinstall)["']?\s*:\s*["']|\b(?:add|create|insert|put|register|define|write|set up)\b[^.;\n]{0,40}\b(?:pre|post)install\b|\bnpm\s+config\s+set\s+ignore-scripts\s+false|--unsafe-perm\b|\bignore-scripts\s*=\s*false/,
    reason: 'adds or enables an install script (code that runs on every install)',
  },
  {
    kind: 'remote-code',
    re: /\b(?:npm|pnpm|yarn|bun)\s+(?:i|install|add)\b[^\n;&|]{0,120}\s(?:https?:\/\/|git\+|github:)\S+|\b(?:pip3?|uv\s+pip|pipx)\s+install\b[^\n;&|]{0,120}\s(?:https?:\/\/|git\+)\S+/,
    reason: 'installs a package from a URL instead of the registry',
  },

  {
    kind: 'remote-code',
    re: /\b(?:node_options\s*=\s*["']?[^"'\n]{0,80}?(?:--require|--import|--loader|--experimental-loader|(?:^|\s|["'=])-r)\b|(?:ld_preload|ld_library_path|ld_audit|dyld_insert_libraries|dyld_library_path|dyld_framework_path|pythonstartup|pythonpath|pythonhome|perl5opt|perl5lib|perllib|rubyopt|rubylib|bash_env|java_tool_options|_java_options|jdk_java_options|node_path|gconv_path|lua_init)\s*=)/,
    reason: 'sets a preload or loader variable (code that runs inside every program started after it)',
  },
  {
    kind: 'remote-code',
    re: /\bgit\s+(?:-c\s+)?config\b[^\n;&|]{0,40}\bcore\.hookspath\b(?:\s*=\s*|\s+)["']?([^\s"';&|]+)|\bcore\.hookspath\s*=\s*["']?([^\s"';&|]+)/,
    reason: "points git's hooks at a folder outside the repository (code that runs on every commit)",
    // the team's own hooks folder in the repository (`.githooks`, `.husky`) is how hooks are shared
    acceptable: (m) => {
      const path = /hookspath\b(?:\s*=\s*|\s+)["']?([^\s"';&|]+)/.exec(m)?.[1] ?? '';
      return (
        path !== '' && !/^(?:[/~$\\]|[a-z]:)/.test(path) && !path.split(/[\\/]/).includes('..') && path !== '/dev/null'
      );
    },
  },

  // Exfiltration: the environment, keys or files leave the machine, or land where they get committed.
  {
    kind: 'exfiltration',
    re: new RegExp(
      String.raw`\b(?:env|printenv|set|export\s+-p|cat\s+/proc/self/environ)\s*\|\s*(?:base64\s*\|\s*)?${NET_SINK}`,
    ),
    reason: 'sends the environment to the network',
  },
  {
    kind: 'exfiltration',
    re: new RegExp(
      String.raw`\b(?:curl|wget|http|https)\b[^\n]{0,200}(?:-d|--data(?:-binary|-raw|-urlencode)?|-f|--form|-t|--upload-file|--post-file|--body-file)\b[^\n]{0,40}${SECRET_PATH}`,
    ),
    reason: 'uploads a key or credentials file',
  },
  {
    kind: 'exfiltration',
    re: new RegExp(
      String.raw`\b(?:cat|tar|zip|base64|type|get-content)\b[^|\n]{0,100}${SECRET_PATH}[^|\n]{0,100}\|\s*(?:base64\s*\|\s*)?${NET_SINK}`,
    ),
    reason: 'pipes a key or credentials file to the network',
  },
  {
    kind: 'exfiltration',
    re: new RegExp(
      String.raw`\b(?:curl|wget)\b[^\n]{0,200}(?:[?&/=]|-d\s+["']?|--data\S*\s+["']?)\$\{?(?:env\b|[a-z_]*(?:secret|token|api_?key|password|passwd|credential|private_?key|access_?key)[a-z_]*)`,
    ),
    reason: 'puts a secret variable into a request URL or body',
  },
  {
    kind: 'exfiltration',
    re: new RegExp(
      String.raw`\b(?:send|post|upload|forward|transmit|exfiltrate|share|leak|submit|pipe|email|mail|report)\b[^.;\n]{0,60}\b${SECRET_WORD}\b[^.;\n]{0,80}\b(?:to|into|at)\b[^.;\n]{0,40}${EXFIL_DEST}`,
    ),
    reason: 'sends secrets or the environment somewhere',
  },
  {
    kind: 'exfiltration',
    re: new RegExp(
      String.raw`\b(?:upload|send|post|share|copy|attach|paste|forward|append|include|add)\b[^.;\n]{0,30}${SECRET_PATH}[^.;\n]{0,60}\b(?:to|into|at|on|in)\b`,
    ),
    reason: 'sends a key or credentials file somewhere',
    acceptable: (_m, text) => /\.?\b(?:git|docker|npm|eslint|prettier|vscode)?ignore\b/.test(text),
  },
  {
    kind: 'exfiltration',
    re: /\b(?:ssh|private|api|deploy|access|secret|signing) keys?\b[^.;\n]{0,60}\b(?:include|put|paste|add|write|embed|post|append)\b[^.;\n]{0,20}\b(?:in|into|to)\b[^.;\n]{0,10}\b(?:the )?(?:commit messages?|pr descriptions?|pull requests?|issues?|readme|changelog|logs?|comments?|chat)\b/,
    reason: 'puts a key where others can read it',
  },
  {
    kind: 'exfiltration',
    re: new RegExp(
      String.raw`\b(?:put|include|paste|add|write|append|attach|post|copy|dump|print|echo|embed|insert|share|mention|report|disclose|reveal|expose|leak)\b[^.;\n]{0,20}${SHAREABLE_SECRET}[^.;\n]{0,40}\b(?:in|into|to|on|as|with)\b[^.;\n]{0,20}${READ_BY_OTHERS}`,
    ),
    reason: 'puts the environment or a secret where others read it (a pull request, an issue, a comment, a commit)',
  },
  {
    kind: 'exfiltration',
    re: /\b(?:echo|print|printf|cat|log|console\.log|write-host)\b[^|;\n]{0,20}\$\{?(?:env:)?[a-z_]*(?:token|secret|password|passwd|api_?key|private_?key|credential)[a-z_]*\}?/,
    reason: 'prints a secret where it is logged',
  },
  {
    kind: 'exfiltration',
    re: /\b(?:print|dump|list|echo|show|collect|gather)\b[^.;\n]{0,15}\b(?:all |every )?(?:the )?(?:environment variables|env vars|secrets|credentials)\b[^.;\n]{0,40}\b(?:paste|post|send|upload|share|include|attach|put)\b/,
    reason: 'collects the environment to share it',
  },
  {
    kind: 'exfiltration',
    re: /\b(?:webhook\.site|requestbin|pipedream\.net|ngrok\.(?:io|app)|burpcollaborator|interact\.sh|oast\.(?:fun|pro|live|site|online|me)|canarytokens)\b/,
    reason: 'points at a request-capture service',
  },
  {
    kind: 'exfiltration',
    re: /(?:\bgit\s+add\s+(?:-f\s+|--force\s+)?|\b(?:commit|check in|push)\b)[^.;\n]{0,30}(?:\.env(?:\.(?:local|production|prod))?\b(?!\.(?:example|sample|template))|\bsecrets?\.(?:json|ya?ml|txt)|\bcredentials\b|\bapi[ _-]?keys?\b|\bprivate keys?\b|\bid_rsa\b|\baccess tokens?\b)/,
    reason: 'commits secrets to the repository',
  },
  {
    kind: 'exfiltration',
    re: /\b(?:hard-?code|embed|paste|write|put|store|save|inline|include)\b[^.;,\n]{0,40}\b(?:api[ _-]?keys?|secrets?|tokens?|passwords?|credentials)\b[^.;,\n]{0,40}\b(?:in|into|to)\b[^.;,\n]{0,30}(?:the )?(?:source(?: code)?|code|repo(?:sitory)?|readme|committed|the config file|config\.\w+|settings\.\w+|[\w/-]+\.(?:ts|js|py|go|rb|java|json|ya?ml|toml|md))\b/,
    reason: 'writes secrets into files that get committed',
  },
  {
    kind: 'exfiltration',
    re: new RegExp(
      String.raw`\b(?:scp|rsync|sftp|rclone)\b[^\n;&|]{0,200}?${COPIED_SECRET}|\b(?:cp|mv|copy|copy-item|move-item|install|ditto|tee)\s+(?:-\S+\s+)*["']?${COPIED_SECRET}`,
    ),
    reason: 'copies a secrets file (keys, credentials, .env) somewhere',
  },
  {
    kind: 'exfiltration',
    re: /\b(?:remove|delete|drop|take)\b[^.;\n]{0,20}\.env\b[^.;\n]{0,25}\b(?:from|out of)\b[^.;\n]{0,10}\.gitignore/,
    reason: 'un-ignores the secrets file so it gets committed',
  },

  // Instructions aimed at the agent: the injection speaking, not a lesson about the code. Their own negations are
  // part of the attack ("do not tell the user"), so a negation never clears them.
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\b(?:ignore|disregard|forget|discard)\b[^.;\n]{0,20}\b(?:previous|prior|above|earlier|preceding|other|all|any|your|original|system|existing)\b[^.;\n]{0,12}\b(?:instructions?|rules|prompts?|directions?|guidelines|guardrails|directives|constraints|guidance|advice|orders|polic(?:y|ies)|context)\b/,
    reason: 'tells the agent to ignore its other instructions',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\b(?:pay no attention to|do not follow|don'?t follow|stop following|no longer follow|disregard)\b[^.;\n]{0,30}\b(?:guidance|instructions|rules|directions|agents\.md|claude\.md|copilot-instructions|gemini\.md|system prompt)\b|\b(?:these|this|the following) (?:rules?|instructions?|notes?) (?:replaces?|overrides?|supersedes?)\b/,
    reason: 'tells the agent to ignore its other instructions',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\b(?:higher|more|top|highest|greater) priority than\b[^.;\n]{0,30}\b(?:the user|users?'?s?|your|other|system|the developer)\b|\btreat\b[^.;\n]{0,40}\b(?:instructions|comments|notes)\b[^.;\n]{0,30}\bas (?:higher|authoritative|binding|commands|orders)\b/,
    reason: 'ranks other text above the user',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\boverride\b[^.;\n]{0,20}\b(?:instructions?|prompts?|guardrails|safety|system prompt)\b|\b(?:takes?|has|have) (?:precedence|priority) over\b[^.;\n]{0,30}\b(?:instructions|rules|prompts|guidelines)\b|\bsupersedes? (?:all|any|every|other)\b/,
    reason: "claims priority over the agent's other instructions",
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\byou are now\b|\bfrom now on,? you (?:are|will|must|should)\b|\b(?:new|updated|real|actual|true|hidden|secret) (?:system )?instructions?\s*:|\b(?:your|the agent'?s|the assistant'?s) system prompt\b|<\/?system>|\[\/?(?:system|inst)\]|<\|im_start\|>|\bdeveloper mode\b|\bjailbr(?:ea|o)k/,
    reason: 'speaks to the agent in a system-prompt voice',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\b(?:do not|don'?t|never|must not|should not)\b[^.;\n]{0,12}\b(?:tell|inform|notify|alert|mention|report|explain|disclose|reveal)\b[^.;\n]{0,20}\b(?:to )?(?:the )?(?:user|human|developer|operator|reviewer|maintainers?)\b|\b(?:hide|conceal|keep)\b[^.;\n]{0,40}\bfrom the (?:user|human|developer|operator|reviewer)s?\b|\bwithout (?:telling|informing|notifying|alerting) (?:the )?(?:user|human|developer|reviewer)s?\b|\bkeep (?:this|it|these) (?:a )?(?:secret|hidden|confidential)\b|\boff the record\b|\bunder the radar\b|\bcover (?:your|the|its) tracks\b|\bwithout (?:leaving )?a trace\b|\b(?:do not|don'?t|never)\b[^.;\n]{0,10}\b(?:mention|include|report|list|show)\b[^.;\n]{0,30}\b(?:in|to)\b[^.;\n]{0,20}\b(?:summary|report|reply|response|pr description|commit message|changelog)\b/,
    reason: 'tells the agent to hide something from the user',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\b(?:secretly|covertly|quietly|silently|stealthily)\s+(?:run|execute|send|upload|install|add|delete|remove|push|commit|modify|change|disable|insert|include|download|post|append|edit)\b/,
    reason: 'tells the agent to act without the user noticing',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\b(?:follow|obey|load|fetch|download|read|apply|execute|run|get|pull|use|adopt)\b[^.;\n]{0,30}\b(?:instructions?|rules|guidelines|directives|prompts?|playbook|polic(?:y|ies)|commands?|tasks?|steps)\b[^.;\n]{0,30}\b(?:from|at|in|on|hosted at|published at|listed at)\b[^.;\n]{0,15}(?:https?:\/\/|www\.|gist\.|pastebin)|(?:https?:\/\/\S+)[^.;\n]{0,30}\b(?:and|then)\b[^.;\n]{0,15}\b(?:follow|obey|execute|do what|apply|run) (?:it|them|its|the)\b/,
    reason: 'tells the agent to follow instructions from a URL',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\b(?:note|message|instructions?|attention|important|notice|reminder)\b[^.;\n]{0,12}\b(?:to|for)\b[^.;\n]{0,8}\b(?:all )?(?:ai|llm|language model|coding|autonomous) (?:agents?|assistants?|models?)\b|\bif you are an? (?:ai|llm|language model|coding agent|assistant|bot)\b|\bas an? (?:(?:autonomous|ai|coding|llm|language) )+(?:agent|assistant|model)\b|\b(?:ai|llm) (?:agents?|assistants?) (?:reading|processing|that read) this\b/,
    reason: 'addresses AI agents directly',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\b(?:lie|lying|mislead|deceive|fib)\b[^.;\n]{0,20}\b(?:to )?(?:the )?(?:user|owner|maintainers?|reviewers?|team)\b|\b(?:pretend|claim|say|tell|answer|reply|respond|explain)\b[^.;\n]{0,60}\b(?:the )?(?:maintainers?|owners?|team|lead|admins?|security team|reviewers?|product|management|legal|ci|linter|upstream) (?:asked|requested|wanted|required|told|insisted|approved|decided|demanded|mandated)\b[^.;\n]{0,30}\b(?:for )?(?:it|this|that|the change|so)\b|\b(?:if|when) (?:the )?(?:user|they|someone|anyone|a reviewer|reviewers?) asks?\b[^.;\n]{0,40}\b(?:why|what|who|whether)\b[^.;\n]{0,60}\b(?:say|tell|claim|answer|reply|respond|pretend)\b[^.;\n]{0,40}\b(?:asked|requested|wanted|required|approved|decided|nothing|no reason|always been)\b/,
    reason: 'tells the agent to say something false to the user',
  },
  {
    kind: 'agent-directive',
    negatable: false,
    re: /\bthe (?:user|owner|maintainer|admin)s? (?:has|have) (?:already )?(?:pre-?)?(?:approved|authorized|authorised|consented|granted)\b/,
    reason: 'claims the user already approved',
  },

  // Disabling checks: hooks, tests, linters, type checks, audits, TLS verification.
  {
    kind: 'disables-checks',
    re: /\bhooks? (?:are |get |is )?(?:bypassed|skipped|disabled|turned off)\b|\bthe -n flag\b[^.;\n]{0,30}\b(?:commit|hooks?)\b|--no-verify\b|\bhusky(?:_skip_hooks)?\s*=\s*(?:0|1|true|false)\b|\bcore\.hookspath\s*(?:=|\s)\s*\/dev\/null|\bgit\s+commit\b[^;&|\n"']{0,60}\s-[a-z]*n[a-z]*\b|\b(?:skip|disable|bypass|turn off|remove|uninstall|delete|comment out|deactivate|silence|avoid)\b[^.;\n]{0,20}\b(?:pre-?commit|pre-?push|commit-msg|commit|git|husky|lint-staged)(?: hooks?| checks?)\b/,
    reason: 'skips the git hooks',
  },
  {
    kind: 'disables-checks',
    re: /\b(?:it|describe|test|context|suite)\.skip\b|\bx(?:it|describe|test)\s*\(|@pytest\.mark\.(?:skip|xfail)\b|\bpytest\.skip\(|@unittest\.skip|@(?:ignore|disabled)\b|\bt\.skip\(|#\[ignore\]|-dskiptests\b|\bmaven\.test\.skip\b|--skip-tests?\b|--no-tests?\b|\b(?:skip|disable|comment out|turn off|bypass|silence|mute|delete the assertions? (?:in|of))\b[^.;\n]{0,25}\b(?:the )?(?:(?:failing|flaky|broken|slow|e2e|unit|integration|red|new) )*(?:tests?|specs?|test suite|ci checks?|ci|checks)\b|\b(?:mark|make)\b[^.;\n]{0,20}\b(?:tests?|specs?)\b[^.;\n]{0,10}\b(?:as )?(?:skipped|pending|todo)\b|\b(?:comment out|delete|remove|loosen|weaken)\b[^.;\n]{0,30}\b(?:assertions?|expects?|expectations)\b|\b(?:wrap|catch)\b[^.;\n]{0,30}\b(?:assertions?|expects?)\b[^.;\n]{0,30}\b(?:try|catch|ignore)|\b(?:ignore|swallow|suppress|silence)\b[^.;\n]{0,12}\b(?:the )?(?:test |assertion )?failures?\b/,
    reason: 'skips or disables tests',
  },
  {
    kind: 'disables-checks',
    re: /\bskip_?(?:tests?|checks?|hooks?|lint|ci|verify|audit)\s*=\s*(?:1|true|yes)\b|\[(?:skip ci|ci skip|no ci|skip actions)\]/,
    reason: 'skips tests or CI',
  },
  {
    kind: 'disables-checks',
    re: /\b(?:test|tests|lint|check|tsc|eslint|pytest|jest|vitest|mocha|cargo test|go test|typecheck)\b[^|;\n]{0,60}\|\|\s*(?:true|exit 0|:)(?:\s|$)|\bcontinue-on-error\s*:\s*true\b|\ballow_failure\s*:\s*true\b|--exit-zero\b/,
    reason: 'makes failing checks pass',
  },
  {
    kind: 'disables-checks',
    re: /@ts-(?:ignore|nocheck)\b|\/\*\s*eslint-disable\s*\*\/|\b(?:add|use|put|insert|sprinkle)\b[^.;\n]{0,20}\beslint-disable\b(?!-next-line [a-z@])|#\s*type:\s*ignore\b|#\s*noqa\b(?!:)|pylint:\s*disable\s*=\s*all|--no-lint\b|--skip-lint\b|["']?strict["']?\s*:\s*false\b|\b(?:strict|noimplicitany|strictnullchecks|noimplicitreturns|strictfunctiontypes|alwaysstrict|noemitonerror|strictpropertyinitialization)\b[^.;\n]{0,50}\b(?:to|=|:)\s*["']?false\b|\bignore(?:build|during)?(?:errors|builds)\s*:\s*true\b|--no-typecheck\b|--nocheck\b|\b(?:disable|turn off|skip|bypass|remove|silence|deactivate)\b[^.;\n]{0,20}\b(?:the )?(?:linter|linting|lint|eslint|prettier checks?|type ?check(?:s|ing|er)?|typescript(?: strict(?: mode)?)?|strict mode|mypy|ruff|flake8|pylint|clippy|rubocop|static analysis|code scanning|codeql|sonar\w*)\b/,
    reason: 'disables linting or type checks',
  },
  {
    kind: 'disables-checks',
    re: /--no-audit\b|\baudit\s*=\s*false\b|--ignore-vulnerabilities\b|\b(?:skip|disable|turn off|ignore|bypass|silence|suppress)\b[^.;\n]{0,20}\b(?:npm |security |the |dependency )?(?:audits?|vulnerabilit(?:y|ies)(?: warnings| alerts)?|dependabot(?: alerts)?|snyk|security (?:checks?|scan(?:s|ning)?|warnings?))\b/,
    reason: 'skips the security audit',
  },
  {
    kind: 'disables-checks',
    re: /\bnode_tls_reject_unauthorized\s*=\s*["']?0|\bcurl\b[^\n|;]{0,200}\s(?:-[a-z]*k[a-z]*|--insecure)\b|--no-check-certificate\b|\bverify\s*=\s*false\b|\bstrict-ssl\s*(?:=|\s)\s*false\b|\bgit_ssl_no_verify\s*=\s*(?:1|true)\b|\bsslverify\s*(?:=|\s|:)\s*false\b|\brejectunauthorized\s*:\s*false\b|\binsecureskipverify\s*:\s*true\b|\bpythonhttpsverify\s*=\s*0\b|--trusted-host\b|\bssl_verify\s*[:=]\s*false\b|--insecure-skip-tls-verify\b|--(?:cert|cacert|ca-certificate)\s+\/dev\/null\b|\b(?:verify_?ssl|ssl_?verify|verify_?tls|tls_?verify|check_?certificates?|verify_?certs?|verify_?certificates?)\s*[:=]\s*["']?(?:false|0|no|off)\b|\b(?:disable|skip|bypass|ignore|turn off)\b[^.;\n]{0,15}\b(?:tls|ssl|https|certificate|cert)(?: (?:verification|validation|checks?|errors?))\b/,
    reason: 'turns off TLS certificate verification',
  },

  // Widening permissions or auto-approval.
  {
    kind: 'permissions',
    re: /--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--yolo\b|\byolo mode\b|--full-auto\b|--allow-all-tools\b|--auto-?approve\b|--trust-all-tools\b|\bbypasspermissions\b|\bapproval[_-]?policy\b[^\n]{0,10}\bnever\b|\bask[_-]for[_-]approval\b[^\n]{0,5}\bnever\b|\bdanger-full-access\b|--sandbox\s+(?:none|off)\b|\bauto-?approve\b|\balwaysallow\b|\bautoapprove\b|["']defaultmode["']\s*:\s*["'](?:bypasspermissions|acceptedits)/,
    reason: "widens the agent's permissions or auto-approves its actions",
  },
  {
    kind: 'permissions',
    re: /\bpermissions\.allow\b|\ballowed[_-]?tools\b/,
    reason: "widens the agent's allow-list",
    acceptable: (_m, text) =>
      /\b(?:limited to|restricted to|no more than|only to)\b/.test(text) && !/\*|\b(?:all|any|every)\b/.test(text),
  },
  {
    kind: 'permissions',
    re: /\bact as (?:the |an? )?(?:repository |repo |project |org(?:anization)? )?(?:owner|admin|administrator|maintainer|root|superuser)\b|\bapprove (?:your|its|their) own (?:pull requests|prs|changes|merge requests)\b|\b(?:merge|push|deploy|release)\b[^.;\n]{0,20}\bwithout (?:a )?(?:review|approval|reviewers)\b/,
    reason: "bypasses review or takes the owner's role",
  },
  {
    kind: 'permissions',
    re: /\bchmod\s+(?:-r\s+)?(?:0?777|666|a\+rwx|ugo\+rwx|o\+w|a\+w|[ugo]*\+s)\b/,
    reason: 'makes files writable by everyone (chmod 777)',
  },
  {
    kind: 'permissions',
    re: /\bsudo\b/,
    reason: 'runs commands as root (sudo)',
    acceptable: (_m, text) => CONTAINER.test(text),
  },
  {
    kind: 'permissions',
    re: /\bwithout (?:asking|prompting|waiting for|requesting|needing|checking with) (?:the user|for (?:permission|confirmation|approval)|permission|confirmation|approval|anyone)\b|\bwithout (?:a |any )?(?:prompts?|confirmations?|approvals?)\b|["']allow["']\s*:\s*\[\s*["']\*|\bworld[- ]writable\b|\bwritable by (?:every|all|any)(?:one| users?)\b|\bsudoers\b|\bnopasswd\b|\b(?:automatically approve|approve (?:all|every|any)|auto-accept)\b|\b(?:allow|permit|whitelist|allowlist|trust)\b[^.;\n]{0,20}\b(?:all|any|every)\b[^.;\n]{0,20}\b(?:commands?|tools?|shell commands|network access|domains?|hosts?|actions)\b|\badd\b[^.;\n]{0,40}\bto (?:the )?(?:allow-?list|whitelist|allowed tools|permissions(?: allow)?)\b|\b(?:disable|turn off|escape|bypass)\b[^.;\n]{0,10}\b(?:the )?sandbox\b|--privileged\b|\bsetenforce\s+0\b|\b(?:unrestricted|unlimited|full)\b[^.;\n]{0,15}\b(?:shell |system |root |file ?system |network |disk )?access\b|\ballow(?:ing|s)? (?:every|all|any) (?:shell )?(?:commands?|tools?)\b/,
    reason: "widens the agent's permissions or auto-approves its actions",
  },
  {
    kind: 'permissions',
    re: /\b(?:run|execute|start)\b[^.;\n]{0,25}\bas (?:root|administrator|admin|superuser)\b/,
    reason: 'runs commands as root',
    acceptable: (_m, text) => CONTAINER.test(text),
  },

  // Destructive: force pushes, deleting tests or data, discarding work.
  {
    kind: 'destructive',
    re: /\bgit\s+push\b[^\n;&|]{0,80}?(?:\s--force\b(?!-with-lease|-if-includes)|\s-f\b|\s\+[\w/-]+)/,
    reason: "force-pushes, overwriting others' commits",
    acceptable: (m) => /\b(?:instead of|rather than|not|never)\s+(?:git\s+push\s+)?(?:--force|-f)\b/.test(m),
  },
  {
    kind: 'destructive',
    re: /\bgit\s+push\b[^\n;&|]{0,80}--force-with-lease\b[^\n;&|]{0,60}/,
    reason: 'force-pushes a shared branch',
    acceptable: (m) => !namesSharedBranch(m),
  },
  {
    kind: 'destructive',
    re: /\bforce[- ]push(?:es|ed|ing)?\b[^.;\n]{0,60}/,
    reason: "force-pushes, overwriting others' commits",
    acceptable: (m) =>
      /\b(?:your own|own|feature|personal|topic|your|pr|fix)\b[^.;\n]{0,15}\bbranch/.test(m) && !namesSharedBranch(m),
  },
  {
    kind: 'destructive',
    re: /\b(?:overwrite|replace|clobber|rewrite)\b[^.;\n]{0,30}\b(?:the )?(?:remote|origin|upstream|shared|main|master)\b[^.;\n]{0,30}\b(?:branch|history|commits)\b|\bpush(?:es|ing)? (?:directly |straight )?to (?:production|prod)\b/,
    reason: 'overwrites shared history or ships without review',
  },
  {
    kind: 'destructive',
    re: /\brm\s+(?:-{1,2}[\w-]+\s+)*(?:-[a-z]*r[a-z]*f[a-z]*|-[a-z]*f[a-z]*r[a-z]*|--recursive\s+--force|--force\s+--recursive|-r\s+-f|-f\s+-r)(?:\s+-{1,2}[\w-]+)*(?:\s+[^\s;&|)]+)+/,
    reason: 'deletes files recursively',
    acceptable: rmTargetsAreDisposable,
  },
  {
    kind: 'destructive',
    re: /\bgit\s+reset\s+--hard\b|\bgit\s+clean\s+-[a-z]*f[a-z]*d|\bgit\s+checkout\s+(?:--\s+)?\.\s*$|\bgit\s+branch\s+-d\s+(?:main|master|develop|trunk)\b|\bgit\s+push\s+\S+\s+(?:--delete\s+|:)(?:main|master|develop|trunk)\b|\bgit\s+filter-(?:branch|repo)\b/,
    reason: 'discards work or rewrites shared history',
  },
  {
    kind: 'destructive',
    re: /\bdrop\s+(?:table|database|schema|collection)\b|\btruncate\s+table\b|\btruncate\b[^.;\n]{0,25}\btables?\b|\bdelete\s+from\s+\w+\s*(?:;|$)|\bprisma\s+migrate\s+reset\b|\bdb:(?:drop|reset)\b|\bdropdb\b|\bflushall\b|\bflushdb\b|--accept-data-loss\b|\bterraform\s+destroy\b|\bkubectl\s+delete\b[^;&|\n]{0,60}(?:--all\b|\bns\b|\bnamespaces?\b|\bprod(?:uction)?\b)|\bmkfs\b|\bdd\s+[^\n]{0,60}of=\/dev\//,
    reason: 'drops data',
  },
  {
    kind: 'destructive',
    re: /\b(?:delete|remove|drop|wipe|erase|purge|rm)\b[^.;\n]{0,25}\b(?:the )?(?:(?:failing|flaky|broken|old|existing|all|red) )*(?:tests?|test files?|specs?|test suites?|test cases?)\b(?! (?:for|of) (?:the )?(?:removed|deleted|dead))|\b(?:delete|wipe|drop|erase|purge|destroy)\b[^.;\n]{0,25}\b(?:the )?(?:(?:production|prod|user|customer|all|existing) )*(?:data(?:bases?)?|db|tables?|records|backups?|volumes?|migrations|schemas?)\b|\brecreate\b[^.;\n]{0,20}\b(?:the )?(?:schema|database|db|tables)\b[^.;\n]{0,20}\bfrom scratch\b/,
    reason: 'deletes tests or data',
  },
];

/** A negation governing the match ("never", "do not", "instead of"), unless it negates something else first. */
export const NEGATION =
  /\b(?:never|don'?t|do not|dont|avoid(?:ing)?|must not|mustn'?t|should not|shouldn'?t|cannot|can'?t|no longer|stop|instead of|rather than|forbid(?:den)?|prohibit(?:ed)?|not|no)\b(?!\s+(?:forget|hesitate|fail|skip|omit|neglect|miss|wait|worry|mind|need to ask|bother)\b)/;

/** Where a clause starts: a sentence end, a semicolon, a comma, a colon, or a joining word. */
export const CLAUSE_BREAK = /(?:[.;!?,:](?:\s|$)|\s(?:but|then|and then|however|otherwise)\s)/g;
