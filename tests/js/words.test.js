// static/app/words.js: the front end's own words, the page's when it gives them, else English.
import assert from "node:assert/strict";
import test from "node:test";

import { fill, word } from "../../static/app/words.js";

function withPage(json, run) {
  globalThis.document = {
    getElementById: (id) => (id === "words" && json !== null ? { textContent: json } : null),
  };
  try {
    run();
  } finally {
    delete globalThis.document;
  }
}

test("a word is its English where there is no page, or the page gives none", () => {
  assert.equal(word("tap.again", "Send again"), "Send again");
  withPage(null, () => assert.equal(word("tap.again", "Send again"), "Send again"));
  withPage("{not json", () => assert.equal(word("tap.again", "Send again"), "Send again"));
  withPage('{"seat": "Place {seat}"}', () => assert.equal(word("tap.again", "Send again"), "Send again"));
});

test("a word the page gives is said, its {names} filled in", () => {
  withPage('{"seat": "Place {seat}", "named_seat": "{name} (place {seat})"}', () => {
    assert.equal(word("seat", "Seat {seat}", { seat: 3 }), "Place 3");
    assert.equal(word("named_seat", "{name} (seat {seat})", { name: "Zoë", seat: 2 }),
                 "Zoë (place 2)");
  });
  assert.equal(word("seat", "Seat {seat}", { seat: 3 }), "Seat 3");
});

test("fill leaves a name it is not given as it is", () => {
  assert.equal(fill("{ticked} of {size}", { ticked: 2 }), "2 of {size}");
  assert.equal(fill("{name} wins", { name: "$&{x}" }), "$&{x} wins");
});
