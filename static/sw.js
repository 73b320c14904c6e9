/* The companion's service worker.
 *
 * Served from /sw.js (companion/web/pwa.py), which puts the shell list and a
 * version in front of this file. It keeps only the app shell: the style
 * sheets, the app's modules (static/app/), the icons and the /offline page.
 * Pages are network-first with /offline as the fallback; ballots, scores, money, partials and every
 * non-GET request go straight to the network and are never stored, because
 * they change all the time and some of them are secret.
 *
 * A table on this device (/here, companion.web.here): its page, its scripts, Pyodide and the
 * app's zip are kept in a cache of their own (HERE_CACHE) as they are fetched (the versioned
 * ones, under /here/pyodide/ and /here/files/, taken from it first; the others from the
 * network first), so /here starts with no network after a first visit; nothing of it is
 * fetched by a device that never opens /here. Every request under HERE_MOUNT (any method)
 * is the app's, which runs in that page's Web Worker: it is passed to the page (a
 * MessagePort for the answer) and its answer returned as the response. With no /here page
 * open, a page under HERE_MOUNT opens /here, which reopens it in its frame.
 */
"use strict";

const SHELL = self.COMPANION_SHELL || [
  "/static/app/boot.js",
  "/static/app/boosted.js",
  "/static/app/connection.js",
  "/static/app/countdown.js",
  "/static/app/forms.js",
  "/static/app/load-htmx.js",
  "/static/app/slip.js",
  "/static/app/stepper.js",
  "/static/app/sync-page.js",
  "/static/app/sync.js",
  "/static/app/taps-page.js",
  "/static/app/taps.js",
  "/static/app/theme.js",
  "/static/app/wakelock.js",
  "/static/app/words.js",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/static/icons/maskable-512.png",
  "/offline",
];
const OFFLINE_URL = self.COMPANION_OFFLINE || "/offline";
const CACHE_PREFIX = "companion-shell-";
const CACHE_NAME = CACHE_PREFIX + (self.COMPANION_VERSION || "v1");
const SHELL_PATHS = new Set(SHELL.map((url) => new URL(url, self.location.origin).pathname));
const HERE_PAGE = "/here";
const HERE_MOUNT = "/here/app";
const HERE_CACHE = "companion-here-v1";
const HERE_KEPT = ["/here/worker.js", "/here/nacl.js", "/static/here/"];  // network first, kept
const HERE_FOREVER = ["/here/pyodide/", "/here/files/"];       // versioned: cache first
const HERE_PATIENCE_MS = 10 * 60 * 1000;  // an answer of the app (Python may still be starting)
let hereHost = null;  // the id of the /here page that said it runs the app

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE_NAME)
      // "reload" skips the HTTP cache, so a new version never stores old files.
      .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

async function networkFirstPage(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await caches.match(OFFLINE_URL, { cacheName: CACHE_NAME });
    if (offline) {
      return offline;
    }
    throw error;
  }
}

async function cacheFirstShell(request) {
  // Style sheets may carry a ?v= cache-buster: the path alone names the file.
  const cached = await caches.match(request, { cacheName: CACHE_NAME, ignoreSearch: true });
  return cached || fetch(request);
}

async function hereNetworkFirst(request) {
  const cache = await caches.open(HERE_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) {
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) {
      return kept;
    }
    throw error;
  }
}

async function hereCacheFirst(request) {
  const cache = await caches.open(HERE_CACHE);
  const kept = await cache.match(request);
  if (kept) {
    return kept;
  }
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
  }
  return response;
}

async function hereHostClient() {
  if (hereHost) {
    const host = await self.clients.get(hereHost);
    if (host) {
      return host;
    }
  }
  const windows = await self.clients.matchAll({ type: "window" });
  return windows.find((client) => new URL(client.url).pathname === HERE_PAGE) || null;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

async function hereRelay(request) {
  const url = new URL(request.url);
  const host = await hereHostClient();
  if (!host) {
    if (request.mode === "navigate") {
      return Response.redirect(`${HERE_PAGE}?open=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    return new Response("A table on this device runs in its page (/here), which is closed.",
                        { status: 503, headers: { "Content-Type": "text/plain" } });
  }
  const body = ["GET", "HEAD"].includes(request.method) ? null : await request.arrayBuffer();
  const headers = [...request.headers];
  if (request.referrer) {
    headers.push(["Referer", request.referrer]);
  }
  const channel = new MessageChannel();
  const answered = new Promise((resolve, reject) => {
    channel.port1.onmessage = (event) => resolve(event.data);
    setTimeout(() => reject(new Error("no answer")), HERE_PATIENCE_MS);
  });
  host.postMessage({ type: "here-request", method: request.method,
                     url: url.pathname + url.search, headers, body },
                   body ? [channel.port2, body] : [channel.port2]);
  const answer = await answered;
  if (answer.error) {
    return new Response(answer.error, { status: 500, headers: { "Content-Type": "text/plain" } });
  }
  return new Response(NULL_BODY.has(answer.status) ? null : answer.body,
                      { status: answer.status, headers: answer.headers });
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "here-host" && event.source) {
    hereHost = event.source.id;
  } else if (message.type === "here-keep" && Array.isArray(message.urls)) {
    // The /here page and its files, which came before this worker on a first visit.
    const urls = message.urls.filter((url) => {
      const path = new URL(url, self.location.origin).pathname;
      return path === HERE_PAGE || HERE_KEPT.some((prefix) => path.startsWith(prefix));
    });
    event.waitUntil(caches.open(HERE_CACHE)
      .then((cache) => cache.addAll(urls.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => event.ports[0] && event.ports[0].postMessage("kept")));
  }
});

function hereFetch(event, url) {
  const path = url.pathname;
  if (path === HERE_MOUNT || path.startsWith(HERE_MOUNT + "/")) {
    event.respondWith(hereRelay(event.request));
    return true;
  }
  if (event.request.method !== "GET") {
    return false;
  }
  if (HERE_FOREVER.some((prefix) => path.startsWith(prefix))) {
    event.respondWith(hereCacheFirst(event.request));
    return true;
  }
  if (path === HERE_PAGE || HERE_KEPT.some((prefix) => path.startsWith(prefix))) {
    event.respondWith(hereNetworkFirst(event.request));
    return true;
  }
  return false;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const here = new URL(request.url);
  if (here.origin === self.location.origin && hereFetch(event, here)) {
    return;
  }
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(networkFirstPage(request));
  } else if (SHELL_PATHS.has(url.pathname) && url.pathname !== OFFLINE_URL) {
    event.respondWith(cacheFirstShell(request));
  }
  // Anything else is not answered here, so the browser fetches it as if there
  // were no service worker, and nothing of it is stored.
});
