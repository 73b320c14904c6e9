/* The companion's service worker.
 *
 * Served from /sw.js (companion/web/pwa.py), which puts the shell list and a
 * version in front of this file. It keeps only the app shell: the style
 * sheets, the app's modules (static/app/), the icons and the /offline page.
 * Pages are network-first with /offline as the fallback; ballots, scores, money, partials and every
 * non-GET request go straight to the network and are never stored, because
 * they change all the time and some of them are secret.
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

self.addEventListener("fetch", (event) => {
  const request = event.request;
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
