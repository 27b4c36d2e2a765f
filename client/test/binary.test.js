// Binary indexes read in place (src/binary.js): an engine over a locale's
// index.<locale>.bin answers exactly as one over the JSON packs holding the
// same phrases, and damaged files are refused at creation.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createEngine, normalize, tokenize } from '../index.js'
import { utf8Len } from '../src/text.js'
import { goldens, hasAssoc, readPack, readBytes } from './helpers.js'

// The English core pack's own index (the same phrases as pack.en.json), as
// the pack build writes it into the pack version.
const coreIndex = () => readBytes('index.en.core.bin')

const g = goldens()
const en = readPack('pack.en.json')
const custom = JSON.parse(readFileSync(new URL('./custom-pack.json', import.meta.url))).app
// A pack without its editorial columns: what index.<locale>.bin holds (the
// editorial phrases are a part index of their own).
const plain = (p) => ({ ...p, rows: p.rows.map((r) => r.map((c, i) => (i === p.rowIndex.editorial || i === p.rowIndex.editorial_more ? '' : c))) })
const same = (a, b, cases, what) => {
  let n = 0
  for (const c of cases) {
    const o = { limit: 10, locale: c.l, prefix: c.p }
    assert.deepEqual(b.search(c.q, o), a.search(c.q, o), `${what}: ${c.l} ${c.q}`)
    n++
  }
  assert.ok(n > 100, what)
}

test('the English core index answers as the English core pack, every golden query', () => {
  const bin = coreIndex()
  same(createEngine(en), createEngine([en, bin]), g.search, 'en core')
  // An ArrayBuffer at any offset, and custom emoji beside it.
  const copy = new Uint8Array(bin.length + 3)
  copy.set(bin, 3)
  same(createEngine([en, custom]), createEngine([custom, copy.subarray(3), en]), g.search.filter((c, i) => i % 5 === 0), 'custom')
  const b = createEngine([en, new Uint8Array(bin).buffer])
  assert.deepEqual(b.get('👋🏽'), createEngine(en).get('👋🏽'))
  assert.deepEqual(b.entries.slice(0, 50), createEngine(en).entries.slice(0, 50))
  assert.deepEqual(b.locales, ['en'])
  assert.equal(b.packVersion, en.packVersion)
})

test('locale indexes mix with JSON packs, before and after them', () => {
  const zh = g.search.filter((c) => c.l === 'zh')
  // index.zh.bin holds the core and extension phrases; the associations have a part index of their own.
  const zhPacks = [readPack('pack.zh.json'), plain(readPack('pack.zh.ext.json'))]
  const json = createEngine([en, ...zhPacks])
  same(json, createEngine([en, readBytes('index.zh.bin')]), zh, 'zh index after the English JSON pack')
  same(json, createEngine([en, coreIndex(), ...zhPacks]), zh, 'English index, then zh JSON packs')
  // index.en.bin holds the core and extension phrases (not the related words nor editorial phrases).
  const full = createEngine([en, readBytes('index.en.bin')])
  assert.equal(full.search('cat').results[0].id.replace('-FE0F', ''), '1F408')
  assert.equal(full.search(':)').results[0].emoji, '🙂')
})

test('damaged or mismatched indexes are refused when the engine is created', () => {
  const bin = coreIndex()
  const bad = (bytes, why, packs = [en]) => assert.throws(() => createEngine([...packs, bytes]), why)
  bad(bin.subarray(0, bin.length - 8), /header/)
  const magic = Uint8Array.from(bin)
  magic[0] = 0x41
  assert.throws(() => createEngine([en, magic]), TypeError, 'not a pack, not an index')
  bad(bin, /not of pack/, [{ ...en, packVersion: 'other' }])
  bad(readBytes('index.en.editorial.bin'), /part index \(editorial\)/)
  bad(readBytes('index.en.assoc.bin'), /part index \(assoc\)/)
  // A posting naming a phrase past the last one: section 25 (term postings).
  const dv = new DataView(bin.buffer, bin.byteOffset)
  const at = dv.getUint32(16 + 12 * 25 + 8, true), w = bin[16 + 12 * 25]
  const broken = Uint8Array.from(bin)
  new DataView(broken.buffer).setUint16(at, 0xffff, true)
  assert.equal(w, 2)
  bad(broken, /postings/)
})

// Device indexes (device.<locale>.bin, what loadPacks fetches by default):
// a locale's core, extension and editorial phrases, compacted; the engine
// over one answers exactly as over the locale's JSON packs (the English
// related words aside: they are not in the device index). The associations
// (device.<locale>.assoc.bin, loadPacks part assoc; or their JSON pack) join
// it as a segment of their own, as they join the Go service's engine
// (index.<locale>.assoc.bin); as JSON they are one more pack of the locale's
// segment: the same phrases and scores, but a one-word prefix damps its
// completions segment by segment, so a few prefixes order their completions
// apart: the top 3 stays the same for >= 98 % of the queries. As part
// indexes, not as JSON, they do not complete a word of one or two bytes, as
// in the Go engine (index.assocMinPrefix).
test('a device index answers as the locale\'s JSON packs, every golden query of the locale', () => {
  const enDevice = readBytes('device.en.bin')
  const enAssoc = hasAssoc('en') ? [readPack('pack.en.assoc.json')] : []
  const top3 = (e, c) => e.search(c.q, { limit: 10, locale: c.l, prefix: c.p }).results.slice(0, 3).map((r) => r.id).join(' ')
  for (const l of ['zh', 'hi', 'es', 'ar', 'fr', 'bn', 'pt', 'ru', 'id', 'tr']) {
    const cases = g.search.filter((c) => c.l === l)
    same(createEngine([en, enDevice, readPack(`pack.${l}.json`), readPack(`pack.${l}.ext.json`)]), createEngine([en, enDevice, readBytes(`device.${l}.bin`)]), cases, `device ${l}`)
    if (!hasAssoc(l)) continue
    const assoc = [...enAssoc, readPack(`pack.${l}.assoc.json`)]
    const json = createEngine([en, enDevice, readPack(`pack.${l}.json`), readPack(`pack.${l}.ext.json`), ...assoc])
    const parts = [readBytes('device.en.assoc.bin'), readBytes(`device.${l}.assoc.bin`)]
    const withParts = createEngine([en, enDevice, readBytes(`device.${l}.bin`), ...parts])
    // As a JSON pack the associations also complete a word of one or two bytes (the part index does not):
    // compared where no word is that short (the last unit searched is not always the last word).
    const long = cases.filter((c) => !c.p || tokenize(normalize(c.q)).every((w) => utf8Len(w) >= 3))
    same(createEngine([en, enDevice, readBytes(`device.${l}.bin`), ...assoc]), withParts, long, `device ${l}: the associations as part indexes or JSON`)
    // The damping apart: at most 2 % of the locale's queries order their top 3 otherwise.
    const apart = long.filter((c) => top3(json, c) !== top3(withParts, c)).length
    assert.ok(apart <= 0.02 * cases.length, `device ${l} and associations: ${apart} of ${long.length} top 3 apart`)
    assert.deepEqual(withParts.locales, ['en', l])
  }
  // English: the core index's answers where the core pack alone matches,
  // and the extension's emoticons and editorial phrases beyond it.
  const dev = createEngine([en, enDevice])
  assert.equal(dev.search(':)').results[0].emoji, '🙂')
  assert.equal(dev.search('thank you').results[0].id, '1F64F')
  assert.deepEqual(dev.locales, ['en'])
})

test('damaged or mismatched device indexes are refused when the engine is created', () => {
  const dev = readBytes('device.fr.bin')
  const bad = (bytes, why) => assert.throws(() => createEngine([en, bytes]), why)
  bad(dev.subarray(0, dev.length - 3), /device/)
  bad(dev.subarray(0, 100), /device header/)
  const len = Uint8Array.from(dev)
  len[14 + 10 * 21 + 6] ^= 1 // the stored length of the term lists
  bad(len, /device/)
  const ver = Uint8Array.from(dev)
  ver[8] = 9
  bad(ver, /device header/)
  assert.throws(() => createEngine([{ ...en, packVersion: 'other' }, dev]), /not of pack/)
})

// deviceSection is where section i of a device index is stored: its byte
// offset, stored length and encoding.
function deviceSection(dev, i) {
  const dv = new DataView(dev.buffer, dev.byteOffset)
  const N = dv.getUint16(12, true)
  let at = 14 + 10 * N
  for (let j = 0; j < i; j++) at += dv.getUint32(14 + 10 * j + 6, true)
  return { at, len: dv.getUint32(14 + 10 * i + 6, true), enc: dev[14 + 10 * i + 1] }
}

// A term's list of texts is decoded on its first lookup (packs/FORMAT.md
// "Device index", section 21): damaged ones are refused then, loudly.
test('damaged term lists of a device index are refused when decoded', () => {
  const dev = Uint8Array.from(readBytes('device.fr.bin'))
  const { at, len, enc } = deviceSection(dev, 21)
  assert.equal(enc, 4, 'the term lists are lists of their own')
  const good = createEngine([en, readBytes('device.fr.bin')]).search('rouge', { locale: 'fr' })
  assert.ok(good.results.length)
  dev.fill(0xff, at, at + len) // every varint runs past its list
  const e = createEngine([en, dev]) // nothing decoded yet
  assert.throws(() => e.search('rouge', { locale: 'fr' }), /postings/)
})

// The entry ids are checked by their hash (section 5): a device index of
// another entry table is refused.
test('a device index of another entry table is refused', () => {
  const dev = Uint8Array.from(readBytes('device.fr.bin'))
  const { at, enc } = deviceSection(dev, 5)
  assert.equal(enc, 5, 'section 5 is a hash')
  dev[at] ^= 1
  assert.throws(() => createEngine([en, dev]), /entry table/)
})
