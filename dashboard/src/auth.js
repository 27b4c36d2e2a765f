// Sign-in. Production: the identity provider's (Clerk's) browser SDK,
// loaded from the provider's own Frontend API host named by the publishable
// key (CLERK_PUBLISHABLE_KEY) only when one is configured; its session
// token goes out as `Authorization: Bearer`. Development on localhost: the
// service's development sign-in cookie (GET /api/auth/dev?login=NAME).
import { api, setTokenSource } from './api.js'

const localHosts = ['localhost', '127.0.0.1', '[::1]']

// clerkScript is the SDK's URL for a publishable key: pk_(test|live)_ +
// base64("<frontend api host>$"), as Clerk's own script-tag install uses.
export function clerkScript (pk) {
  const host = atob(pk.split('_')[2] || '').replace(/\$$/, '')
  if (!/^[a-z0-9.-]+$/i.test(host)) throw new Error('The publishable key is malformed.')
  return `https://${host}/npm/@clerk/clerk-js@5/dist/clerk.browser.js`
}

function loadClerk (pk) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script')
    s.src = clerkScript(pk)
    s.async = true
    s.crossOrigin = 'anonymous'
    s.dataset.clerkPublishableKey = pk
    s.onload = () => resolve(window.Clerk)
    s.onerror = () => reject(new Error('The sign-in service could not be loaded.'))
    document.head.append(s)
  }).then(async (clerk) => { await clerk.load(); return clerk })
}

// startAuth returns what the sign-in page offers: {dev, clerk, error}.
export async function startAuth (settings) {
  const dev = settings.environment === 'development' && localHosts.includes(location.hostname)
  const out = { dev, clerk: null, error: null }
  if (settings.clerkPublishableKey) {
    try {
      out.clerk = await loadClerk(settings.clerkPublishableKey)
      setTokenSource(async () => out.clerk.session ? out.clerk.session.getToken() : null)
    } catch (e) {
      out.error = e.message
    }
  }
  return out
}

export const devSignIn = (login) => api('GET', '/api/auth/dev?login=' + encodeURIComponent(login))

export async function signOut (auth) {
  if (auth.clerk?.user) await auth.clerk.signOut()
  if (auth.dev) await api('POST', '/api/auth/logout').catch(() => {})
}
