// Typing-trace benchmark of the client library beside emoji-picker-element
// 1.29 and emoji-mart 5.6 (their real npm packages, installed by
// INSTALL_BENCH=1 scripts/install-client-tools.sh into bench/client/node_modules),
// in one Node process: every prefix of every query of a trace file, limit
// 24, each keystroke timed; plus engine creation time.
//
//	node bench/client/bench.mjs [--ours] [--index packs/dist/<version>/index.en.core.bin] [../shared/eval/search/en.emojilib.jsonl]
//
// --index: our engine reads that binary index in place beside the English
// core pack (index.en.core.bin of the pack version, written by buildpacks);
// given again, the parts beside it (--index …/device.en.bin --index
// …/device.en.assoc.bin: the picker's engine once the associations load).
//
// Times are wall-clock (performance.now) of one process; on a shared
// machine CPU time (process.cpuUsage) is printed beside creation times.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = join(here, '../..')
const args = process.argv.slice(2)
const oursOnly = args.includes('--ours') // skip the rivals (minutes on a loaded machine)
const indexFiles = args.filter((a, i) => args[i - 1] === '--index') // in order: an index, then its parts
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--index') || join(root, '../shared/eval/search/en.emojilib.jsonl')
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

// Fresh-process numbers first: nothing has run yet.
const c0 = cpu(), t0 = performance.now()
const { createEngine } = await import(join(root, 'client/index.js'))
const version = JSON.parse(readFileSync(join(root, 'client/test/goldens.json'), 'utf8')).packVersion
const enCore = JSON.parse(readFileSync(join(root, 'packs/dist', version, 'pack.en.json'), 'utf8'))
const input = indexFiles.length ? [enCore, ...indexFiles.map((f) => readFileSync(f))] : enCore
const t1 = performance.now(), c1 = cpu()
let engine = createEngine(input)
const cold = { wall: performance.now() - t1, cpu: cpu() - c1, importWall: t1 - t0, importCpu: c1 - c0 }
const warm = []
for (let i = 0; i < 20; i++) {
  const a = performance.now(), b = cpu()
  engine = createEngine(input)
  warm.push([performance.now() - a, cpu() - b])
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).q)
const trace = rows.flatMap((q) => { const cs = Array.from(q); return cs.map((_, i) => cs.slice(0, i + 1).join('')) })

function stats(ds, total) {
  const s = [...ds].sort((a, b) => a - b)
  return { n: s.length, p50us: +(s[s.length >> 1] * 1000).toFixed(1), p99us: +(s[Math.floor(s.length * 0.99)] * 1000).toFixed(1), qps: Math.round(s.length / (total / 1000)) }
}
async function run(name, search, isAsync) {
  const ds = new Array(trace.length)
  const start = performance.now()
  if (isAsync) {
    for (let i = 0; i < trace.length; i++) { const a = performance.now(); await search(trace[i]); ds[i] = performance.now() - a }
  } else {
    for (let i = 0; i < trace.length; i++) { const a = performance.now(); search(trace[i]); ds[i] = performance.now() - a }
  }
  return { name, ...stats(ds, performance.now() - start) }
}

const results = []
const ours = (q) => engine.search(q, { limit: 24, locale: 'en', prefix: true })
results.push({ ...(await run('@emojisearch/client (en core), first pass', ours)) })
results.push({ ...(await run('@emojisearch/client (en core)', ours)) })
// The same pass timed in process CPU time (process.cpuUsage, µs resolution):
// on a shared machine wall time also counts the moments the process waits
// for a core; CPU time does not (it does count V8's helper threads).
{
  const ds = new Array(trace.length)
  const start = performance.now()
  for (let i = 0; i < trace.length; i++) { const a = process.cpuUsage(); ours(trace[i]); const b = process.cpuUsage(a); ds[i] = (b.user + b.system) / 1000 }
  results.push({ name: '@emojisearch/client (en core), CPU time per keystroke', ...stats(ds, performance.now() - start) })
}

// emoji-picker-element: its Database on IndexedDB (fake-indexeddb in Node), data from emoji-picker-element-data.
const nm = join(here, 'node_modules')
let epe = { name: 'emoji-picker-element 1.29.1', skipped: 'not installed (INSTALL_BENCH=1 scripts/install-client-tools.sh)' }
try {
  if (oursOnly) throw new Error('Cannot find: skipped with --ours')
  await import(join(nm, 'fake-indexeddb/auto/index.mjs'))
  const data = readFileSync(join(nm, 'emoji-picker-element-data/en/emojibase/data.json'))
  const realFetch = globalThis.fetch
  globalThis.fetch = async (url, opts) => String(url).startsWith('http://data.local/')
    ? new Response(opts?.method === 'HEAD' ? null : data, { headers: { 'content-type': 'application/json', etag: '"v1"' } })
    : realFetch(url, opts)
  const { default: Database } = await import(join(nm, 'emoji-picker-element/database.js'))
  const a = performance.now()
  const db = new Database({ dataSource: 'http://data.local/data.json', locale: 'en' })
  await db.ready()
  const create = performance.now() - a
  await run('epe warm-up', (q) => db.getEmojiBySearchQuery(q), true)
  epe = { ...(await run('emoji-picker-element 1.29.1', (q) => db.getEmojiBySearchQuery(q), true)), createMs: +create.toFixed(1) }
  await db.close()
} catch (e) {
  if (!String(e).includes('Cannot find')) throw e
}
results.push(epe)

let mart = { name: 'emoji-mart 5.6.0', skipped: 'not installed' }
try {
  if (oursOnly) throw new Error('Cannot find: skipped with --ours')
  const { default: data } = await import(join(nm, '@emoji-mart/data/sets/15/native.json'), { with: { type: 'json' } })
  const { init, SearchIndex } = await import(join(nm, 'emoji-mart/dist/module.js'))
  const a = performance.now()
  await init({ data })
  await SearchIndex.search('a')
  const create = performance.now() - a
  await run('mart warm-up', (q) => SearchIndex.search(q, { maxResults: 24 }), true)
  mart = { ...(await run('emoji-mart 5.6.0', (q) => SearchIndex.search(q, { maxResults: 24 }), true)), createMs: +create.toFixed(1) }
} catch (e) {
  if (!String(e).includes('Cannot find')) throw e
}
results.push(mart)

console.log(JSON.stringify({
  trace: `${file.split('/').pop()}: ${rows.length} queries, ${trace.length} keystrokes`,
  createEngine: { coldWallMs: +cold.wall.toFixed(1), coldCpuMs: +cold.cpu.toFixed(1), warmWallMedianMs: +med(warm.map((w) => w[0])).toFixed(1), warmCpuMedianMs: +med(warm.map((w) => w[1])).toFixed(1), importMs: +cold.importWall.toFixed(1) },
  typing: results,
}, null, 1))
