// Shared pieces of every page: loading data, errors in words (402 as an
// upgrade prompt, the named field highlighted), forms, copy buttons and a
// confirmation dialog. All are plain Preact components written with htm.
import { h } from 'preact'
import { useState, useEffect, useRef, useCallback } from 'preact/hooks'
import htm from 'htm'
import { api } from './api.js'
import { planName } from './messages.js'

export const html = htm.bind(h)

// navigate moves within the app without a page load.
export function navigate (to) {
  if (location.pathname + location.search === to) return
  history.pushState(null, '', to)
  dispatchEvent(new PopStateEvent('popstate'))
}

export function Link ({ to, children, ...rest }) {
  const click = (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    navigate(to)
  }
  return html`<a href=${to} onClick=${click} ...${rest}>${children}</a>`
}

// announce tells screen readers about a change that moves no focus.
export function announce (text) {
  const el = document.getElementById('announcer')
  if (!el) return
  el.textContent = ''
  setTimeout(() => { el.textContent = text }, 30)
}

// useApi loads path and reloads when it changes; reload() loads again.
export function useApi (path) {
  const [state, setState] = useState({ loading: true, data: null, error: null })
  const [n, setN] = useState(0)
  useEffect(() => {
    if (!path) return
    let live = true
    setState((s) => ({ ...s, loading: true }))
    api('GET', path).then(
      (data) => live && setState({ loading: false, data, error: null }),
      (error) => live && setState({ loading: false, data: null, error }))
    return () => { live = false }
  }, [path, n])
  return { ...state, reload: useCallback(() => setN((x) => x + 1), []) }
}

export function Loading () {
  return html`<p class="muted" role="status">Loading…</p>`
}

// ErrorNote shows an API error in words; a 402 becomes an upgrade prompt.
export function ErrorNote ({ error }) {
  if (!error) return null
  if (error.code === 'plan_required') {
    return html`<div class="note upgrade" role="alert">
      <p><strong>${error.message}</strong> ${error.serverMessage && error.serverMessage !== error.message ? error.serverMessage : ''}</p>
      <p><${Link} to="/dashboard/billing">See plans and join the ${planName(error.plan)} waitlist</${Link}></p>
    </div>`
  }
  const extra = error.serverMessage && error.serverMessage !== error.message ? html` <span class="muted">(${error.serverMessage})</span>` : ''
  return html`<div class="note error" role="alert"><p>${error.message}${extra}</p></div>`
}

// useForm runs submit(values) with busy and error state; fieldProps(name)
// marks the input the error's field names.
export function useForm (submit) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState(null)
  const onSubmit = async (e) => {
    e.preventDefault()
    const form = e.currentTarget
    setBusy(true)
    setError(null)
    try {
      await submit(form)
    } catch (err) {
      setError(err)
      const el = err.field && form.querySelector(`[name="${err.field}"]`)
      if (el) el.focus()
    } finally {
      setBusy(false)
    }
  }
  const fieldProps = (name, id) => {
    const bad = error && error.field === name
    return { name, id, 'aria-invalid': bad ? 'true' : undefined, 'aria-describedby': bad ? id + '-error' : undefined }
  }
  const FieldError = ({ name, id }) => error && error.field === name
    ? html`<p class="field-error" id=${id + '-error'}>${error.serverMessage || error.message}</p>`
    : null
  return { busy, error, setError, onSubmit, fieldProps, FieldError }
}

// Field is a labelled input with its error line.
export function Field ({ form, label, name, id, hint, type = 'text', children, ...rest }) {
  const fid = id || 'f-' + name
  const input = children || html`<input type=${type} ...${form.fieldProps(name, fid)} ...${rest} />`
  return html`<div class="field">
    <label for=${fid}>${label}</label>
    ${input}
    ${hint && html`<p class="hint">${hint}</p>`}
    <${form.FieldError} name=${name} id=${fid} />
  </div>`
}

// CopyButton copies text and says so.
export function CopyButton ({ text, label = 'Copy' }) {
  const [done, setDone] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setDone(true)
      announce('Copied to the clipboard')
      setTimeout(() => setDone(false), 2000)
    } catch {
      announce('Copying failed: select the text and copy it yourself')
    }
  }
  return html`<button type="button" class="secondary" onClick=${copy}>${done ? 'Copied' : label}</button>`
}

// Secret shows a value that the service answers once, with a copy button.
export function Secret ({ title, value, children }) {
  return html`<div class="note secret" role="status">
    <p><strong>${title}</strong> ${children}</p>
    <p class="secret-row"><code class="secret-value">${value}</code> <${CopyButton} text=${value} label=${'Copy ' + title.toLowerCase()} /></p>
  </div>`
}

let dialogs = 0

// Confirm is a button that asks in a modal dialog before it acts.
export function Confirm ({ label, title, body, confirmLabel, onConfirm, danger = true }) {
  const ref = useRef(null)
  const id = useRef('dlg-' + ++dialogs).current
  const [error, setError] = useState(null)
  const [busy, setBusy] = useState(false)
  const go = async () => {
    setBusy(true)
    setError(null)
    try {
      await onConfirm()
      ref.current?.close()
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return html`<span>
    <button type="button" class=${danger ? 'danger' : 'secondary'} onClick=${() => ref.current.showModal()}>${label}</button>
    <dialog ref=${ref} aria-labelledby=${id}>
      <h2 id=${id}>${title}</h2>
      <p>${body}</p>
      <${ErrorNote} error=${error} />
      <div class="row">
        <button type="button" class=${danger ? 'danger' : ''} disabled=${busy} onClick=${go}>${confirmLabel || label}</button>
        <button type="button" class="secondary" onClick=${() => ref.current.close()}>Cancel</button>
      </div>
    </dialog>
  </span>`
}

export const fmtDate = (ms) => ms ? new Date(ms).toISOString().slice(0, 10) : '—'
export const fmtTime = (ms) => ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—'
export const fmtNum = (n) => n == null ? 'unlimited' : Number(n).toLocaleString('en')
