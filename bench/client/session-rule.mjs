// Calibration of the search session's meaning-layer rule (issue 24): on the
// development sets (../shared/eval/search: en.emojilib, en.openmoji-tags,
// zh.rime.dev; never the held-out sets), how often the default device
// engine's top 3 holds a gold emoji, by the dictionary's confidence, for one
// word and for two or more. Per class, queries are sorted by confidence and
// cut into bins of equal count; the share right is made monotone (pool
// adjacent violators) and the threshold is the lowest confidence from which
// every bin is right at least TARGET of the time: below it the session asks
// the meaning layer (src/fusion.js DEFAULT_SESSION_CALIBRATION).
//
//	node bench/client/session-rule.mjs [target=0.9] [bins=20]
import { readFileSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const { createEngine } = await import(join(root, 'client/index.js'))
const target = +(process.argv[2] || 0.9), nbins = +(process.argv[3] || 20)
const version = JSON.parse(readFileSync(join(root, 'client/test/goldens.json'), 'utf8')).packVersion
const dist = join(root, 'packs/dist', version)
const en = JSON.parse(readFileSync(join(dist, 'pack.en.json'), 'utf8'))
const engine = createEngine([en, readFileSync(join(dist, 'device.en.bin')), readFileSync(join(dist, 'device.zh.bin'))])
const key = (e) => e.replace(/\ufe0f|\ud83c[\udffb-\udfff]/g, '')
const eval_ = join(root, '../../shared/eval/search')
const sets = [['en.emojilib.jsonl', 'en'], ['en.openmoji-tags.jsonl', 'en'], ['zh.rime.dev.jsonl', 'zh']]
const rows = { one: [], more: [] }
for (const [file, locale] of sets) {
  for (const line of readFileSync(join(eval_, file), 'utf8').split('\n')) {
    if (!line.trim()) continue
    const { q, gold } = JSON.parse(line)
    const out = engine.search(q, { locale, limit: 24 })
    if (!out.tokens.length) continue
    const g = new Set(gold.map(key))
    const right = out.results.slice(0, 3).some((r) => g.has(key(r.emoji)))
    rows[out.tokens.length > 1 ? 'more' : 'one'].push([out.confidence || 0, right ? 1 : 0])
  }
}
const result = {}
for (const [cls, rs] of Object.entries(rows)) {
  rs.sort((a, b) => a[0] - b[0])
  const size = Math.ceil(rs.length / nbins)
  let bins = []
  for (let i = 0; i < rs.length; i += size) {
    const b = rs.slice(i, i + size)
    bins.push({ lo: b[0][0], hi: b[b.length - 1][0], n: b.length, right: b.reduce((s, r) => s + r[1], 0) })
  }
  // Pool adjacent violators: the share right never falls as confidence rises.
  const pooled = []
  for (const b of bins) {
    pooled.push({ ...b, share: b.right / b.n, from: b.lo })
    while (pooled.length > 1 && pooled.at(-2).share > pooled.at(-1).share) {
      const y = pooled.pop(), x = pooled.pop()
      pooled.push({ lo: x.lo, hi: y.hi, n: x.n + y.n, right: x.right + y.right, share: (x.right + y.right) / (x.n + y.n), from: x.from })
    }
  }
  const first = pooled.find((b) => b.share >= target)
  result[cls] = { queries: rs.length, threshold: first ? +first.from.toFixed(3) : null }
  console.log(`${cls} word(s): ${rs.length} queries`)
  for (const b of pooled) console.log(`  confidence ${b.lo.toFixed(3)}..${b.hi.toFixed(3)}  n ${b.n}  top-3 right ${(b.share).toFixed(3)}`)
}
console.log(JSON.stringify({ target, bins: nbins, ...result }))
