// Hosted emoji sets (spec 3 "Emoji sets and vectors").
import { hexcodeOf } from './hex.js'

/** EMOJI_SETS: `native` (the device's font) and the three hosted sets served under /v1/sets/. */
export const EMOJI_SETS = /* @__PURE__ */ Object.freeze(['native', 'twemoji', 'openmoji', 'noto'])
export const isEmojiSet = (value) => EMOJI_SETS.includes(value)

/** emojiImageUrl is {endpoint}/v1/sets/<set>/<hexcode>.svg, or undefined for native or without an endpoint. */
export function emojiImageUrl(emoji, options = {}) {
  const { endpoint, emojiSet = 'native' } = options
  if (!endpoint || emojiSet === 'native' || !isEmojiSet(emojiSet)) return undefined
  const hex = hexcodeOf(emoji)
  return hex ? `${String(endpoint).replace(/\/+$/, '')}/v1/sets/${emojiSet}/${hex}.svg` : undefined
}

// The English names of packs/groupnames.go, for a UI without an engine.
const GROUPS = ['Smileys & emotion', 'People & body', 'Components', 'Animals & nature', 'Food & drink', 'Travel & places', 'Activities', 'Objects', 'Symbols', 'Flags']

/** groupLabel names an emojibase group (0..9) for a UI: the engine's pack label of the locale when an engine is given, else English. */
export function groupLabel(group, locale, engine) {
  const l = engine?.groupLabel?.(group, locale)
  return l || GROUPS[group] || ''
}
