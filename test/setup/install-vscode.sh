#!/usr/bin/env bash
# Installs what the real-VS-Code test layers need: Debian chromium + ripgrep and code-server 4.100.3
# (VS Code 1.100.3, the last line that runs on Node 20). Idempotent; cached outside the repo.
set -euo pipefail
CACHE="${COMBEE_E2E_CACHE:-$HOME/.cache/combee-e2e}"
CS_VERSION=4.100.3
CS_DIR="$CACHE/code-server-$CS_VERSION"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"

fail() { echo "install-vscode: $*" >&2; exit 1; }

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
# kerberos (a native module of VS Code's server) builds from source here and needs the GSSAPI headers
[ -e /usr/include/gssapi/gssapi.h ] || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing Debian packages (${need_apt[*]}); run as root or install them: apt-get install -y ${need_apt[*]}"
  command -v apt-get >/dev/null 2>&1 || fail "missing ${need_apt[*]} and no apt-get to install them"
  echo "install-vscode: apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${need_apt[@]}" >/dev/null 2>&1 \
    || { apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends "${need_apt[@]}" >/dev/null; } \
    || fail "apt-get could not install ${need_apt[*]} (no Debian mirror reachable?)"
fi

if [ -x "$CS_BIN" ] && "$CS_BIN" --version 2>/dev/null | grep -q "^$CS_VERSION"; then
  echo "install-vscode: code-server $CS_VERSION ready at $CS_BIN"
  exit 0
fi

npm ping >/dev/null 2>&1 || fail "the npm registry is not reachable; code-server cannot be installed"
echo "install-vscode: installing code-server $CS_VERSION into $CS_DIR (a few minutes, once)"
# VS Code 1.100 pins @vscode/ripgrep 1.15.11, whose postinstall downloads rg from GitHub: seed its cache with Debian's rg.
RG_CACHE="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
RG_TMP=$(mktemp -d)
mkdir -p "$RG_CACHE"
cp "$(command -v rg)" "$RG_TMP/rg"
tar -czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$RG_TMP" rg
rm -rf "$RG_TMP" "$CS_DIR.partial"
mkdir -p "$CS_DIR.partial"
echo '{"name":"combee-code-server-cache","private":true}' > "$CS_DIR.partial/package.json"
# npm_config_yes: node-pty's install runs npx node-gyp; --unsafe-perm: the postinstall refuses root otherwise.
( cd "$CS_DIR.partial" && npm_config_yes=true npm install --no-audit --no-fund --unsafe-perm "code-server@$CS_VERSION" ) \
  || fail "npm install code-server@$CS_VERSION failed"
rm -rf "$CS_DIR" && mv "$CS_DIR.partial" "$CS_DIR"
"$CS_BIN" --version | head -1
echo "install-vscode: code-server $CS_VERSION ready at $CS_BIN"
