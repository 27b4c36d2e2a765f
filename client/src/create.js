// createEngine as the package root exports it: the search core (engine.js)
// with the culture layer (culture.js), so engine.search applies a culture
// file given to createEngine or withCulture. client/core.js exports the
// core alone (no culture layer) for the smallest bundle.
import { createEngine as core, AliasEngine } from './engine.js'
import { applyCulture, localDay } from './culture.js'
import { language } from './hex.js'
import { BinIndex, indexPack, isBinaryIndex } from './binary.js'

class Engine extends AliasEngine {
  search(query, options = {}) {
    const out = super.search(query, options)
    const c = options.culture
    const culture = c === false ? undefined : c && typeof c === 'object' ? c : this.culture
    if (culture) {
      out.results = applyCulture(culture, String(query ?? ''), out.results, {
        day: options.day || localDay(options.now ?? new Date()), region: options.region, limit: options.limit > 0 ? Math.floor(options.limit) : 24,
      })
    }
    return out
  }

  /** groupLabel names a group (0..9) in a locale's pack, else English; '' when unknown (the groupLabel helper). */
  groupLabel(group, locale) {
    for (const l of [language(locale), 'en']) for (const s of this._ix.segs) if (s.locale === l && s.grp[group]) return s.grp[group]
    return ''
  }
}

/**
 * createEngine builds an AliasEngine from a pack or packs (English core
 * required); options minCoverage and culture. A locale may be given as its
 * binary index (index.<locale>.bin as an ArrayBuffer or Uint8Array), read in
 * place (binary.js) instead of indexing its JSON packs.
 */
export const createEngine = (input, options) =>
  core((Array.isArray(input) ? input : [input]).map((p) => (isBinaryIndex(p) ? indexPack(p) : p)), options, Engine, BinIndex)
