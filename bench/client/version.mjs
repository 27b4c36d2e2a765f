// The pack version the client's goldens were written for (packs/dist/<version>),
// read off the head of client/test/goldens.json ({"packVersion":"…",…} comes
// first): the benchmarks that time a fresh process's first createEngine must
// not parse the 2.7 MB goldens (and leave their garbage) before the timer.
import { openSync, readSync, closeSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const fd = openSync(join(dirname(fileURLToPath(import.meta.url)), '../../client/test/goldens.json'), 'r')
const head = Buffer.alloc(256)
const n = readSync(fd, head, 0, head.length, 0)
closeSync(fd)
const m = /^\{"packVersion":"([^"]+)"/.exec(head.subarray(0, n).toString('utf8'))
if (!m) throw new Error('bench: client/test/goldens.json does not start with its packVersion')
export const packVersion = m[1]
