/* The companion's small progressive enhancements, as native ES modules. No build step.
 *
 * base.html loads this one module (<script type="module">: deferred, like every module
 * script); it imports the others and starts each duty once, in this order. Every page
 * works without them (plain forms and links); with them:
 *
 *   load-htmx.js   on a public host, htmx from the pinned CDN copy, or the app's own copy
 *                  of the same file (a page on a LAN loads its own copy with a plain script);
 *   boot.js        the service worker (offline page, installable app);
 *   sync-page.js   the live-sync protocol on the page (sync.js: its decisions): ticks and
 *                  the table's event stream, pushed answers, taps that say what their page
 *                  shows, no answer older than the page, late polls of an old page dropped;
 *   wakelock.js    the screen stays awake while <body data-wake-lock="on">;
 *   forms.js       confirm first, picker counts, dealer names, choices kept across updates,
 *                  one amount at a time (a chip or a typed one);
 *   boosted.js     a boosted page change brings the new <body>'s attributes; a link with
 *                  no connection opens the offline page; an older page's late answer
 *                  never replaces a newer page;
 *   countdown.js   running countdowns tick between polls;
 *   slip.js        a slip is sealed on the device before it is sent;
 *   stepper.js     a bid's −1 / +1 / +5 change the field in the page, with no round trip;
 *   connection.js  "Reconnecting…" when the page has lost its table;
 *   taps-page.js   taps that survive bad Wi-Fi (taps.js: its decisions);
 *   theme.js       the theme switch: light, dark or as the device, kept in a cookie;
 *   words.js       the words forms.js and taps-page.js write, in the page's language (the
 *                  page gives them as JSON data, which no browser runs as a script).
 *
 * A module script runs after the page is parsed and before DOMContentLoaded: load-htmx.js
 * relies on that. Nothing here needs an inline script, so the CSP forbids them all.
 */

import { newestPageWins, offlineFallback, syncBoostedBody } from "./boosted.js";
import { watchConnection } from "./connection.js";
import { runCountdowns } from "./countdown.js";
import { confirmSubmits, countPicks, keepChoices, nameDealers, oneAmount } from "./forms.js";
import { loadHtmx } from "./load-htmx.js";
import { startSlips } from "./slip.js";
import { startSteppers } from "./stepper.js";
import {
  dropLatePolls, followMovedTargets, keepUp, sendPageStamps, startTicks,
} from "./sync-page.js";
import { startTaps, wireLateForms } from "./taps-page.js";
import { watchThemeSwitch } from "./theme.js";
import { watchWakeLock } from "./wakelock.js";
// Imported by the modules above, and named here too: the browser then fetches every
// module as soon as it has read this one, not level by level.
import "./sync.js";
import "./taps.js";

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) {
    return; // Old browser, or plain http on a LAN address (not a secure context).
  }
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // The app works the same without it; only the offline page is lost.
  });
}

function start() {
  newestPageWins(); // first: a late page dropped is seen by no other duty's beforeSwap
  loadHtmx();
  registerServiceWorker();
  startTicks();
  watchWakeLock();
  wireLateForms(); // before confirmSubmits: a form htmx had not taken in hand asks once
  confirmSubmits();
  syncBoostedBody();
  dropLatePolls();
  offlineFallback();
  runCountdowns();
  countPicks();
  nameDealers();
  oneAmount();
  followMovedTargets();
  keepUp(); // before keepChoices: an answer not swapped saves no choice
  keepChoices();
  sendPageStamps();
  startSlips();
  startSteppers();
  watchConnection(); // before startTaps: the page hears, then kept taps go
  startTaps(); // after sendPageStamps (as taps.js ran after app.js)
  watchThemeSwitch();
}

if (document.readyState === "loading") {
  // (A module script runs once the page is parsed; this is for a page that loads it
  // otherwise.) Once: load-htmx.js may send DOMContentLoaded again.
  document.addEventListener("DOMContentLoaded", start, { once: true });
} else {
  start();
}
