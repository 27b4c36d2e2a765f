// The picker's parts that need no browser: its UI strings, what it keeps
// in storage, the catalog it paints the grid from, and its locale choice.
// The element itself is tested in Chromium (test/browser/demo.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createEngine } from '../index.js'
import { pickerStrings, isRTL, PICKER_LOCALES, createStore, STORE_KEY, localeOf } from '../picker.js'
import { catalog } from '../src/picker/catalog.js'
import { LOCALES, readPack } from './helpers.js'

test('UI strings: every pack locale, every string its own', () => {
  assert.deepEqual([...PICKER_LOCALES].sort(), [...LOCALES].sort())
  const en = pickerStrings('en')
  for (const l of PICKER_LOCALES) {
    const t = pickerStrings(l)
    for (const [k, v] of Object.entries(t)) assert.ok(v.length, `${l} ${k}`)
    assert.equal(t.tones.length, 6, l)
    assert.match(t.count, /\{n\}/, l)
    if (l !== 'en') for (const k of ['search', 'recent', 'none', 'loading', 'failed']) assert.notEqual(t[k], en[k], `${l} ${k} is English`)
  }
  assert.equal(pickerStrings('pt-BR').search, 'Pesquisar emoji')
  assert.equal(pickerStrings('xx').search, en.search)
  assert.ok(isRTL('ar') && isRTL('ar-EG') && !isRTL('en') && !isRTL('arn'))
})

test('localeOf: one of the 11, else English', () => {
  for (const [tag, want] of [['es-419', 'es'], ['zh_Hant', 'zh'], ['TR', 'tr'], ['de', 'en'], ['', 'en'], [null, 'en']]) assert.equal(localeOf(tag), want, tag)
})

// A Storage-shaped map, as localStorage behaves.
const memory = () => {
  const m = new Map()
  return { m, getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, String(v)) }
}

test('store: recents ranked by use then recency, bounded, versioned; the tone kept', () => {
  const s = memory()
  const st = createStore(s)
  st.use('1F600', 1)
  st.use('1F431', 2)
  st.use('1F600', 3)
  st.use('1F44D', 4)
  assert.deepEqual(st.recent(), ['1F600', '1F44D', '1F431'])
  st.tone = 3
  assert.equal(createStore(s).tone, 3, 'another store on the same storage reads it')
  assert.deepEqual(createStore(s).recent(), ['1F600', '1F44D', '1F431'], 'the tone write kept the recents')
  for (let i = 0; i < 100; i++) st.use(`X${i}`, 10 + i)
  assert.equal(st.recent().length, 32, 'at most 32 remembered')
  assert.equal(st.recent()[0], '1F600', 'the most used stays')
  assert.ok(JSON.parse(s.m.get(STORE_KEY)).recent.length <= 32)
  assert.match(STORE_KEY, /:v1$/)
})

test('store: unreadable or failing storage is empty, never an error', () => {
  const junk = memory()
  junk.setItem(STORE_KEY, '{not json')
  assert.deepEqual(createStore(junk).recent(), [])
  junk.setItem(STORE_KEY, JSON.stringify({ recent: 'x', tone: 9 }))
  assert.equal(createStore(junk).tone, 0)
  const failing = { getItem() { throw new Error('denied') }, setItem() { throw new Error('quota') } }
  const st = createStore(failing)
  st.use('1F600')
  st.tone = 2
  assert.deepEqual(st.recent(), [])
  assert.equal(st.tone, 0)
  assert.deepEqual(createStore(undefined).recent(), [])
})

test('catalog: the engine\'s entries, names and group names straight from the packs', () => {
  const packs = [readPack('pack.en.json'), readPack('pack.es.json')]
  const cat = catalog(packs, 'es')
  const engine = createEngine(packs)
  assert.equal(cat.entries.length, engine.entries.length)
  for (const [i, e] of engine.entries.entries()) assert.deepEqual(cat.entries[i], e, e.id)
  assert.equal(cat.codes.get('1F64F'), 'folded_hands')
  assert.deepEqual(cat.groups, readPack('pack.es.json').groups)
  assert.equal(cat.groups.length, 10)
  assert.equal(catalog([readPack('pack.en.json')], 'fr').named, false, 'no French pack: English names')
  assert.equal(catalog([readPack('pack.en.json')], 'en').named, true)
  assert.throws(() => catalog([readPack('pack.fr.json')], 'fr'), /English core pack/)
})
