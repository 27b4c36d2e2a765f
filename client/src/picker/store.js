// What the picker remembers on the device: the skin tone and the emoji
// picked most (the "Frequently used" row), in localStorage under one
// versioned key. Bounded: at most MAX emoji, the least used and oldest
// dropped first. Storage that throws (private modes, quotas) or holds
// something else is treated as empty; nothing leaves the device.
export const STORE_KEY = 'emoji-search-picker:v1'
const MAX = 32

const read = (storage) => {
  try {
    const v = JSON.parse(storage?.getItem(STORE_KEY) || 'null')
    if (v && Array.isArray(v.recent)) return { tone: v.tone >= 0 && v.tone <= 5 ? v.tone | 0 : 0, recent: v.recent.filter((r) => Array.isArray(r) && typeof r[0] === 'string') }
  } catch {}
  return { tone: 0, recent: [] }
}
const rank = (a, b) => b[1] - a[1] || b[2] - a[2]

/** createStore keeps the tone and recents of one storage (localStorage by default). */
export function createStore(storage = globalThis.localStorage) {
  const save = (v) => {
    try { storage?.setItem(STORE_KEY, JSON.stringify(v)) } catch {}
  }
  return {
    get tone() { return read(storage).tone },
    set tone(t) { save({ ...read(storage), tone: t }) },
    /** recent lists ids, most used first (ties: most recent). */
    recent() { return read(storage).recent.sort(rank).map((r) => r[0]) },
    /** use counts one pick of id at time now. */
    use(id, now = Date.now()) {
      const v = read(storage)
      const r = v.recent.find((x) => x[0] === id)
      if (r) { r[1]++; r[2] = now } else v.recent.push([id, 1, now])
      v.recent = v.recent.sort(rank).slice(0, MAX)
      save(v)
    },
  }
}
