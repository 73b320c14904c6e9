// static/app/slip.js under node's own test runner: `node --test tests/js/`.
// tweetnacl comes from node_modules (npm ci), the same file as static/vendor/'s copy.
import assert from "node:assert/strict";
import test from "node:test";
import nacl from "tweetnacl/nacl-fast.min.js";

import * as slip from "../../static/app/slip.js";

const BLOB_BYTES = 32 + 24 + slip.PLAIN_BYTES + 16; // companion.store.sealed.BLOB_BYTES

function server() {
  const pair = nacl.box.keyPair();
  return {pair, key: slip.toBase64url(pair.publicKey)};
}

function openSealed(pair, sealed) {
  const blob = slip.fromBase64url(sealed);
  const plain = nacl.box.open(blob.subarray(56), blob.subarray(32, 56), blob.subarray(0, 32),
                              pair.secretKey);
  assert.ok(plain, "the sealing's private key opens the slip");
  return new TextDecoder().decode(plain);
}

test("the plaintext names the sealing, the chooser and the choice, padded with spaces", () => {
  const plain = slip.plaintext(7, "Rob", "Zoë");
  assert.equal(plain.length, slip.PLAIN_BYTES);
  const text = new TextDecoder().decode(plain);
  assert.deepEqual(JSON.parse(text), [7, "Rob", "Zoë"]);
  assert.match(text, /^\[7,"Rob","Zoë"\] +$/);
});

test("a slip opens with the sealing's private key and says what was sealed", () => {
  const {pair, key} = server();
  const sealed = slip.seal(nacl, key, 12, "Emily", "Nick");
  assert.deepEqual(JSON.parse(openSealed(pair, sealed)), [12, "Emily", "Nick"]);
  // Another key opens nothing.
  const blob = slip.fromBase64url(sealed);
  assert.equal(nacl.box.open(blob.subarray(56), blob.subarray(32, 56), blob.subarray(0, 32),
                             nacl.box.keyPair().secretKey), null);
});

test("every sealed slip has the same size, whoever it names, and needs no escaping", () => {
  const {key} = server();
  const sizes = new Set();
  for (const name of ["Al", "Rob", "Emily", "Bartholomew-Maximilian", "Zoë", ""]) {
    const sealed = slip.seal(nacl, key, 3, "Sam", name);
    assert.match(sealed, /^[A-Za-z0-9_-]+$/, "nothing a form body escapes");
    assert.equal(slip.fromBase64url(sealed).length, BLOB_BYTES);
    sizes.add(sealed.length);
  }
  assert.deepEqual([...sizes], [Math.ceil(BLOB_BYTES * 4 / 3)]);
  assert.notEqual(slip.seal(nacl, key, 3, "Sam", "Rob"), slip.seal(nacl, key, 3, "Sam", "Rob"),
                  "a key pair and a nonce of its own each time");
});

test("a choice too long for a slip is refused, not cut", () => {
  const {key} = server();
  assert.throws(() => slip.seal(nacl, key, 1, "Rob", "x".repeat(slip.PLAIN_BYTES)), RangeError);
});

test("the server's padding comes off the radio value", () => {
  assert.equal(slip.unpad("Rob ......"), "Rob");
  assert.equal(slip.unpad("Jr. ...."), "Jr.");
  assert.equal(slip.unpad("a . ...."), "a .");
  assert.equal(slip.unpad("Emily"), "Emily");
});

// A form as sealForm sees it: its radio buttons, its fields, its attributes.
function fakeForm(attributes, radios) {
  const fields = [];
  const form = {
    getAttribute: (name) => attributes[name],
    querySelectorAll: () => radios,
    querySelector: (selector) => selector.includes('name="sealed"')
      ? fields.find((f) => f.name === "sealed") || null
      : radios.find((r) => r.name === "choice" && !r.disabled) || null,
    ownerDocument: {createElement: () => ({})},
    appendChild: (field) => fields.push(field),
  };
  return {form, fields};
}

function radio(name, value, checked = false) {
  const attributes = {};
  return {type: "radio", name, value, checked, attributes,
          setAttribute: (k, v) => { attributes[k] = v; }};
}

test("a slip form sends the sealed choice and none of its radio buttons", () => {
  const {pair, key} = server();
  const radios = [radio("suit", "H", true), radio("choice", "Rob ...."),
                  radio("choice", "Emily ..", true)];
  const {form, fields} = fakeForm({"data-seal-key": key, "data-sealing": "5",
                                   "data-chooser": "Sam"}, radios);
  assert.equal(slip.sealForm(nacl, form), true);
  assert.equal(fields.length, 1);
  assert.equal(fields[0].type, "hidden");
  assert.deepEqual(JSON.parse(openSealed(pair, fields[0].value)), [5, "Sam", "Emily"]);
  for (const button of radios) {
    assert.equal(button.attributes.form, "companion-unsent", "taken out of the form");
  }
});

test("a slip form with nothing picked is sent as it is: no choice, nothing sealed", () => {
  const {key} = server();
  const radios = [radio("choice", "Rob ...."), radio("choice", "Emily ..")];
  const {form, fields} = fakeForm({"data-seal-key": key, "data-sealing": "5",
                                   "data-chooser": "Sam"}, radios);
  assert.equal(slip.sealForm(nacl, form), true);
  assert.equal(fields.length, 0);
  assert.deepEqual(radios.map((r) => r.attributes.form), [undefined, undefined]);
});

test("a slip that is in says back what this device laid, and nothing when it has not", () => {
  assert.equal(slip.remindText("You laid {}.", "XXI"), "You laid XXI.");
  assert.equal(slip.remindText("You laid {}.", null), "");
  assert.equal(slip.remindText("You laid {}.", ""), "");
});
