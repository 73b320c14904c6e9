/* Boosted page changes (hx-boost) behave as full page loads would.
 *
 *  - The new page's <body> class, data-* and hx-headers attributes come with it;
 *  - a boosted link tapped with no connection opens the offline page (where a service
 *    worker serves it; else the page stays and taps-page.js says "No connection");
 *  - a page asked for earlier never replaces a page asked for later (sync.js pageOrder).
 */

import { pageOrder } from "./sync.js";

let pendingBody = null;

function isSyncedAttribute(name) {
  return name === "class" || name === "hx-headers" || name.indexOf("data-") === 0;
}

/** The newest page asked for stays: an older page's late answer is not swapped in. */
export function newestPageWins() {
  // htmx sends beforeRequest on the link or form (in the page then) and beforeSwap on
  // the target (<body>, always in the page), so both reach the document.
  const pages = pageOrder();
  const asked = new WeakMap();
  document.addEventListener("htmx:beforeRequest", (event) => {
    const detail = event.detail;
    if (detail.boosted && detail.xhr) {
      asked.set(detail.xhr, pages.ask());
    }
  });
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!detail.boosted || detail.target !== document.body || !detail.shouldSwap ||
        !detail.xhr || !asked.has(detail.xhr)) {
      return;
    }
    if (!pages.mayShow(asked.get(detail.xhr))) {
      detail.shouldSwap = false;
    }
  });
}

/** Boosted pages keep their <body> attributes. */
export function syncBoostedBody() {
  // hx-boost swaps only the inside of <body>; without this the scorekeeper page's
  // data-wake-lock and class would stay behind on the next page, or never arrive.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    pendingBody = null;
    if (!detail.boosted || detail.target !== document.body || !detail.shouldSwap ||
        typeof detail.serverResponse !== "string" ||
        !/<body[\s>]/i.test(detail.serverResponse)) {
      return;
    }
    pendingBody = new DOMParser().parseFromString(detail.serverResponse, "text/html").body;
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (!pendingBody || event.target !== document.body) {
      return;
    }
    const body = document.body;
    const fresh = pendingBody;
    pendingBody = null;
    Array.from(body.attributes).forEach((attribute) => {
      if (isSyncedAttribute(attribute.name) && !fresh.hasAttribute(attribute.name)) {
        body.removeAttribute(attribute.name);
      }
    });
    Array.from(fresh.attributes).forEach((attribute) => {
      if (isSyncedAttribute(attribute.name) &&
          body.getAttribute(attribute.name) !== attribute.value) {
        body.setAttribute(attribute.name, attribute.value);
      }
    });
  });
}

/** A boosted link that cannot reach the server shows the offline page, or says so. */
export function offlineFallback() {
  document.addEventListener("htmx:sendError", (event) => {
    const detail = event.detail;
    const verb = detail.requestConfig && detail.requestConfig.verb;
    // Only links and GET forms (taps are kept and sent again by taps-page.js).
    if (detail.boosted && verb === "get" && detail.pathInfo) {
      if (navigator.serviceWorker && navigator.serviceWorker.controller) {
        // A full navigation, which the service worker answers with /offline.
        window.location.assign(detail.pathInfo.finalRequestPath || detail.pathInfo.requestPath);
      } else {
        // No service worker (plain http on a LAN): a navigation would end on the
        // browser's own "This site can't be reached" page. The page stays; taps-page.js
        // says "No connection".
        document.dispatchEvent(new CustomEvent("companion:no-connection"));
      }
    }
  });
}
