// Custom emoji: the gallery, drag-and-drop upload, aliases and deletion.
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { html, useApi, Loading, ErrorNote, useForm, Field, Confirm, fmtNum, announce } from '../ui.js'

export function EmojiTab ({ app }) {
  const list = useApi(`/api/apps/${app.id}/emoji`)
  const [file, setFile] = useState(null)
  const [over, setOver] = useState(false)
  const form = useForm(async (f) => {
    const body = new FormData()
    if (file) body.append('file', file)
    body.append('shortcode', f.shortcode.value)
    body.append('aliases', f.aliases.value)
    const e = await api('POST', `/api/apps/${app.id}/emoji`, body)
    announce(`:${e.shortcode}: uploaded`)
    f.reset()
    setFile(null)
    list.reload()
  })
  const pick = (files) => {
    const f = files && files[0]
    if (!f) return
    setFile(f)
    const sc = document.getElementById('f-shortcode')
    if (sc && !sc.value) sc.value = f.name.replace(/\.[^.]*$/, '').toLowerCase().replace(/[^a-z0-9_+-]+/g, '_')
  }
  const drop = (e) => {
    e.preventDefault()
    setOver(false)
    pick(e.dataTransfer.files)
  }
  const d = list.data
  return html`<h2>Custom emoji</h2>
    ${list.loading && !d && html`<${Loading} />`}
    <${ErrorNote} error=${list.error} />
    ${d && html`<p class="muted">${fmtNum(d.used)} of ${fmtNum(d.limit)} stored in this account.</p>`}
    ${d && (d.emoji.length
      ? html`<ul class="gallery">${d.emoji.map((e) => html`<${EmojiCard} key=${e.id} app=${app} e=${e} reload=${list.reload} />`)}</ul>`
      : html`<p>No custom emoji yet.</p>`)}
    <form class="card" onSubmit=${form.onSubmit}>
      <h2>Upload an emoji</h2>
      <${ErrorNote} error=${form.error} />
      <div class=${'drop' + (over ? ' over' : '') + (form.error?.field === 'file' ? ' invalid' : '')}
        onDragOver=${(e) => { e.preventDefault(); setOver(true) }} onDragLeave=${() => setOver(false)} onDrop=${drop}>
        <label for="f-file">Drop an image here, or choose one (PNG, GIF, WebP or SVG, at most 256 KB)</label>
        <input type="file" accept="image/png,image/gif,image/webp,image/svg+xml" ...${form.fieldProps('file', 'f-file')} onChange=${(e) => pick(e.currentTarget.files)} />
        ${file && html`<p class="hint">Chosen: ${file.name} (${Math.ceil(file.size / 1024)} KB)</p>`}
        <${form.FieldError} name="file" id="f-file" />
      </div>
      <${Field} form=${form} label="Shortcode" name="shortcode" required hint="Letters, digits, _ + -; without colons." />
      <${Field} form=${form} label="Aliases" name="aliases" hint="Comma-separated search phrases, up to 20." />
      <button disabled=${form.busy || !file}>Upload</button>
    </form>`
}

function EmojiCard ({ app, e, reload }) {
  const [editing, setEditing] = useState(false)
  const form = useForm(async (f) => {
    await api('PATCH', `/api/apps/${app.id}/emoji/${e.id}`, {
      shortcode: f.shortcode.value,
      aliases: f.aliases.value.split(',').map((s) => s.trim()).filter(Boolean)
    })
    setEditing(false)
    announce('Saved')
    reload()
  })
  return html`<li class="emoji-card">
    <img src=${e.imageUrl} alt=${':' + e.shortcode + ':'} width="48" height="48" loading="lazy" />
    <p><strong>:${e.shortcode}:</strong></p>
    <p class="hint">${e.aliases.length ? e.aliases.join(', ') : 'no aliases'} · ${e.source}${e.tenantId ? ' · tenant' : ''}</p>
    ${editing
      ? html`<form onSubmit=${form.onSubmit}>
          <${ErrorNote} error=${form.error} />
          <${Field} form=${form} label="Shortcode" name="shortcode" id=${'sc-' + e.id} value=${e.shortcode} required />
          <${Field} form=${form} label="Aliases" name="aliases" id=${'al-' + e.id} value=${e.aliases.join(', ')} />
          <button disabled=${form.busy}>Save</button> <button type="button" class="secondary" onClick=${() => setEditing(false)}>Cancel</button>
        </form>`
      : html`<div class="row">
          <button type="button" class="secondary" onClick=${() => setEditing(true)}>Edit<span class="sr-only"> :${e.shortcode}:</span></button>
          <${Confirm} label="Delete" title=${`Delete :${e.shortcode}:?`} body="The emoji leaves search within about a minute." onConfirm=${async () => { await api('DELETE', `/api/apps/${app.id}/emoji/${e.id}`); reload() }} />
        </div>`}
  </li>`
}
