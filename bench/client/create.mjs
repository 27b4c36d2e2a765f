// Engine creation alone (Issue 14's bar: createEngine over the English core
// pack <= 30 ms): the first call in this fresh process, then the median of
// 20 more, in wall and process CPU time. bench.mjs measures the same beside
// the typing trace; this one runs in a second, for profiling:
//
//	node bench/client/create.mjs
//	node bench/client/create.mjs --index /tmp/index.en.core.bin
//	node --cpu-prof --cpu-prof-dir=/tmp/prof bench/client/create.mjs
//
// With --index, the engine reads that binary index in place beside the pack
// (the English core pack's own index: go run ./engine/cmd/goldens -o
// /tmp/g.json -core-index /tmp/index.en.core.bin; or index.en.bin of the pack
// version, which adds the extension phrases). first.mjs runs this script in
// several fresh processes and reports medians.
import { readFileSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const { createEngine } = await import(join(root, 'client/index.js'))
const version = JSON.parse(readFileSync(join(root, 'client/test/goldens.json'), 'utf8')).packVersion
const enCore = JSON.parse(readFileSync(join(root, 'packs/dist', version, 'pack.en.json'), 'utf8'))
const at = process.argv.indexOf('--index')
const index = at > 0 ? readFileSync(process.argv[at + 1]) : undefined
const input = index ? [enCore, index] : enCore
const t1 = performance.now(), c1 = cpu()
createEngine(input)
const cold = [performance.now() - t1, cpu() - c1]
const warm = []
for (let i = 0; i < 20; i++) {
  const a = performance.now(), b = cpu()
  createEngine(input)
  warm.push([performance.now() - a, cpu() - b])
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const r = (x) => +x.toFixed(1)
console.log(JSON.stringify({ packVersion: version, rows: enCore.rows.length, index: index ? index.length : 0, firstWallMs: r(cold[0]), firstCpuMs: r(cold[1]),
  warmWallMedianMs: r(med(warm.map((w) => w[0]))), warmCpuMedianMs: r(med(warm.map((w) => w[1]))) }))
