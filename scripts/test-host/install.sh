#!/usr/bin/env bash
# Installs what the offline VS Code test harness needs (idempotent):
#   - Debian packages: chromium, ripgrep, libkrb5-dev (only if missing)
#   - code-server 4.100.3 (VS Code 1.100.3) from the npm registry into a cache folder.
# Env: CODE_SERVER_DIR overrides the install folder (default ~/.cache/context-control/code-server-4.100.3).
set -euo pipefail

VERSION=4.100.3
DEST="${CODE_SERVER_DIR:-$HOME/.cache/context-control/code-server-$VERSION}"
MARKER="$DEST/.install-complete"

say() { echo "[test-host] $*"; }
die() { echo "[test-host] ERROR: $*" >&2; exit 1; }
trap 'echo "[test-host] ERROR: install failed at line $LINENO: $BASH_COMMAND" >&2' ERR

# 1. Debian packages
missing=()
for p in chromium ripgrep libkrb5-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  say "apt: installing ${missing[*]}"
  $SUDO apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
else
  say "apt: chromium, ripgrep, libkrb5-dev already installed"
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after install"
[ -x /usr/bin/rg ] || die "/usr/bin/rg missing after install"

# 2. code-server
if [ -f "$MARKER" ]; then
  say "code-server $VERSION already installed in $DEST"
  exit 0
fi

start=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/code-server-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
say "code-server $VERSION: downloading package (work dir $work)"
(cd "$work" && npm pack --silent "code-server@$VERSION" >/dev/null && tar -xzf code-server-$VERSION.tgz) \
  || die "npm pack code-server@$VERSION failed"
pkg="$work/package"
vsc="$pkg/lib/vscode"

# Native modules build with node-gyp; use the local Node headers (no nodejs.org download here).
node_prefix="$(dirname "$(dirname "$(command -v node)")")"
[ -f "$node_prefix/include/node/common.gypi" ] && export npm_config_nodedir="$node_prefix"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

for d in "$pkg" "$vsc" "$vsc/extensions"; do
  say "npm install --omit=dev --ignore-scripts in ${d#$work/}"
  (cd "$d" && npm install --omit=dev --ignore-scripts --no-save --loglevel=error >/dev/null) || die "npm install failed in $d"
done

say "ripgrep: using /usr/bin/rg"
mkdir -p "$vsc/node_modules/@vscode/ripgrep/bin"
cp /usr/bin/rg "$vsc/node_modules/@vscode/ripgrep/bin/rg"

say "rebuilding native modules (argon2, kerberos, spdlog, native-watchdog, parcel watcher, node-pty)"
(cd "$pkg" && npm rebuild argon2 --loglevel=error >/dev/null) || die "npm rebuild argon2 failed"
(cd "$vsc" && npm rebuild kerberos @vscode/spdlog native-watchdog @parcel/watcher --loglevel=error >/dev/null) \
  || die "npm rebuild of vscode native modules failed"
(cd "$vsc" && npm_config_yes=true npm rebuild node-pty --loglevel=error >/dev/null) || die "npm rebuild node-pty failed"
ln -sfn node_modules "$vsc/node_modules.asar"
for f in node_modules/argon2/lib/binding/napi-v3/argon2.node \
         lib/vscode/node_modules/{kerberos/build/Release/kerberos.node,@vscode/spdlog/build/Release/spdlog.node} \
         lib/vscode/node_modules/{native-watchdog/build/Release/watchdog.node,node-pty/build/Release/pty.node}; do
  [ -f "$pkg/$f" ] || die "native module was not built: $f (npm rebuild skipped its scripts?)"
done

say "smoke check: node out/node/entry.js --version"
(cd "$pkg" && XDG_CONFIG_HOME="$work/config" node out/node/entry.js --version | grep -v "Wrote default config") || die "code-server does not start"

rm -rf "$DEST"
mkdir -p "$(dirname "$DEST")"
mv "$pkg" "$DEST"
date -u +%FT%TZ > "$MARKER"
say "code-server $VERSION installed in $DEST ($((SECONDS - start)) s, $(du -sh "$DEST" | cut -f1))"
