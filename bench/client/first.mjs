// The first createEngine in a fresh process (Issue 14's bar: <= 30 ms over
// the English core pack), as the median of several fresh processes of
// create.mjs, over five inputs: the JSON pack read from disk, the pack with
// the English core pack's binary index read from disk, the device indexes
// of English and one other locale read from disk (issue 24's bar: <= 30 ms),
// and the product path, loadPacks over HTTP from a local static server of
// packs/dist for English and that locale (device indexes by default, the
// core JSON packs with index: false):
//
//	go run ./packs/cmd/buildpacks -in packs/.npm/node_modules -out packs/dist
//	node bench/client/first.mjs [runs=9] [other locales=fr, or fr,zh,…]
//
// Runs alternate between the inputs, so load on the machine falls on all.
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { join, dirname, basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '../..')
const runs = +(process.argv[2] || 9)
const { packVersion: version } = await import('./version.mjs')
const dist = join(root, 'packs/dist', version)
// The pack files as /v1/pack/<version>/ serves them (no directory walks).
const srv = createServer(async (req, res) => {
  const name = basename(new URL(req.url, 'http://x').pathname)
  try {
    const body = await readFile(join(dist, name))
    res.writeHead(200, { 'content-type': name.endsWith('.json') ? 'application/json' : 'application/octet-stream' })
    res.end(body)
  } catch {
    res.writeHead(404).end()
  }
})
await new Promise((r) => srv.listen(0, '127.0.0.1', r))
const base = `http://127.0.0.1:${srv.address().port}/v1/pack/${version}`
const run = async (args) => JSON.parse((await promisify(execFile)(process.execPath, [join(here, 'create.mjs'), ...args], { encoding: 'utf8' })).stdout)
// The other locales of the English-plus-one figures (issue 24): fr, or
// argv[3], a comma-separated list (the loadPacks rows for its first).
const others = (process.argv[3] || 'fr').split(',')
const other = others[0]
const inputs = {
  json: [],
  index: ['--index', join(dist, 'index.en.core.bin')],
  ...Object.fromEntries(others.map((l) => [`device en+${l}`, ['--index', join(dist, 'device.en.bin'), '--index', join(dist, `device.${l}.bin`)]])),
  [`loadPacks en+${other}`]: ['--load', base, '--locale', other],
  [`loadPacks-no-index en+${other}`]: ['--load', base, '--locale', other, '--no-index'],
}
const rows = Object.fromEntries(Object.keys(inputs).map((k) => [k, []]))
for (let i = 0; i < runs; i++) for (const [name, args] of Object.entries(inputs)) rows[name].push(await run(args))
srv.close()
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
for (const [name, rs] of Object.entries(rows)) {
  const m = (k) => med(rs.map((r) => r[k]))
  console.log(JSON.stringify({ input: name, runs, index: rs[0].index, loadMs: m('loadMs'), firstCpuMs: m('firstCpuMs'), firstWallMs: m('firstWallMs'), firstMainMs: m('firstMainMs'), warmCpuMedianMs: m('warmCpuMedianMs'),
    warmWallMedianMs: m('warmWallMedianMs'), firstWallAll: rs.map((r) => r.firstWallMs), firstMainAll: rs.map((r) => r.firstMainMs) }))
}
