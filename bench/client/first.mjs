// The first createEngine in a fresh process (Issue 14's bar: <= 30 ms over
// the English core pack), as the median of several fresh processes of
// create.mjs, with and without the English core pack's binary index:
//
//	go run ./engine/cmd/goldens -o /tmp/g.json -core-index /tmp/index.en.core.bin
//	node bench/client/first.mjs [runs=9] [/tmp/index.en.core.bin]
//
// Runs alternate between the two inputs, so load on the machine falls on both.
import { execFileSync } from 'node:child_process'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const runs = +(process.argv[2] || 9)
const index = process.argv[3] || '/tmp/index.en.core.bin'
const run = (args) => JSON.parse(execFileSync(process.execPath, [join(here, 'create.mjs'), ...args], { encoding: 'utf8' }))
const rows = { json: [], index: [] }
for (let i = 0; i < runs; i++) {
  rows.json.push(run([]))
  rows.index.push(run(['--index', index]))
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
for (const [name, rs] of Object.entries(rows)) {
  const m = (k) => med(rs.map((r) => r[k]))
  console.log(JSON.stringify({ input: name, runs, firstCpuMs: m('firstCpuMs'), firstWallMs: m('firstWallMs'), warmCpuMedianMs: m('warmCpuMedianMs'), warmWallMedianMs: m('warmWallMedianMs'),
    firstCpuAll: rs.map((r) => r.firstCpuMs) }))
}
