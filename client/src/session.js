// Search sessions (spec 3 "Search sessions"): dictionary results on every
// keystroke, meaning results debounced, cancellable and fused in afterwards;
// answers for an older query are dropped.
import { needsMeaning as defaultRule, fuse } from './fusion.js'
import { applyCulture, localDay } from './culture.js'

const now = () => (globalThis.performance ? performance.now() : Date.now())

/**
 * createSearchSession returns {update(query), dispose()}; onChange receives
 * every SessionState. The meaning layer is asked when options.shouldUseSemantic
 * says so, by default needsMeaning (fusion.js: the dictionary's confidence
 * under the threshold calibrated on the development sets for one word or
 * several).
 */
export function createSearchSession(options = {}) {
  const { engine, semantic, locale, region, onChange = () => {} } = options
  if (!engine || typeof engine.search !== 'function') throw new TypeError('emojisearch: createSearchSession needs engine')
  const limit = options.limit > 0 ? options.limit : 24
  const debounceMs = options.debounceMs ?? 200
  const rule = options.shouldUseSemantic || defaultRule
  const culture = options.culture === false ? undefined : options.culture || engine.culture
  let seq = 0
  let timer
  let ctrl
  let disposed = false
  const cancel = () => {
    clearTimeout(timer)
    timer = undefined
    ctrl?.abort()
    ctrl = undefined
  }
  const withCulture = (query, results) => (culture ? applyCulture(culture, query, results, { day: localDay(), region, limit }) : results)
  return {
    update(query) {
      if (disposed) return
      cancel()
      const id = ++seq
      const q = String(query ?? '')
      const t0 = now()
      const alias = engine.search(q, { limit, locale, culture: false })
      const aliasMs = now() - t0
      const base = { query: q, alias, aliasMs }
      // Nothing to search (blank) is idle; an emoticon has no word but answers.
      if (!alias.tokens.length && !alias.results.length) return onChange({ ...base, results: [], status: 'idle' })
      const use = semantic && rule(alias)
      onChange({ ...base, results: withCulture(q, alias.results), status: use ? 'loading' : 'alias', layer: use ? undefined : 'device' })
      if (!use) return
      timer = setTimeout(async () => {
        ctrl = new AbortController()
        const signal = ctrl.signal
        const t1 = now()
        try {
          const r = await semantic.search(q, { locale, limit, signal })
          if (id !== seq || disposed) return // stale
          const semanticMs = now() - t1
          if (!r) return onChange({ ...base, results: withCulture(q, alias.results), status: 'alias', semanticMs, layer: 'device' })
          const fused = fuse(alias, r.results, limit)
          onChange({ ...base, results: withCulture(q, fused), status: 'fused', semanticMs, semanticCached: !!r.cached, layer: r.layer || 'api' })
        } catch (error) {
          if (id !== seq || disposed || error?.name === 'AbortError') return
          onChange({ ...base, results: withCulture(q, alias.results), status: 'error', semanticMs: now() - t1, error })
        }
      }, debounceMs)
    },
    dispose() {
      disposed = true
      cancel()
    },
  }
}
