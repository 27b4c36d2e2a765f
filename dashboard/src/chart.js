// A daily bar chart (uPlot) with the same figures as a table below it, for
// screen readers and for anyone who wants the numbers. uPlot is loaded on
// the first chart (a chunk of its own), so the first page parses less.
import { useEffect, useRef } from 'preact/hooks'
import { html } from './ui.js'

const dayIncrs = [86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400]
const dayTs = (day) => Date.parse(day + 'T00:00:00Z') / 1000
const width = (el) => Math.max(el.clientWidth, 260)

// draw plots days into el in the page's colours and follows its width.
function draw (uPlot, el, days, series) {
  const css = getComputedStyle(document.documentElement)
  const v = (name) => css.getPropertyValue(name).trim()
  const colors = [v('--accent'), v('--warn')]
  const axis = { stroke: v('--fg'), grid: { stroke: v('--line'), width: 1 }, ticks: { stroke: v('--line') } }
  const opts = {
    width: width(el),
    height: 220,
    legend: { show: false },
    cursor: { show: false },
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
    // Whole days on x, half a day of room either side for the bars.
    scales: { x: { time: true, range: (u, min, max) => [min - 43200, max + 43200] }, y: { range: (u, min, max) => [0, Math.max(4, max)] } },
    axes: [{ ...axis, incrs: dayIncrs, values: (u, splits) => splits.map((t) => new Date(t * 1e3).toISOString().slice(5, 10)) }, { ...axis, size: 48 }],
    series: [{}, ...series.map((s, i) => ({
      label: s.label,
      stroke: colors[i],
      fill: colors[i] + '99',
      width: 1,
      points: { show: false },
      paths: uPlot.paths.bars({ size: [0.7, 40], align: 0 })
    }))]
  }
  const data = [days.map((d) => dayTs(d.day)), ...series.map((s) => days.map((d) => d[s.key] || 0))]
  const plot = new uPlot(opts, data, el)
  const ro = new ResizeObserver(() => plot.setSize({ width: width(el), height: 220 }))
  ro.observe(el)
  return () => { ro.disconnect(); plot.destroy() }
}

export function DailyChart ({ days, series, caption, id }) {
  const ref = useRef(null)
  useEffect(() => {
    const el = ref.current
    if (!el || !days.length) return
    let undraw = null
    let live = true
    import('uplot').then(({ default: uPlot }) => { if (live) undraw = draw(uPlot, el, days, series) })
    return () => {
      live = false
      if (undraw) undraw()
    }
  }, [days, series])
  const totals = series.map((s) => days.reduce((n, d) => n + (d[s.key] || 0), 0))
  return html`<figure class="chart-figure" id=${id} data-total=${totals[0]}>
    <figcaption>${caption}: ${series.map((s, i) => html`<span class=${'swatch s' + i}></span>${s.label} ${totals[i].toLocaleString('en')} `)}</figcaption>
    <div class="chart" ref=${ref} aria-hidden="true"></div>
    <details>
      <summary>Daily figures</summary>
      <table class="list">
        <thead><tr><th scope="col">Day (UTC)</th>${series.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead>
        <tbody>${days.map((d) => html`<tr><td>${d.day}</td>${series.map((s) => html`<td>${d[s.key] || 0}</td>`)}</tr>`)}</tbody>
      </table>
    </details>
  </figure>`
}
