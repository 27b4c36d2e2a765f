// The default download of the client library for English plus one locale
// (issue 24's bar: <= 400 KB gzip for every locale pair): what loadPacks()
// fetches by default, pack.en.json + device.en.bin + device.<locale>.bin,
// each file gzipped at level 9 here (zlib) and the gzip size the pack build
// wrote into manifest.json, the larger of the two counting. The worst pair
// counts.
//
//	node bench/client/download.mjs [packs/dist/<version>]
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packVersion } from './version.mjs'

const dir = process.argv[2] || join(dirname(fileURLToPath(import.meta.url)), '../../packs/dist', packVersion)
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
const listed = { ...manifest.files, ...manifest.indexes }
const gz = (name) => gzipSync(readFileSync(join(dir, name)), { level: 9 }).length
const size = (name) => ({ gzip: gz(name), manifest: listed[name]?.gzipBytes })
const base = ['pack.en.json', 'device.en.bin'].map(size)
const rows = manifest.locales.filter((l) => l !== 'en').map((l) => {
  const own = size(`device.${l}.bin`)
  const sum = (k) => base[0][k] + base[1][k] + own[k]
  return { locale: l, device: own.gzip, total: Math.max(sum('gzip'), sum('manifest') || 0), zlib9: sum('gzip'), manifest: sum('manifest') }
})
for (const r of rows) console.log(JSON.stringify(r))
const worst = rows.reduce((a, b) => (b.total > a.total ? b : a))
console.log(JSON.stringify({ packVersion: manifest.packVersion, packEnJson: base[0].gzip, deviceEn: base[1].gzip, worst: worst.locale, worstBytes: worst.total, worstKB: +(worst.total / 1024).toFixed(1), bar: 400000, met: worst.total <= 400000 }))
