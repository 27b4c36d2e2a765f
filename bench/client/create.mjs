// Engine creation alone (Issue 14's bar: createEngine over the English core
// pack <= 30 ms): the first call in this fresh process, then the median of
// 20 more, in wall and process CPU time. bench.mjs measures the same beside
// the typing trace; this one runs in a second, for profiling:
//
//	node bench/client/create.mjs
//	node bench/client/create.mjs --index packs/dist/<version>/index.en.core.bin
//	node bench/client/create.mjs --index packs/dist/<version>/device.en.bin --index packs/dist/<version>/device.fr.bin
//	node bench/client/create.mjs --load http://127.0.0.1:8787/v1/pack/<version> [--no-index]
//	node --cpu-prof --cpu-prof-dir=/tmp/prof bench/client/create.mjs
//
// With --index, the engine reads that binary index in place beside the pack
// (the English core pack's own index, index.en.core.bin of the pack version;
// or index.en.bin, which adds the extension phrases). With --load, the packs
// come as an app gets them: loadPacks over HTTP from that base address
// (the device indexes of English and --locale, or the JSON core packs with
// --no-index), then createEngine
// of its answer; loadMs is the loadPacks time. first.mjs runs this script in
// several fresh processes and reports medians.
import { readFileSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
// The main thread's CPU time (Linux schedstat, ns; NaN elsewhere): process
// CPU also counts V8's compiler and GC helper threads, and wall time the
// waits for a core on a loaded machine.
const stat = `/proc/self/task/${process.pid}/schedstat`
const main = () => { try { return +readFileSync(stat, 'utf8').split(' ')[0] / 1e6 } catch { return NaN } }
const { createEngine } = await import(join(root, 'client/index.js'))
const { packVersion: version } = await import('./version.mjs')
const arg = (name) => { const at = process.argv.indexOf(name); return at > 0 ? process.argv[at + 1] : undefined }
let input, loadMs = 0
if (arg('--load')) {
  const { loadPacks } = await import(join(root, 'client/index.js'))
  const t0 = performance.now()
  input = await loadPacks({ baseUrl: arg('--load'), locales: arg('--locale') ? [arg('--locale')] : [], index: !process.argv.includes('--no-index') })
  loadMs = performance.now() - t0
} else {
  const enCore = JSON.parse(readFileSync(join(root, 'packs/dist', version, 'pack.en.json'), 'utf8'))
  // --index may repeat: index.en.core.bin, or device.en.bin and device.<locale>.bin.
  const files = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--index' ? [a] : []))
  input = files.length ? [enCore, ...files.map((f) => readFileSync(f))] : enCore
}
const enCore = input[0] || input
const index = input.find?.((p) => p.bin || p.byteLength) // the binary index given, if any
main()
const t1 = performance.now(), c1 = cpu(), m1 = main()
createEngine(input)
const cold = [performance.now() - t1, cpu() - c1, main() - m1]
const warm = []
for (let i = 0; i < 20; i++) {
  const a = performance.now(), b = cpu()
  createEngine(input)
  warm.push([performance.now() - a, cpu() - b])
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const r = (x) => +x.toFixed(1)
console.log(JSON.stringify({ packVersion: version, rows: enCore.rows.length, index: !!index, loadMs: r(loadMs), firstWallMs: r(cold[0]), firstCpuMs: r(cold[1]), firstMainMs: r(cold[2]),
  warmWallMedianMs: r(med(warm.map((w) => w[0]))), warmCpuMedianMs: r(med(warm.map((w) => w[1]))) }))
