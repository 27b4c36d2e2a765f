// The dashboard API client: one fetch wrapper that sends the session token
// as `Authorization: Bearer` (spec 2) when the identity provider is in use,
// and turns every error answer into an ApiError carrying the spec's
// {code, message, field, plan}.
import { messageFor } from './messages.js'

let tokenSource = null

// setTokenSource sets the function that returns the current session token
// (the identity provider's), or null for the development cookie.
export function setTokenSource (fn) { tokenSource = fn }

export class ApiError extends Error {
  constructor (status, body) {
    const e = (body && typeof body.error === 'object' && body.error) || {}
    const code = e.code || (status === 0 ? 'network' : 'http_' + status)
    super(messageFor(code, e, status))
    this.status = status
    this.code = code
    this.field = e.field || null
    this.plan = e.plan || null
    this.serverMessage = e.message || (typeof body?.error === 'string' ? body.error : '')
  }
}

// api sends method path with body: FormData as is, anything else as JSON.
export async function api (method, path, body) {
  const headers = { Accept: 'application/json' }
  if (tokenSource) {
    const token = await tokenSource()
    if (token) headers.Authorization = 'Bearer ' + token
  }
  let payload
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  let res
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' })
  } catch {
    throw new ApiError(0, null)
  }
  const text = await res.text()
  let json = null
  try { json = text ? JSON.parse(text) : null } catch { json = null }
  if (!res.ok) throw new ApiError(res.status, json)
  return json
}
