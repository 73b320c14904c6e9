// static/recap.js under node's own test runner: how the recap is shared on each browser.
import test from "node:test";
import assert from "node:assert/strict";
import { recapWays, shareWay } from "../../static/recap.js";

const png = { name: "recap.png", type: "image/png" };
const clipboard = { writeText: async () => {} };

test("a browser that shares files gets the picture as a file", () => {
  const nav = { share: async () => {}, canShare: (data) => Boolean(data.files) };
  assert.equal(shareWay(nav, png), "files");
  assert.equal(shareWay(nav, png, true), "files");
});

test("a browser that shares but takes no files shares the text", () => {
  assert.equal(shareWay({ share: async () => {}, canShare: () => false }, png), "text");
  assert.equal(shareWay({ share: async () => {} }, png), "text");
  assert.equal(shareWay({ share: async () => {}, canShare: () => true }, null), "text");
});

test("a browser without the Web Share API copies the text", () => {
  assert.equal(shareWay({}, png), "copy");
  assert.equal(shareWay({ canShare: () => true }, png), "copy");
});

test("a secure page offers the share sheet and the clipboard where the browser has them", () => {
  assert.deepEqual(recapWays({ share: async () => {}, clipboard }, true),
                   { share: true, copy: true });
  assert.deepEqual(recapWays({ clipboard }, true), { share: false, copy: true });
  assert.deepEqual(recapWays({ share: async () => {} }, true), { share: true, copy: false });
  assert.deepEqual(recapWays({ clipboard: {} }, true), { share: false, copy: false });
});

test("a page over plain http on the LAN offers neither: only the downloads", () => {
  // A browser that still lists them on an insecure page (an old one, a stub) is not believed.
  const nav = { share: async () => {}, canShare: () => true, clipboard };
  assert.deepEqual(recapWays(nav, false), { share: false, copy: false });
  assert.deepEqual(recapWays({}, false), { share: false, copy: false });
  assert.equal(shareWay(nav, png, false), "copy");
});

test("a browser that does not say whether the page is secure goes by what it has", () => {
  assert.deepEqual(recapWays({ share: async () => {}, clipboard }, undefined),
                   { share: true, copy: true });
  assert.deepEqual(recapWays({}, undefined), { share: false, copy: false });
});
