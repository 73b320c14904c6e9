/* The live-sync protocol on the page: sync.js's decisions wired to the #pulse, htmx's
 * events and the table's event stream.
 *
 *  - A `companion:tick` event fires on <body> when the table the page follows changed (its
 *    event stream, the #pulse's data-events, says the version), and every TICK_MS while
 *    the page hears no stream; at once when the page becomes visible again. Live partials
 *    poll with hx-trigger="companion:tick from:body", so a sleeping phone stops polling
 *    and catches up when it wakes. <body data-stream="on|off"> says whether the page hears
 *    its table, <body data-heard> the version the stream said last.
 *  - The stream brings the pulse's answer itself (event "pulse": the pulse URL it answers,
 *    then the answer), when the page opened it with its pulse's URL and an id of its own:
 *    the page swaps it in as a poll's answer when it still shows what the answer starts
 *    from and no tap of its own is under way (a tap and the pulse never cross), and polls
 *    otherwise. A stream refused ("full") or broken for good: the page polls, and asks
 *    again after REFUSED_MS.
 *  - A tap (an htmx request that changes something) says what its page shows (the
 *    #pulse's URL, in X-Companion-Pulse) and the page's id (X-Companion-Page): its answer
 *    brings, besides its own region, every other region that changed and the page's new
 *    pulse, and the stream does not push the tap's own change back.
 *  - A page never rests behind the version its stream said (it polls again once its
 *    requests settle, and every TICK_MS while behind), and an answer older than what the
 *    page shows is not swapped in.
 *  - A tap's answer goes where its region is now (a pulse answer may have swapped a new
 *    one in while the tap was under way).
 *  - The answer of a poll the old page sent that comes after a boosted page change is
 *    dropped: it does not land in the new page.
 */

import {
  REFUSED_MS, TICK_MS, answerVersion, behind, chase, faltered, hearing, isNews, newPageId,
  opened, pushAction, shouldPoll, splitPulse, spoke, staleAnswer, streamFor, streamUrl,
  tooQuiet, underWay,
} from "./sync.js";

let source = null;      // the EventSource of the table the page follows, if any
let streamKey = "";     // the stream it is (sync.streamFor)
let stream = null;      // what the page knows of it (sync.opened), while it is open
let latest = null;      // the latest version it said
let refusedUntil = 0;
let taps = [];          // the taps' requests (htmx requests that change something)

// This page's id: its stream and its taps say it (a tap's own change is not pushed back).
const pageId = newPageId(Math.random(), Date.now());

function tick() {
  if (document.body) {
    document.body.dispatchEvent(new CustomEvent("companion:tick"));
  }
}

function pulse() {
  return document.getElementById("pulse");
}

function shownVersion() {
  // The version the page shows (its #pulse's), or null without a pulse.
  const shown = pulse();
  return shown ? parseInt(shown.getAttribute("data-version"), 10) : null;
}

function isBehind() {
  return behind(shownVersion(), latest);
}

function tapping() {
  taps = underWay(taps);
  return taps.length > 0;
}

function showHearing() {
  // <body data-stream="on|off">: whether the page hears its table (or polls instead).
  if (document.body) {
    document.body.setAttribute("data-stream", hearing(stream, Date.now()) ? "on" : "off");
    document.body.setAttribute("data-heard", latest === null ? "" : String(latest));
  }
}

function heardFromServer(version) {
  // The stream spoke (a heartbeat, a change): taps-page.js knows the page has its table.
  stream = spoke(stream, Date.now(), version);
  latest = stream.latest;
  document.dispatchEvent(new CustomEvent("companion:heard"));
}

function listen() {
  // One stream for the table the page follows, while the page is shown.
  const shown = pulse();
  const page = shown
    ? { events: shown.getAttribute("data-events"), answers: shown.getAttribute("hx-get") }
    : null;
  const want = streamFor(page, Boolean(window.EventSource),
                         document.visibilityState === "visible", Date.now(), refusedUntil);
  if (want.key === streamKey) {
    showHearing(); // (a boosted page change brings a <body> without it)
    return;
  }
  if (source) {
    source.close();
    source = null;
  }
  streamKey = want.key;
  stream = null;
  latest = null;
  if (!want.url) {
    showHearing();
    return;
  }
  const opening = new EventSource(streamUrl(want.url, pageId, want.answers));
  source = opening;
  stream = opened(Date.now());
  showHearing();
  opening.onmessage = (event) => {
    if (opening !== source) {
      return;
    }
    heardFromServer(parseInt(event.data, 10));
    showHearing();
    const now = pulse();
    if (isNews(now ? now.getAttribute("data-version") : null, event.data)) {
      tick(); // the table changed: the pulse brings what did
    }
  };
  opening.addEventListener("pulse", (event) => {
    if (opening !== source) {
      return;
    }
    const pushed = splitPulse(event.data);
    heardFromServer(pushed.version);
    showHearing();
    const now = pulse();
    const action = pushAction({
      pulse: now ? now.getAttribute("hx-get") : null,
      tapping: now !== null && pushed.version !== null && tapping(),
      canSwap: Boolean(window.htmx && window.htmx.swap),
      behind: isBehind(),
    }, pushed);
    if (action === "swap") {
      window.htmx.swap(now, pushed.answer, { swapStyle: "none" });
    } else if (action === "poll") {
      tick();
    }
  });
  function giveUp() {
    // Refused (the server holds as many streams as it may) or failed for good: poll, and
    // ask again in a while.
    opening.close();
    source = null;
    stream = null;
    streamKey = "";
    refusedUntil = Date.now() + REFUSED_MS;
    window.setTimeout(listen, REFUSED_MS);
    showHearing();
  }
  opening.addEventListener("full", () => {
    if (opening === source) {
      giveUp();
    }
  });
  opening.onerror = () => {
    if (opening !== source) {
      return;
    }
    stream = faltered(stream); // the page polls until the stream speaks again
    showHearing();
    if (opening.readyState === EventSource.CLOSED) {
      giveUp();
    }
  };
}

/** Ticks, the table's event stream, and catching up when the page is shown again. */
export function startTicks() {
  window.setInterval(() => {
    if (tooQuiet(stream, Date.now())) {
      streamKey = ""; // silent too long (a proxy holding it back?): open it again
      listen();
    }
    showHearing();
    // A table on this device (<body data-here>): nothing changes but by this page's own
    // taps, whose answers bring what changed; no poll.
    if (!document.body.hasAttribute("data-here")
        && shouldPoll(document.visibilityState === "visible", hearing(stream, Date.now()),
                      isBehind())) {
      tick();
    }
  }, TICK_MS);
  document.addEventListener("visibilitychange", () => {
    listen();
    if (document.visibilityState === "visible") {
      tick();
    }
  });
  // A boosted page change may bring a page that follows another table, or none.
  document.addEventListener("htmx:afterSettle", listen);
  // Its stream went silent past its heartbeat (connection.js): it has probably died
  // without a word (a Wi-Fi blip); a new one is opened, which speaks at once.
  document.addEventListener("companion:silent", () => {
    if (source) {
      streamKey = "";
      listen();
    }
  });
  listen();
}

/** A page change drops the old page's late polls. */
export function dropLatePolls() {
  // A poll sent by the page being left may answer after the new page is in. Its regions
  // (swapped out of band, by id) would then find no place there, and an old #pulse put in
  // the new page's #pulse place would go on polling for the old page: the new page would
  // stop following the table. So, as a new page comes, the old page's polling elements
  // are told to swap nothing more (aborting them instead would log htmx errors).
  function swapNothing(event) {
    event.detail.shouldSwap = false;
  }
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!detail.boosted || detail.target !== document.body || !detail.shouldSwap) {
      return;
    }
    document.querySelectorAll('[hx-trigger*="companion:tick"]').forEach((element) => {
      element.addEventListener("htmx:beforeSwap", swapNothing);
    });
  });
}

/** A tap's answer goes where its region is now. */
export function followMovedTargets() {
  // Should a tap and another request be under way at once, and the other's answer swap
  // a new round region in while the tap was under way, the region the tap was sent from
  // is no longer in the page: its answer (newer: the pulse's, if later, is dropped by
  // keepUp) goes into the region of the same id that took its place.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (target && target.id && !document.body.contains(target)) {
      const now = document.getElementById(target.id);
      if (now) {
        event.detail.target = now;
      }
    }
  });
}

/** The page never rests behind its table, and no older answer is swapped in. */
export function keepUp() {
  // A tap and the page's pulse never cross (hx-sync, _macros.html), but an answer may
  // come from before a change the stream has told of since (a poll dropped while a
  // request was under way): an answer older than what the page shows is not swapped
  // in, and once requests settle, a page behind the version its stream said polls again.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    const shown = pulse();
    if (!detail.shouldSwap || detail.boosted || !shown || !detail.xhr) {
      return;
    }
    if (staleAnswer(answerVersion(detail.xhr.responseText || ""), shownVersion())) {
      detail.shouldSwap = false;
    }
  });
  let chased = null; // the version a poll that found nothing new was sent after again
  document.addEventListener("htmx:afterRequest", (event) => {
    const detail = event.detail;
    const next = chase({
      successful: detail.successful,
      behind: isBehind(),
      fromPulse: detail.elt === pulse(),
      status: detail.xhr ? detail.xhr.status : 0,
    }, chased, latest);
    chased = next.chased;
    if (next.poll) {
      window.setTimeout(tick, 0); // after htmx has let go of this request
    }
  });
}

/** A tap says what its page shows, and the page counts its taps under way. */
export function sendPageStamps() {
  document.addEventListener("htmx:configRequest", (event) => {
    const shown = pulse();
    if (shown && event.detail.verb !== "get") {
      event.detail.headers["X-Companion-Pulse"] = shown.getAttribute("hx-get");
      event.detail.headers["X-Companion-Page"] = pageId;
    }
  });
  document.addEventListener("htmx:beforeRequest", (event) => {
    const detail = event.detail;
    if (detail.xhr && detail.requestConfig && detail.requestConfig.verb !== "get") {
      taps.push(detail.xhr);
    }
  });
}
