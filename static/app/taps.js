/* The decisions about taps, as plain functions (no DOM, no globals).
 *
 * A tap is a request that changes something (an htmx POST). Its key, when it counts as
 * failed, when it is sent again, when it is stale: taps-page.js wires these to htmx's events
 * and the page's buttons, and tests/js/taps.test.js runs them under `node --test`.
 */

export const TAP_HEADER = "X-Companion-Tap";
export const SEND_TIMEOUT_MS = 12000;  // a tap unanswered this long counts as not sent (kept, resent)
export const AUTO_TRIES = 5;           // failed this often, a tap waits for "Send again" (or online)
export const LEAVE_MS = 1000;          // a tap htmx has not sent in this long is kept (unsent)
export const OVERDUE_MS = 3000;        // its request not ended this long after its timeout: stopped
export const PROBE_MS = 2000;          // a page with a kept tap and no answer asks this often
export const SETTLE_MS = 1000;         // a toggle just answered ignores a tap on it this long
export const HERE_URL = "/taps/here";  // what a probe asks (the server answers 204)
const NOT_FORM = ["csrf_token", "tap"];  // fields that do not make two forms different

export const MESSAGES = {
  sending: "Sending…",
  waiting: "Waiting: your last tap is still on its way…",
  unsent: "Not sent: no connection — will send when you're back",
  stale: "Not sent: the screen moved on before it could go. Look again, and tap once more if it still needs doing.",
  gone: "No connection: that page could not be opened. Try again once you're back.",
};

export function newKey(bytes) {
  // A tap's key: 16 random bytes (crypto.getRandomValues, which plain http has too) as hex.
  var hex = "";
  for (var i = 0; i < bytes.length; i += 1) {
    hex += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
  }
  return hex;
}

export function outcome(status) {
  // What an answer means for a tap: "done" (applied, or answered as a repeat), "refused"
  // (the server said no: its answer says why), or "failed" (no answer, or a proxy or the
  // server's door said "not now": it may or may not have gone in; send it again).
  if (!status) {
    return "failed";
  }
  if (status === 502 || status === 503 || status === 504) {
    return "failed";
  }
  return status >= 400 ? "refused" : "done";
}

export function afterFailure(tap, online) {
  // A tap whose request failed: kept, to be sent again once the page hears the server.
  // It may have reached the server unless the device was offline (then it never left).
  return Object.assign({}, tap, {
    state: "unsent",
    armed: tap.tries < AUTO_TRIES,
    mayHaveArrived: Boolean(tap.mayHaveArrived || (tap.tries > 0 && online)),
  });
}

export function rearmed(tap) {
  // The connection came back (the browser says it is online again): a kept tap goes by
  // itself again, however often it failed while the device was offline.
  return tap.state === "unsent" ? Object.assign({}, tap, { armed: true, tries: 0 }) : tap;
}

export function heardAgain(tap, deaf) {
  // The page hears the server again (an answer, its stream, a probe): after a spell with no
  // answer at all (a dead Wi-Fi, whatever the browser says of its connection) a kept tap
  // goes by itself again, as when the browser says it is back online. An answer heard
  // while the page was not deaf (a 503, say) re-arms nothing: AUTO_TRIES still holds.
  return deaf ? rearmed(tap) : tap;
}

export function overdue(tap, now) {
  // A tap on its way whose request has not ended OVERDUE_MS after its own timeout
  // (tap.timeout, else SEND_TIMEOUT_MS: no answer, error or timeout came): it is stopped
  // and kept, and sent again with its key.
  return tap.state === "sending" && typeof tap.sentAt === "number"
    && now - tap.sentAt > (tap.timeout || SEND_TIMEOUT_MS) + OVERDUE_MS;
}

export function probeNow(taps, deaf, probing, lastProbe, now) {
  // Whether a page asks the server whether it is there: it has a kept tap, its last
  // request found no answer, nothing was heard since, and it is not asking already
  // (every PROBE_MS: a page that follows no table hears nothing by itself).
  return deaf && !probing && now - lastProbe >= PROBE_MS
    && taps.some(function (tap) { return tap.state === "unsent"; });
}

export function settling(toggle, taps) {
  // Whether a tap on a toggle (a tick, a TROMP! call, the dealer's forfeit: one thing
  // switched on or off, `toggle` its name) comes while a tap on the same toggle is on its
  // way: it is the second tap of a double tap, and is ignored.
  return Boolean(toggle) && taps.some(function (tap) {
    return tap.toggle === toggle && tap.state === "sending";
  });
}

export function settleLeft(toggle, settled, now) {
  // How long a toggle still ignores taps (ms, 0: it takes them): SETTLE_MS after a tap on
  // it was answered (settled: {toggle, at}, the last one answered). Its button is drawn
  // again in the other state; a second tap there would undo the first.
  if (!toggle || !settled || settled.toggle !== toggle) {
    return 0;
  }
  return Math.max(0, settled.at + SETTLE_MS - now);
}

export function held(tap, why) {
  // A tap not sent at all: "offline" (kept, sent when back) or "busy" (another tap is on
  // its way: sent after it).
  return Object.assign({}, tap, {
    state: why === "offline" ? "unsent" : "waiting",
    armed: why === "offline",
    mayHaveArrived: false,
  });
}

export function sameFields(saved, now) {
  // Whether a form on the screen now is the one a tap was made on: the same hidden fields
  // (the round it is for, the seat, the step ...), tokens aside.
  var names = {};
  Object.keys(saved).concat(Object.keys(now)).forEach(function (name) {
    if (NOT_FORM.indexOf(name) < 0) {
      names[name] = true;
    }
  });
  return Object.keys(names).every(function (name) { return saved[name] === now[name]; });
}

export function sameValues(one, other) {
  // Whether two taps send the same values (name and value pairs), tokens aside: a tap
  // made again on a kept tap's button with the same values is that tap sent again.
  function kept(pairs) {
    return JSON.stringify((pairs || []).filter(function (pair) {
      return NOT_FORM.indexOf(pair[0]) < 0;
    }).map(function (pair) { return [pair[0], String(pair[1])]; }).sort());
  }
  return kept(one) === kept(other);
}

export function plan(tap, formOnScreen) {
  // What to do with a kept tap when it may be sent: "send" it, or drop it as "stale".
  // One that may have gone in is always sent (the server answers a repeat from the first,
  // and refuses with its own message a tap for a moment that is over); one that never
  // left is stale once its form is no longer on the screen (the table moved on).
  if (tap.mayHaveArrived || formOnScreen) {
    return "send";
  }
  return "stale";
}

export function toResend(taps, sending, online) {
  // The kept taps to send again now that the page hears the server: armed ones, first
  // made first, one at a time (none while a tap is on its way, nor while the device
  // says it is offline: its page may still hear an old stream, but a new request fails).
  if (sending || !online) {
    return [];
  }
  return taps.filter(function (tap) { return tap.armed && tap.state === "unsent"; })
    .sort(function (a, b) { return a.made - b.made; }).slice(0, 1);
}

export function nextWaiting(taps) {
  // The tap waiting behind one on its way, first made first.
  return taps.filter(function (tap) { return tap.state === "waiting"; })
    .sort(function (a, b) { return a.made - b.made; })[0] || null;
}
