// The decisions of static/app/taps.js, without a browser: `node --test tests/js/`.
import assert from "node:assert/strict";
import test from "node:test";

import * as taps from "../../static/app/taps.js";

function tap(fields) {
  return Object.assign({ key: "k", made: 1, state: "sending", tries: 1, armed: false,
                         mayHaveArrived: false }, fields);
}

test("a key is 128 random bits as 32 hex digits", () => {
  const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
  assert.equal(taps.newKey(bytes), "00112233445566778899aabbccddeeff");
  assert.match(taps.newKey(new Uint8Array(16)), /^0{32}$/);
});

test("an answer is done, refused, or a failure to send again", () => {
  assert.equal(taps.outcome(200), "done");
  assert.equal(taps.outcome(204), "done");
  assert.equal(taps.outcome(303), "done");
  assert.equal(taps.outcome(409), "refused", "the server said no: its answer says why");
  assert.equal(taps.outcome(400), "refused");
  assert.equal(taps.outcome(500), "refused", "the server's error page says so");
  assert.equal(taps.outcome(0), "failed", "no answer at all");
  for (const status of [502, 503, 504]) {
    assert.equal(taps.outcome(status), "failed", `${status}: a proxy or the door said not now`);
  }
});

test("a tap that failed online may have gone in; one that failed offline never left", () => {
  const online = taps.afterFailure(tap({ tries: 1 }), true);
  assert.equal(online.state, "unsent");
  assert.equal(online.mayHaveArrived, true);
  assert.equal(online.armed, true, "sent again by itself once the page hears the server");
  assert.equal(taps.afterFailure(tap({ tries: 1 }), false).mayHaveArrived, false);
  // Once it may have gone in, it stays so (a later failure offline does not undo that).
  assert.equal(taps.afterFailure(tap({ tries: 2, mayHaveArrived: true }), false)
    .mayHaveArrived, true);
  // Never sent (held at the tap): it cannot have arrived.
  assert.equal(taps.afterFailure(tap({ tries: 0 }), true).mayHaveArrived, false);
});

test("a tap is sent again by itself a few times at most, then waits for Send again", () => {
  assert.equal(taps.afterFailure(tap({ tries: taps.AUTO_TRIES - 1 }), true).armed, true);
  assert.equal(taps.afterFailure(tap({ tries: taps.AUTO_TRIES }), true).armed, false);
});

test("back online, a kept tap goes by itself again, however often it failed offline", () => {
  const tired = taps.afterFailure(tap({ tries: taps.AUTO_TRIES }), false);
  assert.equal(tired.armed, false);
  const back = taps.rearmed(tired);
  assert.deepEqual([back.armed, back.tries], [true, 0]);
  const answered = tap({ state: "sending" });
  assert.equal(taps.rearmed(answered), answered, "only kept taps");
});

test("a tap made offline is kept, armed; one made while another is on its way waits", () => {
  const offline = taps.held(tap({ tries: 0 }), "offline");
  assert.deepEqual([offline.state, offline.armed, offline.mayHaveArrived],
                   ["unsent", true, false]);
  const busy = taps.held(tap({ tries: 0 }), "busy");
  assert.deepEqual([busy.state, busy.armed], ["waiting", false]);
});

test("the kept taps are sent again one at a time, first made first, never during a tap", () => {
  const kept = [tap({ key: "b", made: 2, state: "unsent", armed: true }),
                tap({ key: "a", made: 1, state: "unsent", armed: true }),
                tap({ key: "c", made: 0, state: "unsent", armed: false }),
                tap({ key: "d", made: 0, state: "waiting" })];
  assert.deepEqual(taps.toResend(kept, false, true).map((t) => t.key), ["a"]);
  assert.deepEqual(taps.toResend(kept, true, true), [], "not while a tap is on its way");
  assert.deepEqual(taps.toResend([kept[2]], false, true), [], "disarmed: Send again only");
  assert.deepEqual(taps.toResend(kept, false, false), [],
                   "not while the device says it is offline (an old stream may still speak)");
  assert.equal(taps.nextWaiting(kept).key, "d");
  assert.equal(taps.nextWaiting([kept[0]]), null);
});

test("a kept tap is stale once its form is gone, unless it may have gone in", () => {
  assert.equal(taps.plan(tap({ mayHaveArrived: false }), true), "send");
  assert.equal(taps.plan(tap({ mayHaveArrived: false }), false), "stale",
               "the table moved on while it was never sent: dropped, and the page says so");
  assert.equal(taps.plan(tap({ mayHaveArrived: true }), false), "send",
               "the server answers a repeat from the first, or refuses it with a reason");
});

test("a form on the screen is the tap's when its hidden fields are the same, tokens aside", () => {
  const saved = { round: "2", from: "seat", csrf_token: "old", tap: "x" };
  assert.equal(taps.sameFields(saved, { round: "2", from: "seat", csrf_token: "new" }), true);
  assert.equal(taps.sameFields(saved, { round: "3", from: "seat" }), false,
               "another round: the table moved on");
  assert.equal(taps.sameFields(saved, { round: "2" }), false);
  assert.equal(taps.sameFields(saved, { round: "2", from: "seat", stage: "1" }), false);
});

test("a tap made again with the same values is the kept one, tokens aside", () => {
  const kept = [["csrf_token", "old"], ["round", "1"], ["verb", "bet"], ["amount", "10"]];
  assert.equal(taps.sameValues(kept, [["amount", "10"], ["verb", "bet"], ["round", "1"],
                                      ["csrf_token", "new"], ["tap", "x"]]), true);
  assert.equal(taps.sameValues(kept, [["round", "1"], ["verb", "bet"], ["amount", "25"]]),
               false, "another amount is another tap");
  assert.equal(taps.sameValues(kept, [["round", "1"], ["verb", "bet"]]), false);
});

test("what the button says", () => {
  assert.equal(taps.MESSAGES.unsent, "Not sent: no connection — will send when you're back");
  assert.equal(taps.MESSAGES.sending, "Sending…");
});

test("heard again after a spell with no answer, a kept tap goes by itself again", () => {
  const tired = taps.afterFailure(tap({ tries: taps.AUTO_TRIES }), true);
  assert.equal(tired.armed, false, "failed often with answers: it waits for Send again");
  const back = taps.heardAgain(tired, true);
  assert.deepEqual([back.state, back.armed, back.tries], ["unsent", true, 0],
                   "the Wi-Fi was dead (no answer at all), and is back: it goes");
  assert.equal(taps.heardAgain(tired, false), tired,
               "an answer heard while the page was not deaf (a 503) re-arms nothing");
  const answered = tap({ state: "sending" });
  assert.equal(taps.heardAgain(answered, true), answered, "only kept taps");
});

test("a tap whose request never ends is stopped after htmx's own timeout and a margin", () => {
  const sent = tap({ state: "sending", sentAt: 1000 });
  const bound = taps.SEND_TIMEOUT_MS + taps.OVERDUE_MS;
  assert.equal(taps.overdue(sent, 1000 + bound), false, "htmx's timeout ends it first");
  assert.equal(taps.overdue(sent, 1001 + bound), true);
  const patient = tap({ state: "sending", sentAt: 1000, timeout: 60000 });
  assert.equal(taps.overdue(patient, 1000 + 60000 + taps.OVERDUE_MS), false,
               "a request given longer (htmx.config.timeout) is waited for longer");
  assert.equal(taps.overdue(patient, 1001 + 60000 + taps.OVERDUE_MS), true);
  assert.equal(taps.overdue(tap({ state: "unsent", sentAt: 0 }), 1e12), false, "kept already");
  assert.equal(taps.overdue(tap({ state: "sending" }), 1e12), false, "never left: LEAVE_MS");
});

test("a page with a kept tap and no answer asks whether the server is there, now and then", () => {
  const kept = [tap({ state: "unsent" })];
  const now = 10 * taps.PROBE_MS;
  assert.equal(taps.probeNow(kept, true, false, 0, now), true);
  assert.equal(taps.probeNow(kept, false, false, 0, now), false, "it hears the server");
  assert.equal(taps.probeNow(kept, true, true, 0, now), false, "it is asking already");
  assert.equal(taps.probeNow(kept, true, false, now - taps.PROBE_MS + 1, now), false,
               "it asked a moment ago");
  assert.equal(taps.probeNow(kept, true, false, now - taps.PROBE_MS, now), true);
  assert.equal(taps.probeNow([tap({ state: "sending" })], true, false, 0, now), false,
               "no kept tap: nothing to ask for");
});

test("a toggle takes no second tap while its first is on its way, nor just after", () => {
  const onItsWay = [tap({ toggle: "/tick deal:0", state: "sending" })];
  assert.equal(taps.settling("/tick deal:0", onItsWay), true);
  assert.equal(taps.settling("/tick deal:1", onItsWay), false, "another step takes taps");
  assert.equal(taps.settling(null, onItsWay), false, "not a toggle");
  assert.equal(taps.settling("/tick deal:0", [tap({ toggle: "/tick deal:0",
                                                    state: "unsent" })]), false,
               "a kept tap: tapped again, it is sent again (the same tap)");
  const settled = { toggle: "/tick deal:0", at: 5000 };
  assert.equal(taps.settleLeft("/tick deal:0", settled, 5000), taps.SETTLE_MS);
  assert.equal(taps.settleLeft("/tick deal:0", settled, 5000 + taps.SETTLE_MS - 1), 1);
  assert.equal(taps.settleLeft("/tick deal:0", settled, 5000 + taps.SETTLE_MS), 0);
  assert.equal(taps.settleLeft("/tick deal:1", settled, 5000), 0, "another step");
  assert.equal(taps.settleLeft("/tick deal:0", null, 5000), 0, "nothing answered yet");
  assert.ok(taps.SETTLE_MS >= 600, "a double tap 600 ms apart is one tap");
});
