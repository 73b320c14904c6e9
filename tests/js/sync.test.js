// The live-sync protocol of static/app/sync.js, without a browser: `node --test tests/js/`.
import assert from "node:assert/strict";
import test from "node:test";

import * as sync from "../../static/app/sync.js";

const PULSE = "/t/ABCD/pulse?v=7&s=3";
const EVENTS = "/t/ABCD/events";

test("an answer's version is its first data-version; none is null", () => {
  assert.equal(sync.answerVersion('<div id="pulse" data-version="12"></div>'), 12);
  assert.equal(sync.answerVersion('<section data-version="9"><p data-version="3">'), 9);
  assert.equal(sync.answerVersion("<p>Saved</p>"), null);
  assert.equal(sync.answerVersion(""), null);
});

test("an answer older than what the page shows is dropped; the same or newer is swapped in", () => {
  assert.equal(sync.staleAnswer(6, 7), true, "a poll sent before the change the page shows");
  assert.equal(sync.staleAnswer(7, 7), false);
  assert.equal(sync.staleAnswer(8, 7), false);
  assert.equal(sync.staleAnswer(null, 7), false, "an answer with no version (a message) goes in");
});

test("a page is behind when its stream said a newer version than it shows", () => {
  assert.equal(sync.behind(7, 8), true);
  assert.equal(sync.behind(8, 8), false);
  assert.equal(sync.behind(9, 8), false);
  assert.equal(sync.behind(7, null), false, "a stream that said nothing yet");
  assert.equal(sync.behind(null, 8), false, "a page without a pulse");
  assert.equal(sync.behind(NaN, 8), false, "a pulse without a version");
});

test("a version the stream says is news when the page's pulse shows another", () => {
  assert.equal(sync.isNews("7", "8"), true);
  assert.equal(sync.isNews("8", "8"), false);
  assert.equal(sync.isNews(null, "8"), false, "no pulse: nothing to poll with");
});

test("a pushed pulse message is the pulse it answers, then the answer", () => {
  const answer = '<div id="pulse" hx-get="/t/ABCD/pulse?v=8" data-version="8"></div>\n<p>x</p>';
  const pushed = sync.splitPulse(PULSE + "\n" + answer);
  assert.deepEqual(pushed, { answers: PULSE, answer, version: 8 });
});

test("a pushed answer is swapped in when the page shows the pulse it answers", () => {
  const page = { pulse: PULSE, tapping: false, canSwap: true, behind: true };
  const pushed = { answers: PULSE, version: 8 };
  assert.equal(sync.pushAction(page, pushed), "swap");
  // The page shows another pulse (it moved on, or an answer came between): it polls.
  assert.equal(sync.pushAction(page, { answers: "/t/ABCD/pulse?v=6", version: 8 }), "poll");
  assert.equal(sync.pushAction({ ...page, behind: false },
                               { answers: "/t/ABCD/pulse?v=6", version: 8 }), "nothing",
               "a page that already shows that version has nothing to catch up");
  assert.equal(sync.pushAction({ ...page, canSwap: false }, pushed), "poll",
               "htmx cannot swap it (not loaded yet): a poll brings the same");
  assert.equal(sync.pushAction({ ...page, pulse: null }, pushed), "nothing");
  assert.equal(sync.pushAction(page, { answers: PULSE, version: null }), "nothing");
});

test("a tap and a push crossing: the push waits, the tap's answer comes, then the page chases", () => {
  // A phone taps at version 7; the stream pushes version 8 (another phone) while the tap
  // is under way. Swapping the push in would cross the tap: the page waits instead.
  const page = { pulse: PULSE, tapping: true, canSwap: true, behind: true };
  assert.equal(sync.pushAction(page, { answers: PULSE, version: 8 }), "wait");
  // The tap's answer is in. It brought version 9 (its own change on top of 8): the page is
  // not behind, nothing more to ask.
  let next = sync.chase({ successful: true, behind: sync.behind(9, 8), fromPulse: false,
                          status: 200 }, null, 8);
  assert.deepEqual(next, { poll: false, chased: null });
  // Had it brought only 7 (read before the other phone's change), the page polls at once.
  next = sync.chase({ successful: true, behind: sync.behind(7, 8), fromPulse: false,
                      status: 200 }, null, 8);
  assert.deepEqual(next, { poll: true, chased: null });
});

test("a pulse poll that found nothing new is chased once per version, not in a loop", () => {
  const found = { successful: true, behind: true, fromPulse: true, status: 204 };
  let next = sync.chase(found, null, 8);
  assert.deepEqual(next, { poll: true, chased: 8 });
  next = sync.chase(found, next.chased, 8);
  assert.deepEqual(next, { poll: false, chased: 8 }, "the TICK_MS timer polls from now on");
  next = sync.chase(found, next.chased, 9);
  assert.deepEqual(next, { poll: true, chased: 9 }, "a newer version is chased again");
  assert.equal(sync.chase({ ...found, successful: false }, null, 8).poll, false,
               "a failed request is taps-page.js's business");
  assert.equal(sync.chase({ ...found, behind: false }, null, 8).poll, false);
});

test("a page holds its table's stream only while it is shown", () => {
  const page = { events: EVENTS, answers: PULSE };
  const shown = sync.streamFor(page, true, true, 1000, 0);
  assert.deepEqual(shown, { url: EVENTS, answers: PULSE, key: EVENTS + " /t/ABCD/pulse" });
  // A phone asleep (the page hidden): no stream; shown again, the same stream again.
  assert.equal(sync.streamFor(page, true, false, 1000, 0).key, "");
  assert.equal(sync.streamFor(page, true, true, 2000, 0).key, shown.key);
  // New stamps on the same pulse: the same stream. Another page of the table: another.
  assert.equal(sync.streamFor({ events: EVENTS, answers: "/t/ABCD/pulse?v=9" }, true, true,
                              1000, 0).key, shown.key);
  assert.notEqual(sync.streamFor({ events: EVENTS, answers: "/t/ABCD/seat/2/pulse?v=9" }, true,
                                 true, 1000, 0).key, shown.key);
  assert.equal(sync.streamFor(null, true, true, 1000, 0).key, "", "a page without a pulse");
  assert.equal(sync.streamFor(page, false, true, 1000, 0).key, "", "no EventSource");
  assert.equal(sync.streamFor({ events: null, answers: PULSE }, true, true, 1000, 0).key, "");
});

test("a server that refused a stream is asked again only after REFUSED_MS", () => {
  const page = { events: EVENTS, answers: PULSE };
  const refusedUntil = 1000 + sync.REFUSED_MS;
  assert.equal(sync.streamFor(page, true, true, refusedUntil - 1, refusedUntil).key, "");
  assert.notEqual(sync.streamFor(page, true, true, refusedUntil, refusedUntil).key, "");
});

test("a stream opens with the page's id and the pulse it shows", () => {
  assert.equal(sync.streamUrl(EVENTS, "abc", PULSE),
               EVENTS + "?page=abc&pulse=" + encodeURIComponent(PULSE));
  assert.equal(sync.streamUrl(EVENTS + "?x=1", "abc", ""), EVENTS + "?x=1&page=abc&pulse=");
  const id = sync.newPageId(0.123456789, 1700000000000);
  assert.match(id, /^[0-9a-z]{1,16}$/);
  assert.notEqual(id, sync.newPageId(0.987654321, 1700000000000));
});

test("a page hears its stream once it spoke, and until it is quiet for QUIET_MS", () => {
  let stream = sync.opened(1000);
  assert.equal(sync.hearing(stream, 1000), false, "opened, not yet spoken: the page polls");
  stream = sync.spoke(stream, 2000, 8);
  assert.deepEqual(stream, { spoke: true, latest: 8, heard: 2000 });
  assert.equal(sync.hearing(stream, 2000 + sync.QUIET_MS - 1), true);
  assert.equal(sync.hearing(stream, 2000 + sync.QUIET_MS), false);
  stream = sync.spoke(stream, 3000, null);
  assert.equal(stream.latest, 8, "a message with no version keeps the latest one said");
  assert.equal(sync.hearing(sync.faltered(stream), 3000), false,
               "an error: the page polls until it speaks again");
  assert.equal(sync.hearing(null, 3000), false, "no stream");
});

test("a stream silent past QUIET_MS is opened again", () => {
  const stream = sync.spoke(sync.opened(0), 1000, 3);
  assert.equal(sync.tooQuiet(stream, 1000 + sync.QUIET_MS), false);
  assert.equal(sync.tooQuiet(stream, 1001 + sync.QUIET_MS), true);
  assert.equal(sync.tooQuiet(null, 1e12), false);
});

test("the timer polls a shown page that does not hear its stream, or is behind it", () => {
  assert.equal(sync.shouldPoll(true, false, false), true, "no stream: poll every TICK_MS");
  assert.equal(sync.shouldPoll(true, true, false), false, "the stream says when to poll");
  assert.equal(sync.shouldPoll(true, true, true), true, "behind what the stream said");
  assert.equal(sync.shouldPoll(false, false, true), false, "a hidden page never polls");
  assert.equal(sync.TICK_MS, 2000);
});

test("only taps still under way count (an aborted or answered one does not)", () => {
  const requests = [{ readyState: 0 }, { readyState: 1 }, { readyState: 3 }, { readyState: 4 }];
  assert.deepEqual(sync.underWay(requests), [{ readyState: 1 }, { readyState: 3 }]);
});

test("a phone back from sleep catches up at once: lost, then live, polls", () => {
  const asleep = { now: 100000, online: true, following: true, streaming: false,
                   heard: 100000 - 60000, since: 0 };
  assert.equal(sync.connection(asleep), "lost", "it says Reconnecting…");
  const awake = { ...asleep, heard: 100000 };
  assert.equal(sync.connection(awake), "live");
  assert.equal(sync.caughtUp("lost", "live"), true);
  assert.equal(sync.caughtUp("live", "live"), false);
  assert.equal(sync.caughtUp("idle", "live"), false);
});

test("a page that follows a table is lost after a few seconds without an answer", () => {
  const page = { now: 100000, online: true, following: true, streaming: false,
                 heard: 100000 - sync.LOST_MS, since: 0 };
  assert.equal(sync.connection(page), "live");
  assert.equal(sync.connection(Object.assign({}, page, { heard: page.heard - 1 })), "lost");
  // It stopped hearing its stream a moment ago: the few seconds start then.
  assert.equal(sync.connection(Object.assign({}, page, { heard: 0, since: 99000 })), "live");
});

test("a page that hears its stream waits for the heartbeat before it counts as lost", () => {
  const limit = sync.HEARTBEAT_MS + sync.STREAM_GRACE_MS;
  const page = { now: 100000, online: true, following: true, streaming: true,
                 heard: 100000 - limit, since: 0 };
  assert.equal(sync.connection(page), "live", "a quiet table is not a lost one");
  assert.equal(sync.connection(Object.assign({}, page, { heard: page.heard - 1 })), "lost");
});

test("a stream silent past its heartbeat makes the page ask with a poll first", () => {
  const limit = sync.HEARTBEAT_MS + sync.STREAM_GRACE_MS;
  const page = { now: 100000, streaming: true, heard: 100000 - limit, since: 0 };
  assert.equal(sync.silent(page), false);
  assert.equal(sync.silent(Object.assign({}, page, { heard: page.heard - 1 })), true);
  assert.equal(sync.silent(Object.assign({}, page, { streaming: false, heard: 0 })), false,
               "a page that polls asks every 2 s anyway");
});

test("offline is lost at once; a page that follows nothing is never lost", () => {
  const page = { now: 5, online: false, following: true, streaming: true, heard: 5, since: 5 };
  assert.equal(sync.connection(page), "lost");
  assert.equal(sync.connection(Object.assign({}, page, { following: false })), "idle");
});


test("a blip is marked within a few seconds: the heartbeat is short, and the page asks", () => {
  assert.ok(sync.HEARTBEAT_MS + sync.STREAM_GRACE_MS + 1000 <= 5000,
            "a silent stream is marked within 5 s (the page looks twice a second)");
  assert.ok(sync.LOST_MS + 1000 <= 5000, "a page that polls: within 5 s too");
  assert.ok(sync.LOST_MS > sync.TICK_MS, "one poll's answer may be a little late");
  const limit = sync.HEARTBEAT_MS + sync.STREAM_GRACE_MS;
  const page = { now: 100000, online: true, following: true, streaming: true,
                 heard: 100000 - limit - 1, since: 0 };
  assert.equal(sync.silent(page), true);
  assert.equal(sync.connection(page), "lost", "marked as it asks, not a poll later");
  assert.equal(sync.askNow(true, null, 100000), true, "it asks at once");
  assert.equal(sync.askNow(true, 100000 - sync.ASK_EVERY_MS + 1, 100000), false);
  assert.equal(sync.askNow(true, 100000 - sync.ASK_EVERY_MS, 100000), true, "and again");
  assert.equal(sync.askNow(false, null, 100000), false, "a page that hears asks nothing");
});

test("a page asked for before the page shown never replaces it; pages in order all show", () => {
  const pages = sync.pageOrder();
  const dealer = pages.ask();
  const start = pages.ask();
  assert.equal(pages.mayShow(start), true, "the start page answers first");
  assert.equal(pages.mayShow(dealer), false, "the dealer tap's page, asked for before it");
  const next = pages.ask();
  assert.equal(pages.mayShow(next), true);

  const inOrder = sync.pageOrder();
  const first = inOrder.ask();
  const second = inOrder.ask();
  assert.equal(inOrder.mayShow(first), true);
  assert.equal(inOrder.mayShow(second), true, "answers in the order asked all show");
});
