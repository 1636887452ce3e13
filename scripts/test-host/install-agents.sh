#!/usr/bin/env bash
# The real agent clients for test/agents/ (Claude Code and Codex), installed from the npm registry into a cache
# folder, never as dependencies of this package: one folder per client and version, reused when already there.
# Prints the two binaries' paths as CLAUDE_BIN=… and CODEX_BIN=… lines. Idempotent; a second run takes well under a
# second. Versions: CLAUDE_CODE_VERSION and CODEX_VERSION (default: the versions these tests were written against).
set -euo pipefail
CACHE="${CONTEXT_CONTROL_AGENTS:-${XDG_CACHE_HOME:-$HOME/.cache}/context-control/agents}"
CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.332}"
CODEX_VERSION="${CODEX_VERSION:-0.171.0}"
mkdir -p "$CACHE"

install_one() { # folder package@version
  local dir="$CACHE/$1"
  if [ ! -f "$dir/.installed" ]; then
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    (cd "$dir.tmp" && echo '{"private":true}' > package.json && npm install --no-audit --no-fund --loglevel=error "$2" >&2)
    touch "$dir.tmp/.installed"
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
  fi
}

install_one "claude-code-$CLAUDE_CODE_VERSION" "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION"
install_one "codex-$CODEX_VERSION" "@openai/codex@$CODEX_VERSION"

# The native binaries the packages ship (their JS launchers only find and exec them).
claude="$(find "$CACHE/claude-code-$CLAUDE_CODE_VERSION/node_modules/@anthropic-ai" -path '*claude-code-linux-x64*' -type f -name claude 2>/dev/null | head -1)"
[ -n "$claude" ] || claude="$CACHE/claude-code-$CLAUDE_CODE_VERSION/node_modules/.bin/claude"
codex="$(find "$CACHE/codex-$CODEX_VERSION/node_modules/@openai" -path '*vendor*' -type f -name codex 2>/dev/null | head -1)"
[ -n "$codex" ] || codex="$CACHE/codex-$CODEX_VERSION/node_modules/.bin/codex"
echo "CLAUDE_BIN=$claude"
echo "CODEX_BIN=$codex"
