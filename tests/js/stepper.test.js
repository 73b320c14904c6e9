// The decisions of static/app/stepper.js, without a browser: `node --test tests/js/`.
import assert from "node:assert/strict";
import test from "node:test";

import { readWhole, stepped } from "../../static/app/stepper.js";

test("a typed bid reads as a whole number, or not at all", () => {
  assert.equal(readWhole("12"), 12);
  assert.equal(readWhole(" 7 "), 7);
  for (const text of ["", "  ", "-3", "−3", "7.5", "seven", "1e3", null, undefined]) {
    assert.equal(readWhole(text), null, String(text));
  }
});

test("a step goes from what is typed, never below the smallest bid", () => {
  assert.equal(stepped("8", 5, 8, 8), 13);
  assert.equal(stepped("9", -1, 8, 9), 8);
  assert.equal(stepped("8", -1, 8, 8), 8, "not below the minimum");
  assert.equal(stepped("3", 1, 8, 8), 8, "a typed bid below the minimum steps up to it");
  assert.equal(stepped("", 1, 8, 8), 9, "nothing typed: from the stepper's value");
  assert.equal(stepped("-3", 1, 8, 10), 11, "unreadable: from the stepper's value");
  assert.equal(stepped("x", 1, 8, null), 9, "no value at all: from the minimum");
});
