// A JS-only Worker answering GET /v1/health with the service's health JSON
// and headers, no Go. It is the floor of the per-request overhead benchmark:
// what `wrangler dev` and workerd cost per request before any Go runs.
const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "x-content-type-options": "nosniff",
  "access-control-allow-origin": "*",
  "cache-control": "no-store",
};

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method !== "GET" || url.pathname !== "/v1/health") {
      return new Response(JSON.stringify({ error: "Not found" }), { status: 404, headers: HEADERS });
    }
    const body = { ok: true, packVersion: env.PACK_VERSION, model: env.EMBED_MODEL, semantic: false };
    return new Response(JSON.stringify(body), { headers: HEADERS });
  },
};
