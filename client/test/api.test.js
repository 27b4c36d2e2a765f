// Behaviour of the library's exports (spec 3): helpers, formats, culture
// rules, providers and sessions over a real local HTTP server that speaks
// the service's wire shapes (search API, static packs, shards, custom pack).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import * as lib from '../index.js'
import { readPack, readCulture, packDir, version } from './helpers.js'
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

const en = readPack('pack.en.json')
const engine = lib.createEngine(en)

test('helpers: normalize, tokenize, embeddingText, distance', () => {
  for (const [input, want] of [
    ['  Café :JOY: ', 'cafe joy'], ["don't", 'dont'], ['Straße', 'strasse'], ['ёлка', 'елка'], ['قَلْب', 'قلب'],
    ['I ❤️ pizza!', 'i pizza'], ['ab型血', 'ab型血'], ['', ''], ['\ud800x', 'x'],
  ]) assert.equal(lib.normalize(input, 64), want, input)
  assert.equal(lib.normalize('a'.repeat(100), lib.MAX_QUERY_LENGTH).length, 64)
  assert.deepEqual(lib.tokenize('ab型血 cat'), ['ab', '型血', 'cat'])
  assert.equal(lib.embeddingText('  Hello,\n\tWorld!  😂 '), 'Hello, World! 😂')
  for (const [a, b, max, want] of [['kitten', 'sitting', 3, 3], ['ab', 'ba', 1, 1], ['abc', 'abc', 0, 0], ['abcdef', 'a', 2, 3], ['猫咪', '猫', 1, 1]]) {
    assert.equal(lib.boundedEditDistance(a, b, max), want, `${a} ${b}`)
  }
})

test('helpers: hexcodes, base ids, skin tones, reactions', () => {
  for (const [emoji, hex] of [['👋🏽', '1F44B-1F3FD'], ['❤️', '2764'], ['👩‍💻', '1F469-200D-1F4BB'], ['🇫🇷', '1F1EB-1F1F7']]) assert.equal(lib.hexcodeOf(emoji), hex)
  for (const [hex, base] of [['1F44B-1F3FD', '1F44B'], ['26F9-1F3FB-200D-2642-FE0F', '26F9-FE0F-200D-2642-FE0F'], ['1F469-1F3FB-200D-1F91D-200D-1F468-1F3FF', '1F46B'], ['2764', '2764']]) assert.equal(lib.baseId(hex), base)
  assert.equal(lib.applySkinTone('👋', 3), '👋🏽')
  assert.equal(lib.applySkinTone('👋🏽', 0), '👋')
  assert.equal(lib.applySkinTone('🧑‍💻', 5), '🧑🏿‍💻')
  assert.equal(lib.applySkinTone('⛹️‍♂️', 1), '⛹🏻‍♂️')
  // A tone as SKIN_TONES holds it works as its number; anything else is refused.
  assert.equal(lib.applySkinTone('👋', lib.SKIN_TONES[3]), '👋🏽')
  assert.equal(lib.applySkinTone('👋🏽', lib.SKIN_TONES[0]), '👋')
  for (const bad of [9, -1, 1.5, '🏽x', 'medium', null, undefined, NaN]) assert.throws(() => lib.applySkinTone('👋', bad), RangeError, String(bad))
  assert.equal(lib.SKIN_TONES.length, 6)
  assert.ok(lib.COMMON_REACTIONS.includes('👍'))
  assert.equal(lib.groupLabel(0, 'en'), 'Smileys & emotion')
  assert.equal(lib.groupLabel(3, 'zh', lib.createEngine([en, readPack('pack.zh.json')])), '动物和自然')
})

test('engine: search output, get, entries, locales, culture option', () => {
  const o = engine.search(':joy:')
  assert.equal(o.results[0].emoji, '😂')
  assert.equal(o.results[0].source, 'alias')
  assert.equal(o.query, 'joy')
  assert.deepEqual(o.tokens, ['joy'])
  assert.equal(o.confidence, o.results[0].score)
  assert.equal(engine.search('   ').confidence, 0)
  assert.equal(engine.search('cat', { limit: 3 }).results.length, 3)
  assert.equal(engine.search('😂 and 🐱').results[1].emoji, '🐱')
  const withExt = lib.createEngine([en, readPack('pack.en.ext.json')])
  assert.equal(withExt.search(':)').results[0].field, 'alias') // an emoticon, matched on its raw text
  assert.equal(engine.get('1F44B-1F3FD').emoji, '👋')
  assert.equal(engine.get('👋🏿').id, '1F44B')
  assert.equal(engine.get('👩🏻‍🤝‍👨🏿').id, '1F46B', 'a couple with two tones is its base emoji')
  assert.equal(engine.get('1f469-1f3fb-200d-1f91d-200d-1f468-1f3ff').id, '1F46B')
  assert.equal(engine.get('1F9D1-1F3FB-200D-2764-FE0F-200D-1F48B-200D-1F9D1-1F3FC').id, '1F48F')
  assert.equal(engine.get('nope'), undefined)
  const e = engine.get('😂')
  assert.deepEqual(Object.keys(e).sort(), ['emoji', 'group', 'hasSkinTones', 'id', 'labels', 'version'])
  assert.equal(e.labels.en, 'face with tears of joy')
  assert.equal(engine.entries.length, en.rows.length)
  assert.deepEqual(engine.locales, ['en'])
  assert.equal(engine.packVersion, version)
  assert.throws(() => lib.createEngine(readPack('pack.fr.json')), /English core pack/)
  assert.throws(() => lib.createEngine(en, { minCoverage: 0 }), RangeError)
})

test('pack format 2: editorial phrases rank, deduplicated apart from dictionary phrases', () => {
  const ix = en.rowIndex
  const rows = en.rows.map((r) => {
    const row = [...r, '', '']
    if (r[ix.id] === '1F602') row[14] = 'face' // also a keyword of 😂: kept again as editorial
    if (r[ix.id] === '1F642') row[15] = 'zorblax mood'
    return row
  })
  const v2 = lib.createEngine({ ...en, formatVersion: 2, fields: [...lib.FIELDS], rowIndex: { ...lib.ROW_INDEX }, rows })
  const face = v2.search('face', { limit: 50 }).results.find((r) => r.id === '1F602')
  assert.equal(face.field, 'editorial')
  assert.equal(v2.search('zorblax mood', { limit: 5 }).results[0].id, '1F642')
  assert.equal(v2.search('zorblax mood', { limit: 5 }).results[0].field, 'editorial_more')
})

test('core build: the same ranking without the culture layer', async () => {
  const core = await import('../core.js')
  const bare = core.createEngine(en)
  assert.deepEqual(bare.search('party').results, engine.search('party').results)
  assert.throws(() => bare.withCulture(readCulture('en')).search('party'), /package root/)
})

test('formats: assertPack, isCustomPack, constants', () => {
  assert.equal(lib.PACK_FORMAT, 'emojisearch.pack')
  // Format 2 added the editorial fields; the committed packs may still be format 1, which is read too.
  assert.equal(lib.PACK_FORMAT_VERSION, 2)
  assert.ok([1, 2].includes(en.formatVersion))
  assert.deepEqual(lib.FIELDS.filter((f) => en.fields.includes(f)), en.fields)
  for (const [k, v] of Object.entries(en.weights)) assert.equal(lib.DEFAULT_WEIGHTS[k], v, k)
  for (const [k, v] of Object.entries(en.rowIndex)) assert.equal(lib.ROW_INDEX[k], v, k)
  assert.equal(lib.DEFAULT_WEIGHTS.editorial, 0.9)
  assert.throws(() => lib.assertPack({ ...en, formatVersion: 3 }), /formatVersion/)
  for (const bad of [null, {}, { ...en, format: 'x' }, { ...en, rows: [['1F600']] }, { ...en, part: 'zz' }, { ...en, rows: [en.rows[0], en.rows[0]] }]) {
    assert.throws(() => lib.assertPack(bad), TypeError)
  }
  assert.equal(lib.assertPack(en), en)
  assert.equal(lib.isCustomPack(en), false)
})

test('culture: windows, regions, local day, assertCulture', () => {
  const c = readCulture('en')
  assert.equal(lib.assertCulture(c), c)
  assert.throws(() => lib.assertCulture({ ...c, formatVersion: 9 }), TypeError)
  assert.throws(() => lib.assertCulture({ ...c, entries: [{ ...c.entries[0], triggers: ['Not Normalized'] }] }), /triggers/)
  assert.equal(lib.CULTURE_FORMAT, c.format)
  for (const [when, day, want] of [
    [{ kind: 'lasting' }, '2027-01-01', true], [{ kind: 'regional' }, '2027-01-01', true], [{ kind: 'event', windows: [] }, '2027-01-01', false],
    [{ kind: 'event', windows: [{ from: '2027-01-01', to: '2027-01-03' }] }, '2027-01-03', true],
    [{ kind: 'event', windows: [{ from: '2027-01-01', to: '2027-01-03' }] }, '2027-01-04', false],
  ]) assert.equal(lib.isActiveOn(when, day), want)
  assert.equal(lib.localDay(new Date(2027, 0, 5, 23, 59)), '2027-01-05') // the device's local day, not UTC
  for (const [tag, want] of [['en-GB', 'GB'], ['pt_br', 'BR'], ['zh-Hant-TW', 'TW'], ['en', undefined], ['en-x-us', undefined], ['es-419', undefined], ['en-ZZ', undefined]]) assert.equal(lib.regionOf(tag), want, tag)
  assert.ok(lib.deviceRegion() === undefined || /^[A-Z]{2}$/.test(lib.deviceRegion()))
  const reg = c.entries.find((e) => e.kind === 'regional' && e.over?.length)
  if (reg) {
    const q = reg.triggers[0]
    const top = engine.search(q).results[0]
    const lead = lib.matchRegionalLead(c, q, reg.over[0], { region: reg.regions[0], day: c.from })
    assert.equal(lead?.cultureId, reg.id)
    assert.equal(lib.matchRegionalLead(c, q, reg.over[0], { day: c.from }), undefined) // no region: never leads
    assert.ok(top)
  }
  const now = lib.relevantNow(c, { day: c.from, limit: 3 })
  assert.ok(now.length <= 3)
  const sample = { results: [{ id: 'A', emoji: 'a', source: 'alias' }, { id: 'B', emoji: 'b', source: 'alias' }] }
  const ins = lib.insertCulture(sample.results, [{ id: 'C', source: 'culture' }, { id: 'A', source: 'culture' }])
  assert.deepEqual(ins.map((r) => r.id), ['A', 'C', 'B'])
  assert.ok(Array.isArray(lib.matchCulture(c, 'happy new year', { day: c.from })))
})

test('fusion: shouldUseSemantic table, semanticConfidence, fuse', () => {
  for (const [tokens, conf, want] of [[0, 0, false], [1, 0.59, true], [1, 0.6, false], [2, 0.89, true], [2, 0.9, false], [3, NaN, true]]) {
    assert.equal(lib.shouldUseSemantic({ tokens: Array(tokens).fill('x'), confidence: conf }), want, `${tokens} ${conf}`)
  }
  assert.deepEqual({ ...lib.DEFAULT_SEMANTIC_CALIBRATION }, { floor: 0.44, ceiling: 0.58 })
  assert.ok(Math.abs(lib.semanticConfidence([{ cosine: 0.51 }]) - 0.5) < 1e-9)
  assert.equal(lib.semanticConfidence([]), 0)
  assert.equal(lib.semanticConfidence([{ cosine: 0.9 }]), 1)
  const alias = { results: [{ id: '1F602', emoji: '😂', score: 0.95, source: 'alias' }, { id: '1F923', emoji: '🤣', score: 0.5, source: 'alias' }], confidence: 0.95 }
  const sem = [{ id: '1F1EB-1F1F7', emoji: '🇫🇷', cosine: 0.5 }, { id: '1F62D', emoji: '😭', cosine: 0.49 }]
  assert.deepEqual(lib.fuse(alias, sem, 10).map((r) => r.id), ['1F602', '1F923', '1F62D', '1F1EB-1F1F7'])
  assert.equal(lib.fuseResults(alias.results, sem)[0].id, '1F602')
})

test('vectors: encode, decode, search, damaged files refused', () => {
  const rows = [[1, 0, 0, 0], [0, 1, 0, 0], [0.7, 0.7, 0, 0]]
  const buf = lib.encodeVectors('toy@4', ['A', 'B', 'C'], rows)
  const x = lib.decodeVectors(buf)
  assert.equal(x.model, 'toy@4')
  assert.deepEqual(x.ids, ['A', 'B', 'C'])
  assert.deepEqual(lib.searchVectors(x, [1, 0.1, 0, 0], 2).map((m) => m.id), ['A', 'C'])
  assert.deepEqual(lib.searchVectors(x, [0, 0, 0, 0], 2), [])
  const bad = buf.slice()
  bad[30] ^= 1
  assert.throws(() => lib.decodeVectors(bad), /checksum/)
  assert.throws(() => lib.decodeVectors(new Uint8Array(10)), TypeError)
  const n = lib.l2normalize([3, 4])
  assert.deepEqual([...n], [Math.fround(0.6), Math.fround(0.8)])
  const multi = lib.decodeVectors(lib.encodeVectors('toy@4', ['A', 'A', 'B'], rows))
  assert.deepEqual(lib.searchVectorSets([multi], [0.7, 0.7, 0, 0], 5).map((m) => m.id), ['B', 'A'])
})

test('sets: EMOJI_SETS, isEmojiSet, emojiImageUrl', () => {
  assert.equal(lib.EMOJI_SETS[0], 'native')
  assert.equal(lib.EMOJI_SETS.length, 4)
  assert.ok(lib.isEmojiSet('twemoji'))
  assert.ok(!lib.isEmojiSet('comic'))
  assert.equal(lib.emojiImageUrl('👋🏽', { endpoint: 'https://x.dev/', emojiSet: 'noto' }), 'https://x.dev/v1/sets/noto/1F44B-1F3FD.svg')
  assert.equal(lib.emojiImageUrl('👋', { endpoint: 'https://x.dev', emojiSet: 'native' }), undefined)
  assert.equal(lib.emojiImageUrl('👋', { emojiSet: 'noto' }), undefined)
})

// A local server speaking the service's wire shapes.
async function serve(handler) {
  const calls = []
  const srv = createServer((req, res) => {
    const u = new URL(req.url, 'http://x')
    calls.push(u)
    const send = (status, body, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*' })
      res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body))
    }
    handler(u, send)
  })
  await new Promise((r) => srv.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${srv.address().port}`, calls, close: () => new Promise((r) => srv.close(r)) }
}

// A server of the pack files of packDir under /v1/pack/<version>/;
// override(name) may answer a file otherwise: bytes, or null for a 404.
const packServer = (override = () => undefined) =>
  serve((u, send) => {
    const m = /^\/v1\/pack\/[^/]+\/((pack\.[a-z]+(\.ext|\.assoc)?\.json)|([a-z.]+\.bin))$/.exec(u.pathname)
    const o = m && override(m[1])
    if (o === null) return send(404, { error: 'not_found' })
    if (o) return send(200, o, 'application/octet-stream')
    if (m && existsSync(join(packDir, m[1]))) return send(200, readFileSync(join(packDir, m[1])), m[2] ? 'application/json' : 'application/octet-stream')
    send(404, { error: 'not_found' })
  })
const shape = (packs) => packs.map((p) => `${p.locale}.${p.part}${p.bin ? '.bin' : ''}`)

test('loadPacks over HTTP: device indexes by default, BCP 47 locales, parts', async () => {
  const s = await packServer()
  const baseUrl = `${s.url}/v1/pack/${version}`
  try {
    assert.deepEqual(shape(await lib.loadPacks({ baseUrl, locales: ['fr'] })), ['en.core', 'en.ext.bin', 'fr.ext.bin'])
    assert.ok(s.calls.some((u) => u.pathname.endsWith('/device.fr.bin')))
    // The tags search takes: a region, a script, '_', an ISO 639-2 code, English twice.
    const tags = await lib.loadPacks({ baseUrl: baseUrl + '/', locales: ['pt-BR', 'zh-Hans', 'zh_Hant_TW', 'fra', 'en-GB'] })
    assert.deepEqual(shape(tags), ['en.core', 'en.ext.bin', 'pt.ext.bin', 'zh.ext.bin', 'fr.ext.bin'])
    assert.equal(lib.createEngine(tags).search('obrigado', { locale: 'pt-BR' }).results[0].id, '1F64F')
    assert.deepEqual(shape(await lib.loadPacks({ baseUrl, locales: ['fr'], index: false })), ['en.core', 'fr.core'])
    const ext = await lib.loadPacks({ baseUrl, locales: ['tr', 'en'], part: 'ext' })
    const assocOf = (ls) => ls.filter((l) => existsSync(join(packDir, `pack.${l}.assoc.json`))).map((l) => `${l}.ext`)
    assert.deepEqual(shape(ext), ['en.core', 'en.ext', 'tr.core', 'tr.ext', ...assocOf(['en', 'tr'])])
    // The associations alone, to add to the default packs: their part
    // indexes; a locale without them is skipped.
    const assoc = await lib.loadPacks({ baseUrl, locales: ['fr'], part: 'assoc' })
    assert.deepEqual(shape(assoc), assocOf(['en', 'fr']).map((s) => s + '.bin'))
    assert.ok(s.calls.some((u) => u.pathname.endsWith('/device.fr.assoc.bin')))
    assert.ok(assoc.length > 0, 'the version has associations')
    const withAssoc = lib.createEngine([...(await lib.loadPacks({ baseUrl, locales: ['fr'] })), ...assoc])
    assert.deepEqual(withAssoc.locales, ['en', 'fr'])
    assert.equal(withAssoc.search('shrove tuesday').results[0].emoji, '🥞', 'an association')
    // An unsupported locale fails loudly, before anything is fetched.
    const before = s.calls.length
    for (const bad of ['xx', 'de-DE', 'pt--BR', '', 'toolongtag9', 42]) {
      await assert.rejects(lib.loadPacks({ baseUrl, locales: [bad] }), (e) => e instanceof RangeError && /unsupported locale .*supported: en zh hi es ar fr bn pt ru id tr/.test(e.message), String(bad))
    }
    assert.equal(s.calls.length, before)
    assert.deepEqual(['pt-BR', 'zh-Hans', 'zh-Hant-HK', 'in', 'EN', 'es-419', 'ar_SA'].map(lib.packLocale), ['pt', 'zh', 'zh', 'id', 'en', 'es', 'ar'])
    assert.deepEqual(lib.LOCALES, ['en', 'zh', 'hi', 'es', 'ar', 'fr', 'bn', 'pt', 'ru', 'id', 'tr'])
  } finally {
    await s.close()
  }
})

// A locale's association part index missing or damaged: its JSON pack
// comes instead, and the engine answers the same.
test('loadPacks part assoc falls back to the JSON associations, then skips the locale', async () => {
  const part = readFileSync(join(packDir, 'device.fr.assoc.bin'))
  const damaged = Buffer.from(part.subarray(0, 4096))
  for (const body of [null, damaged]) {
    const s = await packServer((name) => (name === 'device.fr.assoc.bin' ? body : undefined))
    try {
      const packs = await lib.loadPacks({ baseUrl: `${s.url}/v1/pack/${version}`, locales: ['fr'], part: 'assoc' })
      assert.deepEqual(shape(packs), ['en.ext.bin', 'fr.ext'])
      assert.ok(s.calls.some((u) => u.pathname.endsWith('/pack.fr.assoc.json')))
    } finally {
      await s.close()
    }
  }
  // Neither usable: the locale is skipped, the call still answers.
  const s = await packServer((name) => (name === 'device.fr.assoc.bin' ? null : name === 'pack.fr.assoc.json' ? Buffer.from('{"format":') : undefined))
  try {
    assert.deepEqual(shape(await lib.loadPacks({ baseUrl: `${s.url}/v1/pack/${version}`, locales: ['fr'], part: 'assoc' })), ['en.ext.bin'])
  } finally {
    await s.close()
  }
})

// A locale's device index missing, damaged or another's: that locale comes
// as its core JSON pack, and the engine answers as one built from exactly
// those packs.
test('loadPacks falls back to the JSON pack when a device index cannot be used', async () => {
  const device = readFileSync(join(packDir, 'device.fr.bin'))
  let serveFr // what the server answers for device.fr.bin: bytes, null for 404
  const s = await packServer((name) => (name === 'device.fr.bin' ? serveFr : undefined))
  const baseUrl = `${s.url}/v1/pack/${version}`
  const gold = JSON.parse(readFileSync(new URL('./goldens.json', import.meta.url))).search.filter((c) => c.l === 'fr').slice(0, 150)
  const en = readPack('pack.en.json'), enDevice = readFileSync(join(packDir, 'device.en.bin'))
  const fromDevice = lib.createEngine([en, enDevice, device])
  const fromJSON = lib.createEngine([en, enDevice, readPack('pack.fr.json')])
  const damaged = Buffer.from(device)
  damaged[14 + 10 * 21 + 6] ^= 1 // the stored length of the term lists
  try {
    for (const [what, body, want] of [
      ['served', undefined, fromDevice],
      ['missing (404)', null, fromJSON],
      ['cut short', device.subarray(0, 4096), fromJSON],
      ['damaged section table', damaged, fromJSON],
      ['an HTML page (a fallback route)', Buffer.from('<!doctype html><title>x</title>'), fromJSON],
      ["another locale's device index", readFileSync(join(packDir, 'device.tr.bin')), fromJSON],
      ['a binary index, not a device index', readFileSync(join(packDir, 'index.fr.bin')), fromJSON],
    ]) {
      serveFr = body
      const packs = await lib.loadPacks({ baseUrl, locales: ['fr'] })
      assert.deepEqual(shape(packs), want === fromDevice ? ['en.core', 'en.ext.bin', 'fr.ext.bin'] : ['en.core', 'en.ext.bin', 'fr.core'], what)
      const eng = lib.createEngine(packs)
      for (const c of gold) assert.deepEqual(eng.search(c.q, { limit: 10, locale: 'fr', prefix: c.p }), want.search(c.q, { limit: 10, locale: 'fr', prefix: c.p }), `${what}: ${c.q}`)
    }
    // A fetch that throws for the indexes (a network error) is a fallback too.
    const flaky = (url, init) => (url.endsWith('.bin') ? Promise.reject(new TypeError('network')) : fetch(url, init))
    assert.deepEqual(shape(await lib.loadPacks({ baseUrl, locales: ['fr'], fetch: flaky })), ['en.core', 'fr.core'])
  } finally {
    await s.close()
  }
})

// custom-pack.json holds real answers of GET /v1/custom-pack written by the
// service's code (TestClientFixture in service/customhost): app-wide logo
// and party_parrot; tenant acme's own logo; a development key's empty pack.
const customAnswers = JSON.parse(readFileSync(new URL('./custom-pack.json', import.meta.url)))

test('loadCustomPack reads the service\'s custom pack: tenant scoping, image and shortcode on results', async () => {
  let forge // an answer for another tenant, as a cache keyed without the tenant would serve
  const s = await serve((u, send) => {
    if (u.pathname !== '/v1/custom-pack') return send(404, { error: 'not_found' })
    const key = u.searchParams.get('key')
    if (key === 'pk_dev') return send(200, customAnswers.dev)
    if (key !== 'pk_test') return send(401, { error: 'unauthorized' })
    if (forge) return send(200, forge)
    send(200, u.searchParams.get('tenant') === 'acme' ? customAnswers.acme : customAnswers.app)
  })
  try {
    const app = await lib.loadCustomPack({ endpoint: s.url + '/', key: 'pk_test' })
    assert.equal(s.calls.at(-1).searchParams.has('tenant'), false)
    assert.ok(lib.isCustomPack(app))
    assert.equal(app.tenant, null)
    const acme = await lib.loadCustomPack({ endpoint: s.url, key: 'pk_test', tenant: 'acme' })
    assert.equal(s.calls.at(-1).searchParams.get('tenant'), 'acme')
    assert.equal(acme.tenant, 'acme')
    const dev = await lib.loadCustomPack({ endpoint: s.url, key: 'pk_dev' })
    assert.deepEqual(dev.rows, [])
    await assert.rejects(lib.loadCustomPack({ endpoint: s.url, key: 'bad' }), /401/)
    forge = customAnswers.app
    await assert.rejects(lib.loadCustomPack({ endpoint: s.url, key: 'pk_test', tenant: 'acme' }), /tenant null for acme/)
    forge = { packVersion: version, custom: [{ id: 'abc', shortcode: 'x', imageUrl: 'https://img/x.png' }] } // not the service's format
    await assert.rejects(lib.loadCustomPack({ endpoint: s.url, key: 'pk_test' }), /not a custom pack/)

    const eng = lib.createEngine([en, app])
    const r = eng.search('party parrot').results[0]
    assert.deepEqual({ ...r, score: undefined }, { emoji: ':party_parrot:', id: 'C-emo_parrot', score: undefined, source: 'custom', label: 'party_parrot',
      match: 'party parrot', field: 'shortcode', imageUrl: 'https://api.example/v1/custom/app_fixture/emo_parrot', shortcode: 'party_parrot' })
    assert.ok(eng.search('fiesta').results.some((x) => x.id === 'C-emo_parrot'), 'aliases are searched')
    assert.equal(eng.search('company logo').results.find((x) => x.source === 'custom').imageUrl, 'https://api.example/v1/custom/app_fixture/emo_logo')
    assert.equal(eng.get('C-emo_logo').shortcode, 'logo')
    assert.equal(eng.get(':logo:').id, 'C-emo_logo')
    // The tenant's logo replaces the app-wide one: its image, not the app's.
    const ten = lib.createEngine([en, acme])
    assert.equal(ten.search('logo').results.find((x) => x.source === 'custom').imageUrl, 'https://api.example/v1/custom/app_fixture/emo_acme_logo')
    assert.equal(ten.get('C-emo_logo'), undefined)
    assert.equal(lib.createEngine([en, dev]).entries.length, engine.entries.length)
    assert.deepEqual(eng.locales, ['en'])
  } finally {
    await s.close()
  }
})

// Spec 1, custom emoji rule 1: the search API places the app's matching
// custom emoji first, within limit, in both modes; the library answers in
// the same order, and its dictionary results are those of an engine without
// the custom pack.
test('custom emoji come first, within limit; the dictionary ranks as without them', () => {
  const eng = lib.createEngine([en, customAnswers.app])
  for (const [q, want] of [['party', 'C-emo_parrot'], ['par', 'C-emo_parrot'], ['dance', 'C-emo_parrot'], ['company', 'C-emo_logo'], ['logo', 'C-emo_logo']]) {
    for (const limit of [1, 5, 24]) {
      const out = eng.search(q, { limit })
      const plain = engine.search(q, { limit })
      assert.equal(out.results.length, Math.min(limit, plain.results.length + 1), `${q} ${limit}`)
      assert.equal(out.results[0].id, want, `${q} ${limit}: custom first`)
      assert.deepEqual(out.results.slice(1).map((r) => r.id), plain.results.slice(0, limit - 1).map((r) => r.id), `${q} ${limit}`)
      assert.equal(out.confidence, plain.confidence, 'confidence is the dictionary\'s')
    }
  }
  assert.ok(engine.search('party').results[0].score > eng.search('party').results[0].score, 'first by rule, not by a higher score')
  assert.deepEqual(eng.search('cat').results.map((r) => r.id), engine.search('cat').results.map((r) => r.id), 'no custom match: unchanged')
  // Fusion keeps them first too, even under meaning hits and sure dictionary results.
  const fused = lib.fuse(eng.search('party', { limit: 5 }), [{ id: '1F389', emoji: '🎉', cosine: 0.7 }, { id: '1F973', emoji: '🥳', cosine: 0.65 }], 5)
  assert.equal(fused[0].id, 'C-emo_parrot')
  assert.equal(lib.fuseResults(eng.search('party', { limit: 5 }), [{ id: '1F389', cosine: 0.7 }])[0].id, 'C-emo_parrot')
})

// The word lists of the ranking rules come with the English core pack
// (packs/FORMAT.md "words", written from the Go engine's lists): without
// them the function words of "in love" and "the cat" weigh as much as the
// content words.
test('ranking word lists are read from the English core pack', () => {
  assert.ok(en.words.stop.en.includes('the') && en.words.gender.includes('woman') && en.words.flag.includes('flag'))
  const bare = lib.createEngine({ ...en, words: undefined })
  for (const q of ['in love', 'the cat']) assert.notDeepEqual(bare.search(q).results.slice(0, 3), engine.search(q).results.slice(0, 3), q)
  assert.equal(engine.search('the cat').results[0].emoji.replace('\ufe0f', ''), '🐈')
  // A list edited in the pack changes the rule: "cat" as a function word no longer leads "the cat".
  const edited = lib.createEngine({ ...en, words: { ...en.words, stop: { ...en.words.stop, en: ['cat'] } } })
  assert.notEqual(edited.search('the cat').results[0].emoji.replace('\ufe0f', ''), '🐈')
})

test('custom packs: isCustomPack and assertPack on the service\'s format', () => {
  const app = customAnswers.app
  assert.equal(lib.isCustomPack(app), true)
  assert.equal(lib.isCustomPack(en), false)
  const { imageUrl, ...noImage } = app.rowIndex
  assert.equal(lib.isCustomPack({ ...app, rowIndex: noImage }), false, 'the image column is part of the format')
  assert.throws(() => lib.assertPack({ ...app, rowIndex: noImage }), /rowIndex.imageUrl/)
  const row = app.rows[0]
  assert.throws(() => lib.assertPack({ ...app, rows: [['1F600', ...row.slice(1)]] }), /row 0/, 'ids start with C-')
  assert.throws(() => lib.assertPack({ ...app, rows: [row.slice(0, app.rowIndex.imageUrl)] }), /row 0/, 'no image address')
  assert.equal(lib.assertPack(app), app)
})

test('semantic client: query shape, cache, over-limit cooldown, packVersion pin', async () => {
  let overLimit = false
  let answerVersion = version
  const s = await serve((u, send) => {
    if (u.pathname !== '/v1/search') return send(404, {})
    send(200, { query: u.searchParams.get('q'), results: [{ emoji: '😴', id: '1F634', score: 0.61, source: 'semantic' }], packVersion: answerVersion, model: 'glove-cldr@100', cached: false, degraded: false, overLimit, aliasLocale: null, culture: null })
  })
  try {
    const c = lib.createSemanticClient({ endpoint: s.url, key: 'pk_1', packVersion: version, overLimitCooldownMs: 60000 })
    const r = await c.search('So tired…', { locale: 'pt-BR', limit: 5 })
    assert.equal(r.results[0].id, '1F634')
    assert.equal(r.cached, false)
    const q = s.calls[0].searchParams
    assert.deepEqual([q.get('q'), q.get('mode'), q.get('locale'), q.get('limit'), q.get('key'), q.get('pack')], ['So tired…', 'semantic', 'pt', '5', 'pk_1', version])
    assert.equal((await c.search('So tired…', { locale: 'pt', limit: 5 })).cached, true)
    assert.equal(s.calls.length, 1)
    overLimit = true
    assert.equal(await c.search('another', {}), undefined)
    assert.equal(await c.search('a third', {}), undefined)
    assert.equal(s.calls.length, 2) // cooling down: no call
    answerVersion = 'other'
    overLimit = false
    const pinned = lib.createSemanticClient({ endpoint: s.url, packVersion: version })
    assert.equal(await pinned.search('x y'), undefined)
    const ac = new AbortController()
    ac.abort()
    await assert.rejects(pinned.search('abort me', { signal: ac.signal }), { name: 'AbortError' })
  } finally {
    await s.close()
  }
})

test('shards: shardKeyFor, createShardProvider, layered provider falls through to the API', async () => {
  // The scheme of packs/FORMAT.md "Result shards": FNV-1a 32 of the normalized query.
  assert.equal(lib.shardKeyFor(['en-e', 'en-f'], 'A!'), 'en-e') // "a" hashes to e40c292c
  assert.equal(lib.shardKeyFor(['en'], 'anything'), 'en')
  assert.equal(lib.shardKeyFor(['fr-e4', 'fr-e5'], 'a', 'fr-CA'), 'fr-e4')
  assert.equal(lib.shardKeyFor(['en-e40c292c'], 'a'), 'en-e40c292c')
  assert.equal(lib.shardKeyFor(['fr'], 'a'), undefined)
  assert.equal(lib.shardKeyFor([], 'party'), undefined)
  const keys = ['en-0', 'en-1', 'en-2', 'en-3', 'en-4', 'en-5', 'en-6', 'en-7', 'en-8', 'en-9', 'en-a', 'en-b', 'en-c', 'en-d', 'en-e', 'en-f']
  const k = lib.shardKeyFor(keys, 'Party!')
  assert.equal(lib.shardKeyFor(keys, 'party'), k)
  let built = true
  const s = await serve((u, send) => {
    if (u.pathname === `/p/${version}/index.json`) return built ? send(200, { format: 1, packVersion: version, model: 'glove-cldr@100', hash: 'fnv1a32', keys }) : send(404, { error: 'not_found' })
    if (u.pathname === `/p/${version}/${k}.json`) return send(200, { format: 1, key: k, locale: 'en', results: { party: [{ emoji: '🥳', id: '1F973', score: 0.7, source: 'semantic' }] } })
    if (u.pathname === '/v1/search') return send(200, { results: [{ emoji: '🎉', id: '1F389', score: 0.6, source: 'semantic' }], packVersion: version })
    send(404, {})
  })
  try {
    const shards = lib.createShardProvider({ baseUrl: `${s.url}/p/${version}` })
    assert.equal((await shards.search('party', { locale: 'en' })).results[0].id, '1F973')
    assert.equal((await shards.search('party', { locale: 'en' })).layer, 'shard')
    assert.equal(await shards.search('unpublished words', {}), undefined)
    const layered = lib.createLayeredSemantic({ shardsUrl: `${s.url}/p/${version}`, endpoint: s.url })
    assert.equal((await layered.search('party', { locale: 'en' })).layer, 'shard')
    const viaApi = await layered.search('so tired', { locale: 'en' })
    assert.equal(viaApi.layer, 'api')
    assert.equal(viaApi.results[0].id, '1F389')
    assert.equal(lib.createLayeredSemantic({}), undefined)
    built = false
    const none = lib.createShardProvider({ baseUrl: `${s.url}/p/${version}` })
    assert.equal(await none.search('party', {}), undefined) // 404 before the first nightly build
    const chain = lib.chainProviders({ search: async () => { throw new Error('down') } }, { search: async () => ({ results: [], layer: 'api' }) })
    assert.equal((await chain.search('x')).layer, 'api')
  } finally {
    await s.close()
  }
})

async function until(cond, ms = 5000) {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 2))
  }
}

test('session: dictionary at every keystroke, debounced meaning, stale answers dropped, abort', async () => {
  const calls = []
  const semantic = {
    search(q, { signal }) {
      calls.push(q)
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => resolve({ results: [{ id: '1F634', emoji: '😴', cosine: 0.6 }], cached: q === 'so tired', layer: 'api' }), q === 'so t' ? 80 : 5)
        signal.addEventListener('abort', () => { clearTimeout(t); reject(new DOMException('aborted', 'AbortError')) })
      })
    },
  }
  const states = []
  const s = lib.createSearchSession({ engine, semantic, debounceMs: 20, limit: 10, onChange: (st) => states.push(st) })
  s.update('so t')
  await until(() => calls.length === 1) // "so t" is asked, still in flight
  s.update('so ti')
  s.update('so tired')
  assert.deepEqual(states.map((x) => x.query), ['so t', 'so ti', 'so tired'])
  assert.ok(states.every((x) => x.status === 'loading' && x.results.length > 0 && x.aliasMs >= 0))
  await until(() => states.at(-1).status === 'fused')
  await new Promise((r) => setTimeout(r, 100)) // an aborted "so t" answer would land here
  assert.deepEqual(calls, ['so t', 'so tired']) // "so ti" debounced away; "so t" aborted
  const last = states.at(-1)
  assert.equal(states.filter((x) => x.status === 'fused').length, 1)
  assert.equal(last.query, 'so tired')
  assert.equal(last.status, 'fused')
  assert.equal(last.layer, 'api')
  assert.equal(last.semanticCached, true)
  assert.ok(last.semanticMs >= 0)
  assert.ok(last.results.some((r) => r.id === '1F634'))
  assert.equal(last.alias.results[0].source, 'alias')
  s.update('')
  assert.equal(states.at(-1).status, 'idle')
  s.update(':joy:') // confident dictionary: no meaning call
  assert.equal(states.at(-1).status, 'alias')
  assert.equal(states.at(-1).layer, 'device')
  const failing = lib.createSearchSession({ engine, semantic: { search: async () => { throw new Error('boom') } }, debounceMs: 0, onChange: (st) => states.push(st) })
  failing.update('so very tired')
  await until(() => states.at(-1).status === 'error')
  assert.equal(states.at(-1).status, 'error')
  assert.equal(states.at(-1).error.message, 'boom')
  s.dispose()
  failing.dispose()
  const n = states.length
  s.update('after dispose')
  assert.equal(states.length, n)
  assert.throws(() => lib.createSearchSession({}), TypeError)
})

test('needsMeaning: the calibrated thresholds, one word and several', () => {
  assert.deepEqual({ ...lib.DEFAULT_SESSION_CALIBRATION }, { oneWord: 0.902, words: 1 })
  for (const [tokens, conf, want] of [[0, 0, false], [1, 0.79, true], [1, 0.9019, true], [1, 0.902, false], [2, 0.99, true], [2, 1, false], [3, NaN, true], [1, undefined, true]]) {
    assert.equal(lib.needsMeaning({ tokens: Array(tokens).fill('x'), confidence: conf }), want, `${tokens} ${conf}`)
  }
  assert.equal(lib.needsMeaning({ tokens: ['x'], confidence: 0.5 }, { oneWord: 0.4, words: 0.4 }), false)
})

// The session over the default device engine: a confident-looking single
// word ("obrigado", confidence 0.87) is below the calibrated threshold and
// asks the meaning layer; an exact name does not; an emoticon answers from
// the dictionary and asks nothing.
test('session: the meaning layer is asked whenever the dictionary answer is weak for what was typed', async () => {
  const device = lib.createEngine([en, ...['en', 'pt', 'es'].map((l) => readFileSync(join(packDir, `device.${l}.bin`)))])
  for (const [q, locale, asks, first] of [
    ['obrigado', 'pt-BR', true, '🙏'],
    ['te quiero', 'es', false, '❤️'],
    ['thank you', 'en', false, '🙏'],
    ['face with tears of joy', 'en', false, '😂'],
    ['xyzzy', 'en', true, undefined],
    ['cat', 'en', false, '🐈️'],
    [':)', 'en', false, '🙂'],
  ]) {
    const calls = [], states = []
    const semantic = { search: async (text) => (calls.push(text), { results: [], layer: 'api' }) }
    const s = lib.createSearchSession({ engine: device, semantic, locale, debounceMs: 0, onChange: (st) => states.push(st) })
    s.update(q)
    await until(() => !asks || calls.length === 1)
    assert.equal(states[0].status, asks ? 'loading' : 'alias', q)
    assert.equal(states[0].results[0]?.emoji, first, q)
    assert.equal(lib.needsMeaning(states[0].alias), asks, q)
    s.dispose()
  }
})
