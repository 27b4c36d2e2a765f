// Which emoji the device's fonts can draw. One probe per Unicode emoji
// version (the first emoji of that version in the catalog) and one for
// country flags, each drawn on a canvas: a drawn emoji has colour and is
// one glyph wide; a missing one is a monochrome box, nothing, or, for a
// ZWJ sequence, its parts side by side. About a dozen draws for the whole
// catalog, instead of one per emoji.
const isFlag = (id) => /^1F1E[6-9A-F]-|^1F1F/.test(id)

function probe(ctx, emoji, unit) {
  ctx.clearRect(0, 0, 64, 32)
  ctx.fillText(emoji, 0, 0)
  if (ctx.measureText(emoji).width > unit * 1.4) return false
  const d = ctx.getImageData(0, 0, 64, 32).data
  for (let i = 0; i < d.length; i += 4) if (d[i + 3] && (Math.abs(d[i] - d[i + 1]) > 24 || Math.abs(d[i + 1] - d[i + 2]) > 24)) return true
  return false
}

/**
 * drawableTest returns a function telling whether an entry can be drawn by
 * this device; always true where there is no canvas (no DOM, tests in Node).
 */
export function drawableTest(entries, doc = globalThis.document) {
  const ctx = doc?.createElement('canvas').getContext?.('2d', { willReadFrequently: true })
  if (!ctx) return () => true
  ctx.canvas.width = 64
  ctx.canvas.height = 32
  ctx.textBaseline = 'top'
  ctx.font = '24px "Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji",sans-serif'
  const unit = ctx.measureText('\u{1F600}').width
  const first = new Map()
  for (const e of entries) {
    const k = isFlag(e.id) ? 'flag' : e.version
    if (!first.has(k) && e.version > 11) first.set(k, e.emoji)
  }
  first.set('flag', '\u{1F1FA}\u{1F1F3}')
  const ok = new Map()
  for (const [k, emoji] of first) ok.set(k, probe(ctx, emoji, unit))
  return (e) => (e.imageUrl ? true : ok.get(isFlag(e.id) ? 'flag' : e.version) ?? true)
}
