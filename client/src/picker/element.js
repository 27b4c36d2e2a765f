// <emoji-search-picker>: an emoji picker built on the library's public API
// (loadPacks, createEngine, createSearchSession, the providers). Empty
// query: the catalog by group, sections built as they scroll near.
// Typing: the session's results (dictionary at every keystroke, meaning
// results fused in, custom emoji first, the culture layer). The input is a
// combobox whose listbox it drives with aria-activedescendant, so focus
// never leaves the box. No framework; one shadow root.
import {
  loadPacks, loadCustomPack, loadCulture, createEngine, createSearchSession, createLayeredSemantic,
  applySkinTone, hexcodeOf, emojiImageUrl, isEmojiSet,
} from '../../index.js'
import { pickerStrings, isRTL, PICKER_LOCALES } from './strings.js'
import { createStore } from './store.js'
import { drawableTest } from './draw.js'
import { catalog } from './catalog.js'
import { CSS } from './style.js'

// Tab icons per group; group 2 (components: skin tones, hair) is not browsed.
const ICONS = ['😀', '👋', '', '🐱', '🍎', '✈️', '⚽', '💡', '❤️', '🏁']
const FIRST = 48 // grid cells built before the first paint; the rest when they scroll near
const RECENT = 24
const LIMIT = 48
const HAND = '✋'

const HTML = `<style>${CSS}</style><div class="p" part="picker">
<div class="top"><input type="search" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="grid" autocomplete="off" spellcheck="false" part="input"><button class="tone" type="button" aria-expanded="false" aria-controls="tones"></button></div>
<div class="tones" id="tones" role="radiogroup" hidden></div>
<nav part="tabs"></nav>
<div class="list" id="grid" role="listbox" hidden></div>
<div class="list" id="res" role="listbox" hidden></div>
<div class="empty"></div>
<div class="pv" part="preview"><span class="big" aria-hidden="true"></span><div><div class="nm"></div><div class="sc"></div></div></div>
<div class="sr" role="status"></div></div>`

const el = (tag, cls, text) => {
  const e = document.createElement(tag)
  if (cls) e.className = cls
  if (text) e.textContent = text
  return e
}

/** localeOf picks the picker's locale: the attribute, else the page's language, else the browser's; English when not one of the 11. */
export function localeOf(tag) {
  const l = String(tag || '').toLowerCase().split(/[-_]/)[0]
  return PICKER_LOCALES.includes(l) ? l : 'en'
}

const Base = globalThis.HTMLElement || class {}

export class EmojiSearchPicker extends Base {
  static observedAttributes = ['locale', 'endpoint', 'pack-version', 'set', 'key', 'region', 'semantic', 'shards', 'culture']

  constructor() {
    super()
    const root = this.attachShadow({ mode: 'open', delegatesFocus: true })
    root.innerHTML = HTML
    const $ = (s) => root.querySelector(s)
    this._el = { p: $('.p'), input: $('input'), tone: $('.tone'), tones: $('.tones'), nav: $('nav'), grid: $('#grid'), res: $('#res'), empty: $('.empty'), big: $('.big'), nm: $('.nm'), sc: $('.sc'), sr: $('.sr') }
    // The results' cells are kept across keystrokes (see _resCells).
    this._el.res.append((this._el.cells = el('div', 'cells')))
    this._store = createStore()
    this._tone = this._store.tone
    this._sections = []
    this._seq = 0
    /** loaded is true once the data is in and the first view drawn. */
    this.loaded = false
    const { input, grid, res, tone, tones, nav } = this._el
    input.addEventListener('input', () => {
      this._nav = false
      this._session?.update(input.value)
    })
    input.addEventListener('keydown', (ev) => this._key(ev))
    for (const list of [grid, res]) {
      list.addEventListener('click', (ev) => {
        const o = ev.target.closest?.('.o')
        if (o) this._pick(...this._at(o))
      })
      list.addEventListener('mouseover', (ev) => {
        const o = ev.target.closest?.('.o')
        if (o) this._preview(this._item(...this._at(o)))
      })
    }
    grid.addEventListener('scroll', () => {
      if (!this._raf) this._raf = requestAnimationFrame(() => { this._raf = 0; this._current() })
    })
    // Read at scroll time (layout is clean then), so a keystroke need not
    // force a layout to learn whether the results must go back to the top.
    res.addEventListener('scroll', () => { this._resTop = res.scrollTop })
    tone.addEventListener('click', () => this._tones(tones.hidden))
    tones.addEventListener('keydown', (ev) => {
      const k = [...tones.children].indexOf(ev.target)
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key]
      if (step) tones.children[(k + step + 6) % 6]?.focus()
      else if (ev.key === 'Escape') {
        this._tones(false)
        tone.focus()
      } else return
      ev.preventDefault()
    })
    tones.addEventListener('click', (ev) => {
      const b = ev.target.closest?.('button')
      if (b) this._setTone(+b.dataset.tone)
    })
    nav.addEventListener('click', (ev) => {
      const b = ev.target.closest?.('button')
      if (b) this._jump(+b.dataset.s)
    })
  }

  connectedCallback() { this._schedule() }

  disconnectedCallback() {
    this._session?.dispose()
    this._io?.disconnect()
    this._seq++
  }

  attributeChangedCallback(name, old, value) {
    if (!this.isConnected || old === value) return
    if (name === 'set' && this._cat) return this._redraw(true)
    this._schedule()
  }

  /** engine is the picker's search engine once loaded (the library's AliasEngine). */
  get engine() { return this._engine }
  /** state is the last search session state (undefined while browsing). */
  get state() { return this._state }
  /** skinTone is the remembered tone, 0 (none) to 5. */
  get skinTone() { return this._tone }

  _schedule() {
    if (this._pending) return
    this._pending = Promise.resolve().then(() => {
      this._pending = undefined
      return this._load()
    })
  }

  _set() {
    const s = this.getAttribute('set') || 'native'
    return isEmojiSet(s) ? s : 'native'
  }

  async _load() {
    const seq = ++this._seq
    const loc = localeOf(this.getAttribute('locale') || document.documentElement.lang || navigator.language)
    const t = (this._t = pickerStrings(loc))
    const { p, input, tone } = this._el
    p.lang = loc
    p.dir = this.getAttribute('dir') || (isRTL(loc) ? 'rtl' : 'ltr')
    input.placeholder = t.search
    input.setAttribute('aria-label', t.search)
    tone.title = t.tone
    this._el.nav.setAttribute('aria-label', t.categories)
    this._el.grid.setAttribute('aria-label', t.categories)
    this._el.res.setAttribute('aria-label', t.search)
    this._toneUI()
    this.loaded = false
    this._message(t.loading)
    try {
      const endpoint = (this.getAttribute('endpoint') || location.origin).replace(/\/+$/, '')
      const version = this.getAttribute('pack-version') || (await (await fetch(`${endpoint}/v1/health`)).json()).packVersion
      const key = this.getAttribute('key') || undefined
      const [packs, custom, culture] = await Promise.all([
        loadPacks({ baseUrl: `${endpoint}/v1/pack/${version}`, locales: [loc] }),
        key ? loadCustomPack({ endpoint, key }).catch((error) => void this.dispatchEvent(new CustomEvent('emoji-search-error', { detail: { error } }))) : undefined,
        this.getAttribute('culture') === 'off' ? undefined : loadCulture({ baseUrl: `${endpoint}/v1/culture/${version}`, locale: loc }).catch(() => undefined),
      ])
      if (seq !== this._seq) return
      performance.mark('emoji-search-picker:data')
      // The grid first, from the packs; the search index after it is painted.
      this._session?.dispose()
      Object.assign(this, { _session: undefined, _engine: undefined, _loc: loc, _endpoint: endpoint, _cat: catalog(packs, loc), _state: undefined, _gridSecs: undefined })
      this._canDraw = drawableTest(this._cat.entries)
      this._browse()
      performance.mark('emoji-search-picker:built')
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)))
      if (seq !== this._seq) return
      performance.mark('emoji-search-picker:grid')
      const baseUrl = `${endpoint}/v1/pack/${version}`
      const semantic = this.getAttribute('semantic') === 'off' ? undefined : createLayeredSemantic({
        endpoint, key, packVersion: version, shardsUrl: this.hasAttribute('shards') ? `${endpoint}/p/${version}` : undefined,
      })
      // A session over the packs (custom emoji last), made again once the
      // associations arrive.
      const start = (more) => {
        const engine = (this._engine = createEngine([...packs, ...more, ...(custom ? [custom] : [])], { culture }))
        this._session?.dispose()
        this._session = createSearchSession({
          engine, locale: loc, limit: LIMIT, region: this.getAttribute('region') || undefined, semantic, onChange: (s) => this._results(s),
        })
        if (input.value) this._session.update(input.value)
        return engine
      }
      const engine = start([])
      if (!this._cat.named) this._named(engine, loc)
      this.loaded = true
      this.dispatchEvent(new Event('emoji-search-ready'))
      // The associations (what people type beyond the dictionary names:
      // loadPacks part assoc) after the first results, so the picker answers
      // as the service's dictionary tier without a larger first download.
      loadPacks({ baseUrl, locales: [loc], part: 'assoc' }).then((assoc) => {
        if (seq === this._seq && assoc.length) start(assoc)
      }).catch(() => {}) // without them the engine answers from the default packs
    } catch (error) {
      if (seq !== this._seq) return
      this._message(t.failed)
      this.dispatchEvent(new CustomEvent('emoji-search-error', { detail: { error } }))
    }
  }

  _draw(e) { return this._set() !== 'native' || this._canDraw(e) }

  // _named takes the locale's names from the engine when the packs gave the
  // locale only as a binary index (no rows to read before the engine).
  _named(engine, loc) {
    const entries = engine.entries.filter((e) => !e.imageUrl)
    const groups = this._cat.groups.map((g, i) => engine.groupLabel(i, loc) || g)
    this._cat = { ...this._cat, entries, byId: new Map(entries.map((e) => [e.id, e])), groups, named: true }
    this._gridSecs = undefined
    if (this._browsing) this._browse()
  }

  // _browse shows the grid, built once per load (and per set: the set
  // decides what can be drawn); typing hides it rather than destroying it.
  _browse() {
    this._state = undefined
    this._sr('')
    if (this._gridSecs) return this._show(this._gridSecs, true)
    const cat = this._cat
    const groups = Array.from({ length: 10 }, () => [])
    for (const e of cat.entries) if (e.group !== 2 && this._draw(e)) groups[e.group].push(e)
    const secs = []
    const recent = this._store.recent().map((id) => cat.byId.get(id)).filter((e) => e && this._draw(e)).slice(0, RECENT)
    if (recent.length) secs.push({ label: this._t.recent, icon: '🕘', items: recent, src: 'recent' })
    groups.forEach((items, g) => items.length && secs.push({ label: cat.groups[g], icon: ICONS[g], items, src: 'grid' }))
    this._show(secs, true)
  }

  _results(s) {
    this._state = s
    if (s.status === 'idle') return this._browsing || this._browse()
    const items = []
    const srcs = []
    for (const r of s.results) {
      const e = this._cat.byId.get(r.id) || this._engine.get(r.id) || { id: r.id, emoji: r.emoji, labels: {}, imageUrl: r.imageUrl, shortcode: r.shortcode }
      if (!r.imageUrl && !this._draw(e)) continue
      items.push(e)
      srcs.push(r.source)
    }
    if (!items.length) {
      const none = s.status === 'loading' ? '' : this._t.none
      this._sr(none)
      return this._message(none)
    }
    this._show([{ items, srcs }], false)
    this._activate(0, 0, false)
    this._sr(this._t.count.replace('{n}', items.length))
  }

  // _show shows sections in their listbox: browsing, the grid (a group per
  // section with its heading; the first FIRST cells built at once, the
  // rest as placeholders of their size, built when they near the view);
  // searching, the results' listbox with one section.
  _show(secs, browse) {
    const { grid, res, nav, input, empty } = this._el
    const list = browse ? grid : res
    this._activeEl?.classList.remove('a')
    this._activeEl?.setAttribute('aria-selected', 'false')
    this._active = this._activeEl = undefined
    this._sections = secs
    this._browsing = browse
    input.removeAttribute('aria-activedescendant')
    input.setAttribute('aria-controls', list.id)
    input.setAttribute('aria-expanded', 'true')
    grid.hidden = !browse
    res.hidden = browse
    nav.hidden = !browse
    empty.hidden = true
    if (!browse) return this._resCells(secs[0])
    if (secs === this._gridSecs) return
    list.replaceChildren()
    list.scrollTop = 0
    this._io?.disconnect()
    this._gridSecs = secs
    this._io = new IntersectionObserver((es) => es.forEach((x) => x.isIntersecting && this._fill(+x.target.dataset.s, secs)), { root: grid, rootMargin: '400px 0px' })
    let rowPx
    secs.forEach((s, si) => {
      s.cells = el('div', 'cells')
      s.pre = 'b'
      s.n = 0
      s.el = el('div')
      s.el.setAttribute('role', 'group')
      s.el.dataset.s = si
      const h = el('div', 'h', s.label)
      h.id = `h${si}`
      s.el.setAttribute('aria-labelledby', h.id)
      s.el.append(h, s.cells)
      list.append(s.el)
      if (si === 0) this._fill(0, secs, FIRST)
      else {
        // One layout read for all placeholders: each read after an append would lay out again.
        rowPx ||= [this._cols(), this._cell()]
        s.cells.style.height = `${Math.ceil(s.items.length / rowPx[0]) * rowPx[1]}px`
      }
      if (s.n < s.items.length) this._io.observe(s.el)
    })
    nav.replaceChildren(...secs.map((s, si) => {
      const b = el('button', '', s.icon)
      b.type = 'button'
      b.dataset.s = si
      b.title = s.label
      b.setAttribute('aria-label', s.label)
      return b
    }))
    this._current()
  }

  // _fill builds a section's options, up to `upto` of them (all by default).
  _fill(si, secs = this._sections, upto = Infinity) {
    const s = secs[si]
    if (!s || s.n >= s.items.length) return
    const end = Math.min(upto, s.items.length)
    if (end === s.items.length && s.el !== s.cells) this._io?.unobserve(s.el)
    const f = document.createDocumentFragment()
    for (let i = s.n; i < end; i++) f.append(this._put(this._option(`${s.pre}${si}-${i}`), s.items[i]))
    s.n = end
    s.cells.style.height = ''
    s.cells.append(f)
  }

  // _resCells shows search results in the results listbox's cells, kept
  // from one keystroke to the next: a cell is written only when its emoji
  // changed, cells left over are hidden, so typing builds no nodes and
  // only the changed glyphs are shaped and laid out again.
  _resCells(s) {
    const { cells, res } = this._el
    const kids = cells.children
    s.cells = s.el = cells
    s.pre = 'r'
    s.n = s.items.length
    // Only after the person scrolled the results (no layout forced otherwise).
    if (this._resTop) res.scrollTop = this._resTop = 0
    for (let i = 0; i < s.n; i++) {
      const o = kids[i] || cells.appendChild(this._option(`r0-${i}`))
      this._put(o, s.items[i])
      o.hidden = false
    }
    for (let i = s.n; i < kids.length; i++) kids[i].hidden = true
  }

  _option(id) {
    const o = el('div', 'o')
    o.id = id
    o.setAttribute('role', 'option')
    o.setAttribute('aria-selected', 'false')
    return o
  }

  // _put writes entry e into option o: its accessible name and its glyph.
  _put(o, e) {
    const name = this._name(e)
    if (o._name !== name) o.setAttribute('aria-label', (o._name = name))
    this._glyph(o, e)
    return o
  }

  _list() { return this._browsing ? this._el.grid : this._el.res }
  _cell() { return this._list().querySelector('.o')?.offsetWidth || 40 }
  _cols() { return Math.max(1, Math.floor((this._sections[0]?.cells.clientWidth || 320) / this._cell())) }

  _char(e) { return this._tone && e.hasSkinTones ? applySkinTone(e.emoji, this._tone) : e.emoji }
  _name(e) { return e.labels?.[this._loc] || e.labels?.en || e.shortcode || e.emoji }

  // _glyph draws e into box, unless box already shows that very glyph.
  _glyph(box, e) {
    const ch = this._char(e)
    const set = this._set()
    const url = e.imageUrl || (set !== 'native' ? emojiImageUrl(ch, { endpoint: this._endpoint, emojiSet: set }) : undefined)
    if (box._glyph === (url || ch)) return
    box._glyph = url || ch
    if (!url) return void (box.textContent = ch)
    const img = el('img')
    img.alt = ''
    img.loading = 'lazy'
    img.src = url
    img.onerror = () => img.replaceWith(ch)
    box.replaceChildren(img)
  }

  // _redraw draws what is on screen again (a new tone or set); browsing
  // rebuilds the sections since the set decides what can be shown.
  _redraw(rebuild) {
    const grid = this._gridSecs || []
    if (rebuild) {
      this._gridSecs = undefined
      if (this._browsing) return this._browse()
    }
    for (const s of new Set([...(rebuild ? [] : grid), ...this._sections])) for (let i = 0; i < s.n; i++) this._glyph(s.cells.children[i], s.items[i])
    this._active && this._preview(this._item(...this._active))
  }

  _message(text) {
    const { grid, res, empty, input, nav } = this._el
    this._sections = []
    this._active = undefined
    this._browsing = false
    grid.hidden = res.hidden = nav.hidden = true
    input.setAttribute('aria-expanded', 'false')
    input.removeAttribute('aria-activedescendant')
    empty.hidden = !text
    empty.textContent = text
    this._preview()
  }

  _sr(text) { this._text(this._el.sr, text) }

  // _text writes text into node x only when it changes (no needless relayout).
  _text(x, text) { if (x.textContent !== text) x.textContent = text }

  _at(o) { return o.id.slice(1).split('-').map(Number) }
  _item(si, i) { return this._sections[si]?.items[i] }

  // _activate makes option i of section si the active one; scroll false
  // when it is known to be in view (the first result, the list at its top).
  _activate(si, i, scroll = true) {
    const s = this._sections[si]
    if (!s?.items[i]) return
    this._fill(si)
    const { input } = this._el
    this._activeEl?.classList.remove('a')
    this._activeEl?.setAttribute('aria-selected', 'false')
    this._active = [si, i]
    const o = (this._activeEl = this.shadowRoot.getElementById(`${s.pre}${si}-${i}`))
    o.classList.add('a')
    o.setAttribute('aria-selected', 'true')
    input.setAttribute('aria-activedescendant', o.id)
    if (scroll) o.scrollIntoView({ block: 'nearest' })
    this._preview(s.items[i])
  }

  _key(ev) {
    const S = this._sections
    const rtl = this._el.p.dir === 'rtl'
    const moves = { ArrowDown: 'down', ArrowUp: 'up', PageDown: 'pgdn', PageUp: 'pgup' }
    if (this._nav) Object.assign(moves, { ArrowRight: rtl ? 'prev' : 'next', ArrowLeft: rtl ? 'next' : 'prev', Home: 'home', End: 'end' })
    const m = moves[ev.key]
    if (m && S.length) {
      ev.preventDefault()
      this._nav = true
      return this._move(m)
    }
    if (ev.key === 'Enter' && this._active) {
      ev.preventDefault()
      return this._pick(...this._active)
    }
    if (ev.key === 'Escape') {
      ev.preventDefault()
      if (!this._el.tones.hidden) return this._tones(false)
      this._el.input.value = ''
      this._nav = false
      this._session?.update('')
    }
  }

  _move(m) {
    const S = this._sections
    if (!this._active) return this._activate(0, 0)
    let [si, i] = this._active
    const cols = this._cols()
    const len = (k) => S[k].items.length
    const step = (d) => {
      if (d === 'next') {
        if (i + 1 < len(si)) i++
        else if (si + 1 < S.length) [si, i] = [si + 1, 0]
      } else if (d === 'prev') {
        if (i > 0) i--
        else if (si > 0) [si, i] = [si - 1, len(si - 1) - 1]
      } else if (d === 'down') {
        if (i + cols < len(si)) i += cols
        else if (Math.floor(i / cols) < Math.floor((len(si) - 1) / cols)) i = len(si) - 1
        else if (si + 1 < S.length) [si, i] = [si + 1, Math.min(i % cols, len(si + 1) - 1)]
      } else if (d === 'up') {
        if (i >= cols) i -= cols
        else if (si > 0) {
          const n = len(si - 1)
          ;[si, i] = [si - 1, Math.min(Math.floor((n - 1) / cols) * cols + (i % cols), n - 1)]
        }
      }
    }
    if (m === 'home') [si, i] = [0, 0]
    else if (m === 'end') [si, i] = [S.length - 1, len(S.length - 1) - 1]
    else if (m === 'pgdn' || m === 'pgup') {
      const rows = Math.max(1, Math.floor(this._list().clientHeight / this._cell()) - 1)
      for (let r = 0; r < rows; r++) step(m === 'pgdn' ? 'down' : 'up')
    } else step(m)
    this._activate(si, i)
  }

  _pick(si, i) {
    const s = this._sections[si]
    const e = s?.items[i]
    if (!e) return
    const unicode = this._char(e)
    const detail = {
      emoji: e, unicode, label: this._name(e), hexcode: e.imageUrl ? e.id : hexcodeOf(unicode),
      source: s.srcs?.[i] || s.src, skinTone: e.hasSkinTones ? this._tone : 0,
    }
    this._store.use(e.id)
    this.dispatchEvent(new CustomEvent('emoji-click', { detail, bubbles: true, composed: true }))
  }

  _preview(e) {
    const { big, nm, sc } = this._el
    if (!e) {
      big._glyph = undefined
      return void [big, nm, sc].forEach((x) => x.replaceChildren())
    }
    this._glyph(big, e)
    const code = e.shortcode || this._cat.codes.get(e.id)
    this._text(nm, this._name(e))
    this._text(sc, code ? (code.startsWith(':') ? code : `:${code}:`) : '')
  }

  _jump(si) {
    const s = this._sections[si]
    if (!s) return
    for (let k = 0; k <= si; k++) this._fill(k)
    this._el.grid.scrollTop = s.el.offsetTop
    this._current(si)
  }

  // _current marks the tab of the section at the top of the view.
  _current(at) {
    const { grid: list, nav } = this._el
    if (!this._browsing) return
    let cur = at ?? 0
    if (at === undefined) this._sections.forEach((s, si) => { if (s.el.offsetTop <= list.scrollTop + 8) cur = si })
    if (at === undefined && list.scrollTop > 0 && list.scrollTop + list.clientHeight >= list.scrollHeight - 2) cur = this._sections.length - 1
    ;[...nav.children].forEach((b, k) => b.setAttribute('aria-current', String(k === cur)))
  }

  _toneUI() {
    const { tone, tones } = this._el
    const t = this._t
    tone.textContent = applySkinTone(HAND, this._tone)
    tone.setAttribute('aria-label', `${t.tone}: ${t.tones[this._tone]}`)
    tones.setAttribute('aria-label', t.tone)
    tones.replaceChildren(...t.tones.map((name, k) => {
      const b = el('button', '', applySkinTone(HAND, k))
      b.type = 'button'
      b.dataset.tone = k
      b.setAttribute('role', 'radio')
      b.setAttribute('aria-checked', String(k === this._tone))
      b.setAttribute('aria-label', name)
      return b
    }))
  }

  _tones(open) {
    const { tone, tones } = this._el
    tones.hidden = !open
    tone.setAttribute('aria-expanded', String(open))
    if (open) tones.children[this._tone]?.focus()
  }

  _setTone(k) {
    this._tone = k
    this._store.tone = k
    this._toneUI()
    this._tones(false)
    this._el.tone.focus()
    if (this._cat) this._redraw(false)
  }
}
