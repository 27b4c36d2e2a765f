// The app's pages by path under /dashboard/ (the Worker answers every such
// path with the app's page, so each is a deep link).
export function route (path) {
  const s = path.replace(/^\/dashboard\/?/, '').replace(/\/+$/, '').split('/').filter(Boolean)
  if (!s.length || (s[0] === 'apps' && s.length === 1)) return { page: 'apps' }
  if (s[0] === 'apps' && s.length <= 3) return { page: 'app', id: s[1], tab: s[2] || 'keys' }
  if (['team', 'billing', 'account'].includes(s[0]) && s.length === 1) return { page: s[0] }
  if (s[0] === 'invite' && s.length === 2) return { page: 'invite', token: s[1] }
  return { page: 'notfound' }
}
