// Hexcode and skin-tone helpers (Go: engine/helpers.go).

/** SKIN_TONES: tone 1..5 (light to dark) is the modifier at that index; 0 is no tone. */
export const SKIN_TONES = /* @__PURE__ */ Object.freeze(['', '\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'])

/** COMMON_REACTIONS: the emoji most offered in chat apps' reaction bars. */
export const COMMON_REACTIONS = /* @__PURE__ */ Object.freeze(['👍', '❤️', '😂', '😮', '😢', '😡', '🎉', '🙏', '🔥', '👀', '👏', '🤔'])

/** hexcodeOf is the emojibase hexcode of an emoji, tone included; FE0F dropped when one code point remains. */
export function hexcodeOf(emoji) {
  const parts = Array.from(String(emoji ?? ''), (c) => c.codePointAt(0).toString(16).toUpperCase())
  if (parts.length === 2 && parts[1] === 'FE0F') parts.length = 1
  return parts.join('-')
}

/** emojiOfHex turns a hexcode into its characters, or '' when it is not one. */
export function emojiOfHex(hex) {
  let out = ''
  for (const p of String(hex).split('-')) {
    if (!/^[0-9a-fA-F]{1,8}$/.test(p)) return ''
    const v = parseInt(p, 16)
    if (v > 0x10ffff) return ''
    out += String.fromCodePoint(v)
  }
  return out
}

const textDefault = /* @__PURE__ */ new Set(['261D', '26F9', '270C', '270D', '1F3CB', '1F3CC', '1F574', '1F575', '1F590'])
const multi = {
  '1F469-200D-1F91D-200D-1F468': '1F46B', '1F468-200D-1F91D-200D-1F468': '1F46C', '1F469-200D-1F91D-200D-1F469': '1F46D',
  '1F9D1-200D-1F430-200D-1F9D1': '1F46F', '1F469-200D-1F430-200D-1F469': '1F46F-200D-2640-FE0F',
  '1F468-200D-1F430-200D-1F468': '1F46F-200D-2642-FE0F', '1F9D1-200D-2764-FE0F-200D-1F48B-200D-1F9D1': '1F48F',
  '1F9D1-200D-2764-FE0F-200D-1F9D1': '1F491', '1FAF1-200D-1FAF2': '1F91D', '1F9D1-200D-1FAEF-200D-1F9D1': '1F93C',
  '1F469-200D-1FAEF-200D-1F469': '1F93C-200D-2640-FE0F', '1F468-200D-1FAEF-200D-1F468': '1F93C-200D-2642-FE0F',
}
const isTone = (p) => p.length === 5 && p.startsWith('1F3F') && p[4] >= 'B' && p[4] <= 'F'

/** baseId maps a skin-tone variant hexcode to its base (FE0F restored after a text-default base in a sequence). */
export function baseId(hexcode) {
  const parts = String(hexcode ?? '').toUpperCase().split('-')
  const out = []
  parts.forEach((p, i) => {
    if (!isTone(p)) return void out.push(p)
    if (i > 0 && i + 1 < parts.length && textDefault.has(parts[i - 1])) out.push('FE0F')
  })
  const base = out.join('-')
  return multi[base] && out.length < parts.length ? multi[base] : base
}

const bases = [0x261d, 0x261d, 0x26f9, 0x26f9, 0x270a, 0x270d, 0x1f385, 0x1f385, 0x1f3c2, 0x1f3c4, 0x1f3c7, 0x1f3c7, 0x1f3ca, 0x1f3cc, 0x1f442, 0x1f443, 0x1f446, 0x1f450, 0x1f466, 0x1f469, 0x1f46b, 0x1f478, 0x1f47c, 0x1f47c, 0x1f481, 0x1f483, 0x1f485, 0x1f487, 0x1f48f, 0x1f48f, 0x1f491, 0x1f491, 0x1f4aa, 0x1f4aa, 0x1f574, 0x1f575, 0x1f57a, 0x1f57a, 0x1f590, 0x1f590, 0x1f595, 0x1f596, 0x1f645, 0x1f647, 0x1f64b, 0x1f64f, 0x1f6a3, 0x1f6a3, 0x1f6b4, 0x1f6b6, 0x1f6c0, 0x1f6c0, 0x1f6cc, 0x1f6cc, 0x1f90c, 0x1f90c, 0x1f90f, 0x1f90f, 0x1f918, 0x1f91f, 0x1f926, 0x1f926, 0x1f930, 0x1f939, 0x1f93c, 0x1f93e, 0x1f977, 0x1f977, 0x1f9b5, 0x1f9b6, 0x1f9b8, 0x1f9b9, 0x1f9bb, 0x1f9bb, 0x1f9cd, 0x1f9cf, 0x1f9d1, 0x1f9dd, 0x1fac3, 0x1fac5, 0x1faf0, 0x1faf8]
const modifierBase = (r) => { for (let i = 0; i < bases.length; i += 2) if (r >= bases[i] && r <= bases[i + 1]) return true; return false }
const personLike = (r) => r === 0x1f9d1 || r === 0x1f468 || r === 0x1f469 || r === 0x1faf2 || r === 0x1faf1

/**
 * applySkinTone puts tone on every skin-tone base of an emoji: 1..5 (light
 * to dark) or the modifier itself (SKIN_TONES[1..5]); 0 or '' removes tones.
 * Any other tone throws a RangeError rather than being ignored.
 */
export function applySkinTone(emoji, tone) {
  emoji = String(emoji ?? '')
  if (typeof tone === 'string' && SKIN_TONES.includes(tone)) tone = SKIN_TONES.indexOf(tone)
  if (typeof tone !== 'number' || !(tone >= 0 && tone < SKIN_TONES.length) || tone % 1) {
    throw new RangeError(`emojisearch: skin tone ${JSON.stringify(tone)} is not 0..5 or one of SKIN_TONES`)
  }
  const rs = Array.from(emoji, (c) => c.codePointAt(0))
  let out = ''
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i]
    if (r >= 0x1f3fb && r <= 0x1f3ff) continue
    out += String.fromCodePoint(r)
    if (!modifierBase(r) || (i > 0 && rs[i - 1] === 0x200d && !personLike(r))) continue
    if (tone > 0) {
      out += SKIN_TONES[tone]
      if (rs[i + 1] === 0xfe0f) i++
    }
  }
  return out
}

/** language maps a BCP 47 tag to its lowercase language subtag ("pt-BR" is "pt"). */
export function language(tag) {
  const t = String(tag ?? '').trim().toLowerCase()
  const i = t.search(/[-_]/)
  return i >= 0 ? t.slice(0, i) : t
}
