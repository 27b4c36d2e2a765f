// Locale tags (spec 1 "Locale rules", Go: service/search/bcp47.go): the
// BCP 47 tags search accepts name the pack locales loadPacks fetches.

/** LOCALES are the pack locales of a pack version, English first. */
export const LOCALES = Object.freeze(['en', 'zh', 'hi', 'es', 'ar', 'fr', 'bn', 'pt', 'ru', 'id', 'tr'])

// The ISO 639-2/3 codes and deprecated tags of the pack languages.
const ALIASES = { eng: 'en', zho: 'zh', chi: 'zh', hin: 'hi', spa: 'es', ara: 'ar', fra: 'fr', fre: 'fr', ben: 'bn', por: 'pt', rus: 'ru', ind: 'id', in: 'id', tur: 'tr' }

/**
 * packLocale returns the pack locale of a BCP 47 tag as search reads it
 * ("pt-BR" is pt, "zh-Hans" and "zh-Hant" are zh, "in" is id; '_' is taken
 * for '-'), and throws a RangeError naming the supported locales for a tag
 * that is malformed or of another language.
 */
export function packLocale(tag) {
  const t = String(tag ?? '')
  const subtags = t.split(/[-_]/)
  let lang = ''
  if (subtags.every((s) => /^[a-z0-9]{1,8}$/i.test(s)) && /^[a-z]{2,3}$/i.test(subtags[0])) {
    lang = subtags[0].toLowerCase()
    if (subtags.length > 1 && /^[a-z]{3}$/i.test(subtags[1])) lang = subtags[1].toLowerCase() // an extended language subtag (zh-yue)
    lang = ALIASES[lang] || lang
  }
  if (!LOCALES.includes(lang)) throw new RangeError(`emojisearch: unsupported locale ${JSON.stringify(t)} (supported: ${LOCALES.join(' ')}, as BCP 47 tags such as pt-BR or zh-Hans)`)
  return lang
}
