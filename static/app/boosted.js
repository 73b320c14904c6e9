/* Boosted page changes (hx-boost) behave as full page loads would.
 *
 *  - The new page's <body> class, data-* and hx-headers attributes come with it;
 *  - a boosted link tapped with no connection opens the offline page (where a service
 *    worker serves it; else the page stays and taps-page.js says "No connection").
 */

let pendingBody = null;

function isSyncedAttribute(name) {
  return name === "class" || name === "hx-headers" || name.indexOf("data-") === 0;
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
