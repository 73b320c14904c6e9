/* A table on this device: Python (Pyodide) and the whole app, in a Web Worker.
 *
 * Started by /here (static/here/here.js) as /here/worker.js?pyodide=…&app=…&origin=…, a
 * module worker. It loads Pyodide from the app's own copy (never a CDN), unpacks the app's
 * zip (scripts/build_offline.py) into /app, keeps /data in IndexedDB (the SQLite file, the
 * signing key, the tablet's cookies: companion.offline) and answers the requests the page
 * passes on from the service worker, each with a MessagePort for its answer:
 *   {type: "request", method, url, headers: [[name, value]…], body: ArrayBuffer|null}
 *   → {status, headers, body: ArrayBuffer} or {error}.
 * After a request that may have changed something, /data is written to IndexedDB before
 * the answer goes: a reload finds the evening as it was. It tells the page how far it got:
 *   {type: "step", step: "python"|"app"|"data"|"ready"} or {type: "failed", error}.
 */

const params = new URL(self.location.href).searchParams;
const DATA = "/data";

function step(name) {
  self.postMessage({ type: "step", step: name });
}

function syncfs(pyodide, populate) {
  return new Promise((resolve, reject) => {
    pyodide.FS.syncfs(populate, (error) => (error ? reject(error) : resolve()));
  });
}

async function start() {
  step("python");
  // tweetnacl (the phones' slip script's own), as globalThis.nacl: the app's Python seals
  // and opens the slips with it here, where PyNaCl has no build (companion/store/box.py).
  await import(params.get("nacl"));
  const base = params.get("pyodide");
  const { loadPyodide } = await import(`${base}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: base });
  step("app");
  const zip = await fetch(params.get("app"));
  if (!zip.ok) {
    throw new Error(`${params.get("app")}: ${zip.status}`);
  }
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/app" });
  step("data");
  pyodide.FS.mkdirTree(DATA);
  pyodide.FS.mount(pyodide.FS.filesystems.IDBFS, {}, DATA);
  await syncfs(pyodide, true);
  pyodide.globals.set("ORIGIN", params.get("origin"));
  pyodide.runPython(`
import json, sys
sys.path[:0] = ["/app", "/app/site"]
from pyodide.ffi import to_js
from companion import offline
here = offline.start("${DATA}", ORIGIN)

def answer(method, url, headers, body):
    said = here.answer(method, url, json.loads(headers),
                       body.to_bytes() if hasattr(body, "to_bytes") else None)
    return [said["status"], json.dumps(said["headers"]), to_js(said["body"]), said["store"]]
`);
  await syncfs(pyodide, false);  // (the key and the tables made at the first start)
  return { pyodide, answer: pyodide.globals.get("answer") };
}

const ready = start();
ready.then(() => step("ready"), (error) => {
  self.postMessage({ type: "failed", error: String(error && error.stack || error) });
});

// One request at a time, in the order they came: the app is one process with one thread.
let queue = Promise.resolve();

self.onmessage = (event) => {
  const message = event.data;
  const port = event.ports[0];
  if (!message || message.type !== "request" || !port) {
    return;
  }
  queue = queue.then(async () => {
    try {
      const { pyodide, answer } = await ready;
      const body = message.body ? new Uint8Array(message.body) : undefined;  // (None)
      const said = answer(message.method, message.url, JSON.stringify(message.headers), body);
      const [status, headers, data, store] = said.toJs();
      said.destroy();
      if (store) {
        await syncfs(pyodide, false);
      }
      const bytes = data.slice().buffer;
      port.postMessage({ status, headers: JSON.parse(headers), body: bytes }, [bytes]);
    } catch (error) {
      port.postMessage({ error: String(error && error.stack || error) });
    }
  });
};
