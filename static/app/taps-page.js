/* Taps that survive bad Wi-Fi.
 *
 * A tap is a request that changes something (an htmx POST: a form of the round, a boosted
 * form). With this module:
 *  1. every tap carries a key made on the device (X-Companion-Tap, 128 random bits); the
 *     same tap sent again carries the same key, and the server applies a key once
 *     (companion/web/taps.py);
 *  2. while a tap is on its way its button says so ("Sending…") and cannot be tapped
 *     again; a tap made meanwhile on another button waits for it (a tap never stops
 *     another: htmx would stop the first, which may still have gone in); <body data-taps>
 *     says how many taps are not answered yet;
 *  3. a tap that cannot reach the server (no connection at the moment of the tap, or the
 *     request failed, or no answer came in time) is kept, and its button says so: "Not
 *     sent: no connection — will send when you're back", with "Send again". It is sent
 *     again by itself, once each time the page hears from the server again (the browser
 *     is online again, the table's stream speaks, a poll is answered), with the same key
 *     and the same values; a tap that never left is dropped instead when the table moved
 *     on meanwhile (its form is no longer on the screen), and the page says so; one that
 *     may have gone in is always sent again: the server answers a repeat from the first,
 *     and refuses a tap meant for a round that is over, with its own message;
 *  4. a link tapped with no connection and no service worker (plain http on a LAN) keeps
 *     the page and says "No connection" (boosted.js sends companion:no-connection);
 *  5. a tap is followed by its own request (XMLHttpRequest's loadend), not by htmx's events
 *     on the element that sent it: a poll, a push or another tap's answer may take that
 *     element out of the page meanwhile, and htmx then tells the document nothing. Its
 *     answer, error or timeout ends it wherever its form went (and the page asks for what
 *     it shows now); a request that never ends is stopped OVERDUE_MS after its timeout,
 *     and the tap kept: sent again with its key, the server answers it from the first or
 *     applies it. A page is never left waiting on a tap it no longer shows;
 *  6. after a spell with no answer at all (a dead Wi-Fi, while the browser still says it
 *     is online), the first thing heard sends the kept taps again by themselves; a page
 *     that follows no table asks the server (HERE_URL) every PROBE_MS meanwhile;
 *  7. a double tap on a toggle (a button with aria-pressed: a tick, a TROMP! call, the
 *     dealer's forfeit) is one tap: the toggle takes no tap while its tap is on its way,
 *     nor for SETTLE_MS after its answer redrew it in the other state (<button
 *     data-settling>); and a form drawn before htmx took it in hand is sent by htmx, with
 *     its key, never posted plainly (wireLateForms).
 *
 * The decisions are plain functions in taps.js; this module wires them to htmx's events and
 * the page's buttons. A kept tap goes again when the page hears the server: a request
 * answered, or the stream speaking (sync-page.js sends companion:heard). connection.js
 * says when the page has lost its table ("Reconnecting…").
 */

import {
  HERE_URL, LEAVE_MS, MESSAGES, OVERDUE_MS, PROBE_MS, SEND_TIMEOUT_MS, SETTLE_MS, TAP_HEADER,
  afterFailure, heardAgain, held, newKey, nextWaiting, outcome, overdue, plan, probeNow,
  rearmed, sameFields, sameValues, settleLeft, settling, toResend,
} from "./taps.js";
import { word } from "./words.js";

/** What a tap's note (or the page's news) says in ``state``, in the page's language
 * (MESSAGES: its English). */
function message(state) {
  return MESSAGES[state] ? word("tap." + state, MESSAGES[state]) : "";
}

var taps = {};          // the taps not yet answered, by key
var sending = null;     // the key of the tap on its way
var deaf = false;       // the page's last request found no answer, and it heard nothing since
var probing = false;    // a probe (HERE_URL) is on its way
var lastProbe = 0;      // when the last one went
var settled = null;     // the last toggle tap answered: {toggle, at}

/** Whether a tap can reach the app: the device is online, or the app is on this device (a
 * table on this device, <body data-here>: it answers with no network at all). */
function reachable() {
  return navigator.onLine || Boolean(document.body && document.body.hasAttribute("data-here"));
}

function makeKey() {
  var bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return newKey(bytes);
}

function list() {
  return Object.keys(taps).map(function (key) { return taps[key]; });
}

function isTap(verb) {
  return Boolean(verb) && verb.toLowerCase() !== "get";
}

function hiddenFields(form) {
  var fields = {};
  if (!form || !form.querySelectorAll) {
    return fields;
  }
  Array.prototype.forEach.call(form.querySelectorAll('input[type="hidden"][name]'),
    function (input) { fields[input.name] = input.value; });
  return fields;
}

function formOf(elt) {
  if (!elt) {
    return null;
  }
  return elt.tagName === "FORM" ? elt : elt.closest && elt.closest("form");
}

function valuesOf(form, submitter) {
  var values = [];
  try {
    new FormData(form, submitter || undefined).forEach(function (value, name) {
      values.push([name, value]);
    });
  } catch (error) {
    // A submitter FormData does not take (an old browser): the form, and the button.
    new FormData(form).forEach(function (value, name) { values.push([name, value]); });
    if (submitter && submitter.name) {
      values.push([submitter.name, submitter.value]);
    }
  }
  return values;
}

function newTap(elt, verb, path, submitter) {
  var form = formOf(elt);
  return {
    key: makeKey(),
    made: Date.now(),
    verb: verb,
    path: path,
    elt: elt,
    form: form,
    action: form ? form.getAttribute("action") || form.getAttribute("hx-post") || "" : "",
    hidden: hiddenFields(form),
    button: submitter ? [submitter.name, submitter.value] : null,
    submitter: submitter || null,
    values: form ? valuesOf(form, submitter) : null,  // at the tap (its button too)
    sent: null,  // what it sent the first time it went
    boosted: false,  // (what htmx says, at configRequest)
    target: elt && elt.getAttribute ? (form || elt).getAttribute("hx-target") : null,
    swap: form ? form.getAttribute("hx-swap") : null,
    toggle: toggleOf(submitter),  // the toggle it switches, if it is one (settling())
    state: "sending",
    tries: 0,
    xhr: null,  // its request on its way (the one whose end ends it)
    sentAt: null,
    timeout: 0,  // (its request's)
    armed: false,
    mayHaveArrived: false,
    note: null,
  };
}

function toggleOf(button) {
  // The name of the toggle a button switches (a button that says aria-pressed: a tick, a
  // TROMP! call, the dealer's forfeit), the same in both its states: its form's action
  // and its data-toggle (or its value); null for any other button.
  if (!button || !button.hasAttribute || !button.hasAttribute("aria-pressed")) {
    return null;
  }
  var form = formOf(button);
  var action = form ? form.getAttribute("action") || form.getAttribute("hx-post") || "" : "";
  return action + " " + (button.getAttribute("data-toggle") || button.value || "");
}

/* Where a kept tap is on the screen now: its own form, or the one that took its place. */
function formNow(tap) {
  if (tap.form && document.body.contains(tap.form)) {
    return tap.form;
  }
  if (!tap.action) {
    return null;
  }
  var forms = document.querySelectorAll("form");
  for (var i = 0; i < forms.length; i += 1) {
    var form = forms[i];
    var action = form.getAttribute("action") || form.getAttribute("hx-post") || "";
    if (action === tap.action && sameFields(tap.hidden, hiddenFields(form))) {
      return form;
    }
  }
  return null;
}

function buttonNow(tap, form) {
  if (!form) {
    return null;
  }
  if (tap.submitter && form.contains(tap.submitter)) {
    return tap.submitter;
  }
  var buttons = form.querySelectorAll('button[type="submit"], button:not([type]), input[type="submit"]');
  function like(sameName) {
    return Array.prototype.filter.call(buttons, function (button) {
      return tap.button && button.value === tap.button[1]
        && (!sameName || button.name === tap.button[0]);
    })[0];
  }
  // The same button; else one with the same value (a tick's button now says "untick").
  return like(true) || like(false) || buttons[0] || null;
}

/* What the button says. */
function show(tap) {
  var form = formNow(tap);
  var button = buttonNow(tap, form);
  var note = tap.note;
  if (!button && !form) {
    if (note && note.parentNode) {
      note.parentNode.removeChild(note);
    }
    count();
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.className = "tap-note";
    note.setAttribute("role", "status");
    note.setAttribute("data-testid", "tap-note");
    var words = document.createElement("span");
    words.className = "tap-words";
    note.appendChild(words);
    var again = document.createElement("button");
    again.type = "button";
    again.className = "button small tap-again";
    again.textContent = word("tap.again", "Send again");
    again.setAttribute("data-testid", "send-again");
    again.addEventListener("click", function () { sendAgain(tap.key, "hand"); });
    note.appendChild(again);
    tap.note = note;
  }
  note.setAttribute("data-state", tap.state);
  note.firstChild.textContent = message(tap.state);
  note.lastChild.hidden = tap.state !== "unsent";
  var place = button || form;
  if (note.previousSibling !== place || !note.parentNode) {
    place.parentNode.insertBefore(note, place.nextSibling);
  }
  if (button) {
    var busy = tap.state === "sending" || tap.state === "waiting";
    button.disabled = busy;
    button.classList.toggle("tap-sending", busy);
    button.classList.toggle("tap-unsent", tap.state === "unsent");
    if (busy) {
      button.setAttribute("aria-busy", "true");
    } else {
      button.removeAttribute("aria-busy");
    }
    tap.shownOn = button;
  }
  count();
}

function forget(tap) {
  delete taps[tap.key];
  if (tap.note && tap.note.parentNode) {
    tap.note.parentNode.removeChild(tap.note);
  }
  var button = tap.shownOn;
  if (button) {
    button.disabled = false;
    button.classList.remove("tap-sending", "tap-unsent");
    button.removeAttribute("aria-busy");
  }
  count();
}

function count() {
  // <body data-taps>: how many taps are not answered yet (on their way, waiting, kept).
  if (document.body) {
    document.body.setAttribute("data-taps", String(list().length));
  }
}

function say(words) {
  // A line at the top of the page, for what is not said at a button (#tap-news).
  var news = document.getElementById("tap-news");
  if (!news) {
    return;
  }
  news.querySelector(".tap-news-words").textContent = words;
  news.hidden = !words;
}

/* Sending a kept tap (again). */
function sendAgain(key, why) {
  var tap = taps[key];
  if (!tap || sending !== null || !window.htmx) {
    return;
  }
  if (!reachable() && tap.state === "unsent") {
    return;  // (still offline: it would fail at once; it goes when the device is back)
  }
  var form = formNow(tap);
  if (plan(tap, Boolean(form)) === "stale") {
    forget(tap);
    say(message("stale"));
    return;
  }
  if (why !== "hand") {
    tap.armed = false;
  }
  tap.state = "sending";
  var context = { headers: {} };
  context.headers[TAP_HEADER] = tap.key;
  if (form) {
    context.source = form;
  } else {
    // It may have gone in, and its form is gone: sent from the page, into the region it
    // answers; on a page without that region (the player went elsewhere), its answer is
    // not shown (the server applies it once all the same).
    var target = tap.target && document.querySelector(tap.target);
    context.source = target || document.body;
    if (target) {
      context.target = target;
      context.swap = tap.swap || "outerHTML";
    } else {
      context.handler = function () {};
    }
    if (tap.boosted) {
      context.headers["HX-Boosted"] = "true";
    }
  }
  sending = tap.key;  // (htmx may hold it a moment behind a poll: nothing else starts)
  var tries = tap.tries;
  var sent = window.htmx.ajax(tap.verb, tap.path, context);
  if (sent && sent.catch) {
    sent.catch(function () {});  // a failure is handled by the events below
  }
  window.setTimeout(function () {
    // htmx has not sent it in a second (nothing it waited behind took that long; or
    // something stopped it): it is kept, and the other taps are not held up by it.
    var now = taps[key];
    if (now && sending === key && now.tries === tries) {
      failed(now);
    }
  }, LEAVE_MS);
}

function soon(then) {
  // After htmx has let go of the request being answered (inside its events, a new
  // request would wait behind it in htmx's queue, or stop it).
  window.setTimeout(then, 0);
}

function sendKept(why) {
  soon(function () {
    toResend(list(), sending !== null, reachable()).forEach(function (tap) {
      sendAgain(tap.key, why);
    });
  });
}

function sendWaiting() {
  soon(function () {
    var tap = nextWaiting(list());
    if (tap !== null && sending === null) {
      sendAgain(tap.key, "after");
    }
  });
}

/* htmx's events. */
function tapOf(detail) {
  var config = detail.requestConfig || detail;
  var key = config && config.headers && config.headers[TAP_HEADER];
  return key ? taps[key] || null : null;
}

function pendingLike(tap) {
  // A tap kept (not sent) on the same button with the same values: this is "send again".
  return list().filter(function (other) {
    return other !== tap && other.state === "unsent" && other.action === tap.action
      && sameFields(other.hidden, tap.hidden) && sameValues(other.values, tap.values);
  })[0] || null;
}

function onConfirm(event) {
  soon(count);
  var detail = event.detail;
  var etc = detail.etc || {};
  if (!isTap(detail.verb) || (etc.headers && etc.headers[TAP_HEADER])) {
    return;  // (not a tap; or a kept tap sent again: sendAgain)
  }
  var submitter = detail.triggeringEvent && detail.triggeringEvent.submitter;
  if (submitter && submitter.disabled) {
    event.preventDefault();  // its tap is on its way: a second tap sends nothing
    return;
  }
  var tap = newTap(detail.elt, detail.verb, detail.path, submitter);
  var kept = pendingLike(tap);
  if (kept !== null) {
    event.preventDefault();
    sendAgain(kept.key, "hand");
    return;
  }
  if (!reachable() || sending !== null) {
    event.preventDefault();
    taps[tap.key] = held(tap, reachable() ? "busy" : "offline");
    show(taps[tap.key]);
    return;
  }
  if (detail.triggeringEvent) {
    detail.triggeringEvent.companionTap = tap;
  }
  taps[tap.key] = tap;
  window.setTimeout(function () {
    // htmx never sent it (its element went from the page first, or a handler stopped it):
    // it is kept, and shown as such, not left "on its way" for ever.
    var now = taps[tap.key];
    if (now && now.state === "sending" && now.tries === 0 && !now.xhr) {
      failed(now);
    }
  }, LEAVE_MS);
}

function onConfigRequest(event) {
  // (Listened to first, on the window: a handler of another script that changes a tap's
  // values, e.g. one that seals a slip, sees them as this one leaves them.)
  var detail = event.detail;
  if (!isTap(detail.verb)) {
    return;
  }
  var again = detail.headers[TAP_HEADER];  // a kept tap sent (again): sendAgain
  var tap = again ? taps[again]
    : detail.triggeringEvent && detail.triggeringEvent.companionTap;
  if (again && !tap) {
    return;  // (answered meanwhile: it goes with its key, and the server knows it)
  }
  if (!tap) {
    // A tap htmx sent without a confirm of ours (htmx.ajax by other code): a key anyway.
    tap = newTap(detail.elt, detail.verb, detail.path, null);
    taps[tap.key] = tap;
  }
  detail.headers[TAP_HEADER] = tap.key;
  if (!again) {
    tap.boosted = detail.headers["HX-Boosted"] === "true";
  }
  if (!detail.timeout) {
    detail.timeout = SEND_TIMEOUT_MS;
  }
  var values = again && (tap.sent || tap.values);
  if (values) {
    // Sent again: exactly what went the first time (the server knows a tap sent again
    // by its key and its values); never sent: the values of the moment of the tap (its
    // button among them: a form drawn again meanwhile has lost it).
    var form = new FormData();
    values.forEach(function (pair) { form.append(pair[0], pair[1]); });
    detail.parameters = form;
  }
}

function pairsOf(parameters) {
  // The name and value pairs of a request's parameters (htmx's FormData, or an object).
  var pairs = [];
  if (parameters && typeof parameters.forEach === "function"
      && typeof parameters.append === "function") {
    parameters.forEach(function (value, name) { pairs.push([name, value]); });
  } else if (parameters) {
    Object.keys(parameters).forEach(function (name) {
      [].concat(parameters[name]).forEach(function (value) { pairs.push([name, value]); });
    });
  }
  return pairs;
}

function onBeforeRequest(event) {
  var tap = tapOf(event.detail);
  if (!tap) {
    return;
  }
  if (!tap.sent) {
    // What this tap sends, as every handler left it: sent again, it sends the same.
    tap.sent = pairsOf(event.detail.requestConfig.parameters);
  }
  sending = tap.key;
  tap.state = "sending";
  tap.tries += 1;
  follow(tap, event.detail.xhr, event.detail.elt);
  show(tap);
}

function follow(tap, xhr, elt) {
  // A tap is ended by its own request, wherever its form has gone: htmx says a request's
  // end only on the element that sent it, and an element a poll, a push or another tap's
  // answer took out of the page tells the document nothing. The request itself does.
  if (!xhr || !xhr.addEventListener) {
    return;
  }
  var key = tap.key;
  tap.xhr = xhr;
  tap.sentAt = Date.now();
  tap.timeout = xhr.timeout || SEND_TIMEOUT_MS;
  tap.orphan = false;
  xhr.addEventListener("readystatechange", function () {
    if (xhr.readyState === 4 && taps[key] && taps[key].xhr === xhr) {
      // Its answer comes to a page that no longer shows its form: htmx swaps it nowhere.
      taps[key].orphan = !(elt && document.body.contains(elt));
    }
  });
  xhr.addEventListener("loadend", function () { ended(key, xhr); });
  window.setTimeout(function () {
    var now = taps[key];
    if (now && now.xhr === xhr && overdue(now, Date.now())) {
      xhr.abort();  // (its loadend ends it; an xhr never sent has none)
      ended(key, xhr);
    }
  }, tap.timeout + OVERDUE_MS + 100);
}

function ended(key, xhr) {
  // A tap's request ended: answered, refused, failed, timed out or stopped.
  var tap = taps[key];
  if (!tap || tap.xhr !== xhr) {
    return;  // (ended already)
  }
  tap.xhr = null;
  if (sending === key) {
    sending = null;
  }
  var status = xhr.readyState === 4 ? xhr.status : 0;
  if (status) {
    hear();
  } else {
    deaf = true;
  }
  if (outcome(status) === "failed") {
    failed(tap);
    return;
  }
  forget(tap);
  say("");
  if (tap.toggle) {
    settle(tap.toggle);
  }
  if (tap.orphan) {
    tick();  // its region was drawn again meanwhile: the page asks for what it shows now
  }
  sendWaiting();
  sendKept("after");
}

function tick() {
  if (document.body) {
    document.body.dispatchEvent(new CustomEvent("companion:tick"));
  }
}

function onAnswer(event) {
  // Any request answered (a poll too): the page hears the server. None: it does not.
  var xhr = event.detail.xhr;
  if (xhr && xhr.status) {
    hear();
  } else if (xhr && xhr.readyState === 4) {
    deaf = true;
  }
}

/* A double tap on a toggle is one tap. */
function settle(toggle) {
  // The toggle's tap is answered: its button, drawn again in the other state, ignores taps
  // for SETTLE_MS (<button data-settling> says so meanwhile).
  settled = { toggle: toggle, at: Date.now() };
  markSettling();
}

function markSettling() {
  // <button data-settling> on the settling toggle, wherever it is drawn meanwhile: it takes
  // no tap until the mark goes.
  var now = Date.now();
  var buttons = document.querySelectorAll("button[aria-pressed]:not([data-settling])");
  Array.prototype.forEach.call(buttons, function (button) {
    var left = settleLeft(toggleOf(button), settled, now);
    if (left > 0) {
      button.setAttribute("data-settling", "");
      window.setTimeout(function () { button.removeAttribute("data-settling"); }, left);
    }
  });
}

function onToggleClick(event) {
  // (Capturing, before htmx or the browser submit anything.)
  var button = event.target && event.target.closest
    && event.target.closest("button[aria-pressed]");
  if (!button) {
    return;
  }
  markSettling();  // (a button drawn by a swap that said nothing yet)
  if (button.hasAttribute("data-settling") || settling(toggleOf(button), list())) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}

function wanted(form) {
  // Whether htmx sends this form (hx-post, or boosted), rather than the browser.
  if (!form || form.tagName !== "FORM") {
    return false;
  }
  if (form.hasAttribute("hx-post") || form.hasAttribute("hx-put")
      || form.hasAttribute("hx-patch") || form.hasAttribute("hx-delete")) {
    return true;
  }
  var boost = form.closest("[hx-boost]");
  return Boolean(boost) && boost.getAttribute("hx-boost") === "true"
    && (form.getAttribute("method") || "get").toLowerCase() === "post";
}

function wired(form) {
  // Whether htmx has taken the form in hand (it marks what it processed).
  var data = form["htmx-internal-data"];
  return Boolean(data && data.initHash);
}

function onLateSubmit(event) {
  // A form drawn a moment ago, which htmx has not taken in hand yet (it does once the
  // swap settles): sent now, the browser would post it plainly, with no tap key, and load
  // a whole page. htmx takes it in hand now, and this very submit goes on to htmx's
  // listener on the form (an event calls the listeners its target has when it gets
  // there), as a tap.
  var form = event.target;
  if (!window.htmx || !wanted(form) || wired(form) || !document.body.contains(form)) {
    return;
  }
  window.htmx.process(form);
  if (wired(form)) {
    // (htmx learns a form's button from the click, which came before it took the form.)
    var submitter = event.submitter;
    form["htmx-internal-data"].lastButtonClicked =
      submitter && form.contains(submitter) ? submitter : null;
  }
}

/* A page with a kept tap that hears nothing asks whether the server is there. */
function probe() {
  if (!probeNow(list(), deaf, probing, lastProbe, Date.now()) || !window.fetch
      || !reachable()) {
    return;  // (offline: the browser says when it is back)
  }
  probing = true;
  lastProbe = Date.now();
  window.fetch(HERE_URL, { cache: "no-store", credentials: "same-origin" }).then(
    function () {
      probing = false;
      hear();
    },
    function () { probing = false; });
}

function failed(tap) {
  if (sending === tap.key) {
    sending = null;
  }
  var kept = afterFailure(tap, reachable());
  taps[tap.key] = kept;
  show(kept);
  // The taps waiting behind it wait for the connection too.
  list().forEach(function (other) {
    if (other.state === "waiting") {
      other.state = "unsent";
      other.armed = true;
      show(other);
    }
  });
}

function onSettle() {
  // A swap may have drawn a kept tap's form again (or taken it away): say it there again;
  // or a settling toggle (markSettling).
  count();
  markSettling();
  list().forEach(function (tap) {
    if (tap.state === "unsent" && !tap.mayHaveArrived && !formNow(tap)) {
      forget(tap);
      say(message("stale"));
    } else {
      show(tap);
    }
  });
}

function hear() {
  // The page heard the server (connection.js says so on the line): kept taps may go again;
  // after a spell with no answer at all, each goes by itself again (heardAgain).
  var was = deaf;
  deaf = false;
  if (was) {
    list().forEach(function (tap) { taps[tap.key] = heardAgain(tap, was); });
  }
  sendKept("heard");
}

/** Keys, buttons that say how a tap is doing, and kept taps sent again. */
export function startTaps() {
  document.addEventListener("htmx:confirm", onConfirm);
  window.addEventListener("htmx:configRequest", onConfigRequest, true);
  document.addEventListener("htmx:beforeRequest", onBeforeRequest);
  document.addEventListener("htmx:afterRequest", onAnswer);
  document.addEventListener("htmx:afterSettle", onSettle);
  document.addEventListener("htmx:afterSwap", markSettling);  // (as the toggle is drawn)
  document.addEventListener("htmx:oobAfterSwap", markSettling);
  window.addEventListener("click", onToggleClick, true);
  window.setInterval(probe, PROBE_MS / 4);
  document.addEventListener("companion:heard", hear);
  document.addEventListener("companion:no-connection", function () { say(message("gone")); });
  document.addEventListener("click", function (event) {
    var close = event.target && event.target.closest && event.target.closest(".tap-news-close");
    if (close) {
      say("");
    }
  });
  window.addEventListener("online", function () {
    list().forEach(function (tap) { taps[tap.key] = rearmed(tap); });
    sendKept("online");
  });
  window.addEventListener("offline", function () { deaf = true; });
}

/** A form htmx has not taken in hand yet is sent by htmx all the same, never plainly (run
 * before confirmSubmits, which may still stop the submit). */
export function wireLateForms() {
  window.addEventListener("submit", onLateSubmit, true);
}
