// @emojisearch/client: emoji search on the device (spec 3). Every export
// comes from the package root; no dependencies.
export { createEngine } from './src/create.js'
export { AliasEngine } from './src/engine.js'
export { loadPacks, loadCustomPack } from './src/load.js'
export { LOCALES, packLocale } from './src/locale.js'
export { assertPack, isCustomPack, PACK_FORMAT, PACK_FORMAT_VERSION, FIELDS, DEFAULT_WEIGHTS, ROW_INDEX, CUSTOM_ID_PREFIX } from './src/format.js'
export { createSearchSession } from './src/session.js'
export { createSemanticClient, createShardProvider, createLayeredSemantic, chainProviders, shardKeyFor } from './src/providers.js'
export { shouldUseSemantic, needsMeaning, DEFAULT_SESSION_CALIBRATION, fuse, semanticConfidence, fuseResults, DEFAULT_SEMANTIC_CALIBRATION } from './src/fusion.js'
export { normalize, tokenize, MAX_QUERY_LENGTH, embeddingText, boundedEditDistance } from './src/text.js'
export { applySkinTone, SKIN_TONES, baseId, hexcodeOf, COMMON_REACTIONS } from './src/hex.js'
export { groupLabel, EMOJI_SETS, isEmojiSet, emojiImageUrl } from './src/sets.js'
export {
  loadCulture, assertCulture, CULTURE_FORMAT, CULTURE_FORMAT_VERSION, relevantNow, matchRegionalLead, matchCulture,
  insertCulture, applyCulture, isActiveOn, localDay, deviceRegion, regionOf,
} from './src/culture.js'
export { decodeVectors, encodeVectors, l2normalize, searchVectors, searchVectorSets } from './src/vectors.js'
