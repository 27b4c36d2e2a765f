#!/usr/bin/env bash
# Installs the dashboard's pinned npm packages into dashboard/.npm
# (git-ignored); build.sh bundles them with the dashboard's own source
# (dashboard/src) into build/assets/dashboard/, so nothing loads from a CDN
# at run time. Idempotent: skips the install when the pinned set is there.
#   preact@11.2.0 + htm@3.1.1   the UI (components, hooks, tagged templates: no JSX step)
#   uplot@1.6.32                 the usage and analytics charts
#   esbuild@0.28.2               bundles and minifies at build time (never served)
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS=(preact@11.2.0 htm@3.1.1 uplot@1.6.32 esbuild@0.28.2)
dir=dashboard/.npm
if [ ! -f "$dir/.installed" ] || [ "$(cat "$dir/.installed")" != "${PKGS[*]}" ]; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"emojisearch-dashboard-libs","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --no-package-lock --loglevel=error "${PKGS[@]}"
  echo "${PKGS[*]}" > "$dir/.installed"
fi
