// static/recap.js under node's own test runner: how the recap is shared on each browser.
import test from "node:test";
import assert from "node:assert/strict";
import { shareWay } from "../../static/recap.js";

const png = { name: "recap.png", type: "image/png" };

test("a browser that shares files gets the picture as a file", () => {
  const nav = { share: async () => {}, canShare: (data) => Boolean(data.files) };
  assert.equal(shareWay(nav, png), "files");
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
