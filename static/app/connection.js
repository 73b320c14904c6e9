/* A screen that says when it has lost the table: "Reconnecting…".
 *
 * A page that follows a table (it has a #pulse or a live region) says when it has lost it:
 * no poll answered for a few seconds (without a stream), or its stream silent for longer
 * than the heartbeat allows (it then asks with a poll, every few seconds until it hears),
 * or the device offline: "Reconnecting…" (#connection), and <body data-connection="lost"> marks what it
 * shows as possibly out of date; when it hears again it polls at once to catch up.
 *
 * The decisions are sync.js's (connection, silent, caughtUp). The page hears the server
 * when its stream speaks (sync-page.js sends companion:heard) and when a request is
 * answered; whether it hears its stream is <body data-stream> (sync-page.js).
 */

import { askNow, caughtUp, connection, silent } from "./sync.js";

const CHECK_MS = 500;   // how often the page looks whether it still hears

let heard = Date.now(); // when the page last heard the server
let since = Date.now(); // when it began listening the way it does now
let streaming = null;   // whether it hears its table's stream (body data-stream)
let state = "idle";     // what #connection says: connection()
let asked = null;       // its stream went silent: when a poll last asked whether the server is there

function following() {
  // A table on this device (<body data-here>) is never lost: it is here, network or not.
  if (document.body && document.body.hasAttribute("data-here")) {
    return false;
  }
  return Boolean(document.getElementById("pulse")
    || document.querySelector('[hx-trigger*="companion:tick"]'));
}

function hear() {
  heard = Date.now();
  asked = null;
  check();
}

function check() {
  const body = document.body;
  if (!body) {
    return;
  }
  const now = Date.now();
  const nowStreaming = body.getAttribute("data-stream") === "on";
  if (nowStreaming !== streaming) {
    streaming = nowStreaming;
    if (state !== "lost") {
      since = now;  // (a page marked lost stays so until it hears)
    }
  }
  const page = { now, online: navigator.onLine, following: following(),
                 streaming, heard, since };
  if (page.following && askNow(silent(page), asked, now)) {
    // Its stream is silent past its heartbeat (the Wi-Fi blipped, the stream died without
    // a word): the page is marked lost now, and asks with a poll until it hears again.
    if (asked === null) {
      document.dispatchEvent(new CustomEvent("companion:silent"));  // (sync-page.js: a new stream)
    }
    asked = now;
    body.dispatchEvent(new CustomEvent("companion:tick"));
  }
  const was = state;
  state = connection(page);
  const line = document.getElementById("connection");
  if (state === "lost") {
    body.setAttribute("data-connection", "lost");
  } else {
    body.removeAttribute("data-connection");
  }
  if (line) {
    line.hidden = state !== "lost";
  }
  if (caughtUp(was, state)) {
    body.dispatchEvent(new CustomEvent("companion:tick"));  // catch up at once
  }
}

/** Say on #connection whether the page has its table, twice a second and as things happen. */
export function watchConnection() {
  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (xhr && xhr.status) {
      hear(); // (no answer: not heard)
    }
  });
  document.addEventListener("htmx:afterSettle", check); // a page that follows a table, or none
  document.addEventListener("companion:heard", hear);
  window.addEventListener("online", check);
  window.addEventListener("offline", check);
  window.setInterval(check, CHECK_MS);
  check();
}
