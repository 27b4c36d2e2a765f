// createEngine as the package root exports it: the search core (engine.js)
// with the culture layer (culture.js), so engine.search applies a culture
// file given to createEngine or withCulture. client/core.js exports the
// core alone (no culture layer) for the smallest bundle.
import { createEngine as core } from './engine.js'
import { applyCulture, localDay } from './culture.js'

const layer = { applyCulture, localDay }

/** createEngine builds an AliasEngine from a pack or packs (English core required); options minCoverage and culture. */
export const createEngine = (input, options) => core(input, options, layer)
