// The Workers entry: one Go instance per isolate, reused by every request.
// Protocol with Go: worker/entry/PROTOCOL.md. build.sh places this file next
// to app.wasm and syumai's wasm_exec.js in build/.
import "./wasm_exec.js";
import mod from "./app.wasm";

// Requests larger than this are refused before Go sees them; the service's
// own limits (16 KB JSON, 256 KB images) are far below it.
const MAX_BODY = 1 << 20;

const JSON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "x-content-type-options": "nosniff",
  "access-control-allow-origin": "*",
  "cache-control": "no-store",
};

let current = null;

function start(env) {
  const go = new Go();
  const binding = {};
  const inst = { go, binding, dead: false, inflight: new Set() };
  let readyOk, readyFail;
  inst.ready = new Promise((ok, fail) => { readyOk = ok; readyFail = fail; });
  // wasm_exec calls go.exit synchronously when Go exits or panics: fail
  // every request in flight on this instance; the next request starts anew.
  go.exit = (code) => kill(inst, new Error(`Go program exited with code ${code}`));
  inst.failReady = readyFail;
  const instance = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: { ready: () => readyOk() },
  });
  go.run(instance, { env, binding }).catch((err) => kill(inst, err));
  return inst;
}

function kill(inst, err) {
  if (inst.dead) return;
  inst.dead = true;
  if (current === inst) current = null;
  inst.failReady(err);
  for (const fail of inst.inflight) fail(err);
  inst.inflight.clear();
}

async function instanceFor(env) {
  if (current === null || current.dead) current = start(env);
  const inst = current;
  await inst.ready;
  return inst;
}

// call invokes binding[method](...args, done) and resolves with what Go
// passes to done(err, value). A trap or exit rejects it.
function call(inst, method, args) {
  return new Promise((resolve, reject) => {
    const fail = (err) => reject(err);
    inst.inflight.add(fail);
    const done = (err, value) => {
      inst.inflight.delete(fail);
      if (err !== null && err !== undefined) reject(new Error(String(err)));
      else resolve(value);
    };
    try {
      inst.binding[method](...args, done);
    } catch (err) {
      kill(inst, err);
    }
  });
}

async function readBody(request) {
  if (request.body === null) return null;
  const reader = request.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) { body.set(c, offset); offset += c.byteLength; }
  return body;
}

function errorResponse(status, message) {
  return new Response(JSON.stringify({ error: message }), { status, headers: JSON_HEADERS });
}

export default {
  async fetch(request, env, ctx) {
    const body = await readBody(request);
    if (body === undefined) return errorResponse(413, "Request body too large");
    let settle;
    ctx.waitUntil(new Promise((resolve) => { settle = resolve; }));
    try {
      const inst = await instanceFor(env);
      const req = { method: request.method, url: request.url, headers: [...request.headers], body };
      // Go calls respond once with the response, then settle once the
      // request's waitUntil work has finished.
      const res = await new Promise((resolve, reject) => {
        const fail = (err) => { settle(); reject(err); };
        inst.inflight.add(fail);
        try {
          inst.binding.fetch(req, (err, value) => {
            if (err !== null && err !== undefined) reject(new Error(String(err)));
            else resolve(value);
          }, () => { inst.inflight.delete(fail); settle(); });
        } catch (err) {
          kill(inst, err);
        }
      });
      const noBody = res.status === 204 || res.status === 304 || request.method === "HEAD";
      return new Response(noBody ? null : res.body, { status: res.status, headers: res.headers });
    } catch (err) {
      settle();
      console.error("worker: request failed:", err && err.message);
      return errorResponse(500, "internal error");
    }
  },

  async scheduled(controller, env, ctx) {
    const inst = await instanceFor(env);
    const event = { cron: controller.cron, scheduledTime: controller.scheduledTime };
    ctx.waitUntil(call(inst, "scheduled", [event]));
  },
};
