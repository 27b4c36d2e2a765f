// Compiled by `tsc --noEmit -p client/tsconfig.json`: ./core declares what
// core.js exports and nothing more, so a package-root-only import fails to
// type-check instead of failing at run time.
import { createEngine, normalize, tokenize, type AliasEngine, type Pack, type AliasResult } from '@emojisearch/client/core'
// @ts-expect-error loadPacks is the package root's, not the core's
import { loadPacks } from '@emojisearch/client/core'

export function coreOnly(pack: Pack): AliasResult[] {
  const engine: AliasEngine = createEngine(pack, { minCoverage: 0.34 })
  // @ts-expect-error the bare core takes no binary index
  createEngine([pack, new Uint8Array(8)])
  // @ts-expect-error nor a culture file
  createEngine(pack, { culture: undefined })
  void [loadPacks, tokenize(normalize('Café'))]
  return engine.search('cat', { culture: false }).results
}
