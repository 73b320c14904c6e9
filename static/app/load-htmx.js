/* htmx from the CDN, or the app's own copy of it (a page on a public host name).
 *
 * base.html's <meta name="companion-htmx"> names the pinned CDN copy (content), its hash
 * (data-integrity) and the app's own copy of the same file (data-fallback): the CDN's is
 * loaded, and the app's own when the CDN fails, hangs (HTMX_PATIENCE_MS) or sends another
 * file. Run it before DOMContentLoaded (a module script is deferred: boot.js runs it then).
 * A page on a LAN has no such tag: it loads the app's own copy with a plain deferred
 * script (companion/web/security.py), and never asks the CDN.
 */

const HTMX_PATIENCE_MS = 3000;  // a CDN that has not answered by then counts as out of reach

let domContentLoaded = false;

/** A <script> added to the page's <head>, with its hash when it has one. */
export function addScript(src, integrity) {
  const script = document.createElement("script");
  script.src = src;
  if (integrity) {
    script.integrity = integrity;
    script.crossOrigin = "anonymous";
  }
  document.head.appendChild(script);
  return script;
}

function htmxRan() {
  // htmx sets itself up on DOMContentLoaded, or at once if the page has finished
  // loading (readyState "complete"). A copy that runs in between would wait for an
  // event that has already gone by: send that event again, for htmx.
  if (domContentLoaded && document.readyState !== "complete") {
    document.dispatchEvent(new Event("DOMContentLoaded"));
  }
}

/** Load htmx (nothing to do on a page without the meta tag, or with htmx already). */
export function loadHtmx() {
  document.addEventListener("DOMContentLoaded", () => {
    domContentLoaded = true;
  }, { once: true });
  const meta = document.querySelector('meta[name="companion-htmx"]');
  if (!meta || window.htmx) {
    return;
  }
  const integrity = meta.getAttribute("data-integrity");
  const fallback = meta.getAttribute("data-fallback");
  const cdn = addScript(meta.getAttribute("content"), integrity);
  let settled = false;
  const timer = fallback ? window.setTimeout(useFallback, HTMX_PATIENCE_MS) : null;

  function settle() {
    const first = !settled;
    settled = true;
    window.clearTimeout(timer);
    return first;
  }

  function useFallback() {
    if (!settle() || !fallback) {
      return;
    }
    // If the CDN still answers, its copy must not start a second htmx: a script
    // moved to another document before it runs is never run.
    document.implementation.createHTMLDocument("").adoptNode(cdn);
    addScript(fallback, integrity).addEventListener("load", htmxRan);
  }

  cdn.addEventListener("load", () => {
    if (settle()) {
      htmxRan();
    }
  });
  // Failed, blocked, or refused by the SRI check (a file that is not the pinned one).
  cdn.addEventListener("error", useFallback);
}
