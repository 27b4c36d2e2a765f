#!/usr/bin/env bash
# Installs the pinned emoji set packages into packs/.sets/npm (git-ignored)
# and lays out the local upstream of /v1/sets/ in packs/.sets/upstream: the
# same paths under SETS_UPSTREAM as the production CDN (jsDelivr), which
# `hostsim serve` and the e2e suite serve with a plain static file server.
# Nothing of the artwork is committed. Idempotent: skips the install when
# the packages are there.
#   @discordapp/twemoji@16.0.1   Twemoji (MIT code, CC-BY 4.0 art), dist/svg
#   openmoji@17.0.0              OpenMoji (CC BY-SA 4.0), color/svg
#   @iconify-json/noto@1.2.9     Noto Emoji bodies (Apache-2.0), rendered to files locally
#   emojibase-data@17.0.0        single-tone variants of the pack emoji
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=packs/.sets/npm
if [ ! -f "$prefix/node_modules/openmoji/package.json" ] || [ ! -f "$prefix/node_modules/@iconify-json/noto/chars.json" ]; then
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --ignore-scripts --no-package-lock \
    @discordapp/twemoji@16.0.1 openmoji@17.0.0 @iconify-json/noto@1.2.9 emojibase-data@17.0.0
fi
go run ./packs/cmd/setmap -npm "$prefix/node_modules" -upstream packs/.sets/upstream "$@"
