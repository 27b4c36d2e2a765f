// The root engine keeps the answers to queries of at most two characters
// (create.js): kept answers must equal fresh ones, per options, and be
// copies a caller may change.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createEngine } from '../index.js'
import { createEngine as createCore } from '../core.js'
import { readPack } from './helpers.js'

const packs = [readPack('pack.en.json'), readPack('pack.es.json')]

test('short queries: kept answers equal the core engine, per options', () => {
  const engine = createEngine(packs)
  const core = createCore(packs)
  const cases = [
    ['c', {}], ['c', { limit: 5 }], ['c', { prefix: false }], ['ca', { locale: 'es' }], ['ca', {}],
    ['😀', {}], [':)', {}], ['no', { locale: 'es', limit: 3 }], ['cat', {}],
  ]
  for (let round = 0; round < 2; round++) {
    for (const [q, o] of cases) {
      assert.deepEqual(engine.search(q, o), core.search(q, o), `${q} ${JSON.stringify(o)} round ${round}`)
    }
  }
})

test('short queries: a caller changing its answer changes no later answer', () => {
  const engine = createEngine(packs)
  const first = engine.search('ca')
  const want = structuredClone(first)
  first.results[0].emoji = 'changed'
  first.results.length = 1
  first.tokens.push('changed')
  assert.deepEqual(engine.search('ca'), want)
})
