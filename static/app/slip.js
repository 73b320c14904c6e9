/* The companion: a slip is sealed on the device, just before it is sent.
 *
 * A slip form (a secret ballot's slip, a Trefeltromp card laid face down, the
 * tablet's private slip) carries the sealing's public key (data-seal-key), its id
 * (data-sealing) and the chooser (data-chooser). When the form is sent (by htmx or
 * as a plain form), this script, listening before anything else, seals the picked
 * choice with tweetnacl (static/vendor/nacl-fast.min.js): a key pair of its own,
 * nacl.box to the sealing's public key. The plaintext names the sealing and the
 * chooser as well as the choice, as JSON padded with spaces to PLAIN_BYTES, so every
 * sealed slip is as long as every other, and a captured one cannot be dropped as
 * another chooser's or another sealing's. The form then sends the sealed slip
 * (field "sealed", base64url: no character of it is escaped in a form body) and
 * none of its radio buttons (they are taken out of the form, "form" attribute):
 * the choice never leaves the device in clear.
 *
 * Without JavaScript the form sends the choice in clear (the slip says so), in a
 * value padded by the server so that the body has the same size whatever it names.
 *
 * A slip form with data-remind (a card laid face down: not a secret vote) also keeps what
 * it sealed in this tab's session storage, and its "in" slip says it back (data-remind-key):
 * only the device that sealed it knows.
 *
 * Run by the browser (boot.js starts it; base.html loads nacl-fast.min.js first, as a
 * plain deferred script that sets window.nacl) and by node's test runner
 * (tests/js/slip.test.js), which imports it with tweetnacl from node_modules.
 */

export const PLAIN_BYTES = 512; // companion.store.sealed.PLAIN_BYTES
const NONCE_BYTES = 24;
const UNSENT = "companion-unsent"; // the id of no form: inputs that name it are sent by none

/** The choice without the server's padding (a space and dots: see vote.py). */
export function unpad(value) {
  return value.replace(/ \.*$/, "");
}

/** Bytes as base64url without padding (the server's encode_blob). */
export function toBase64url(bytes) {
  var text = "";
  for (var i = 0; i < bytes.length; i++) {
    text += String.fromCharCode(bytes[i]);
  }
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** base64url (padded or not) as bytes. */
export function fromBase64url(text) {
  var plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  var bytes = new Uint8Array(plain.length);
  for (var i = 0; i < plain.length; i++) {
    bytes[i] = plain.charCodeAt(i);
  }
  return bytes;
}

/** What a slip seals: [sealing, chooser, choice] as JSON, padded with spaces. */
export function plaintext(sealing, chooser, choice) {
  var data = new TextEncoder().encode(JSON.stringify([sealing, chooser, choice]));
  if (data.length > PLAIN_BYTES) {
    throw new RangeError("That choice is too long.");
  }
  var padded = new Uint8Array(PLAIN_BYTES).fill(0x20);
  padded.set(data);
  return padded;
}

/** The sealed slip (base64url): the device's own public key, the nonce, the box. */
export function seal(nacl, publicKey, sealing, chooser, choice) {
  var own = nacl.box.keyPair();
  var nonce = nacl.randomBytes(NONCE_BYTES);
  var boxed = nacl.box(plaintext(sealing, chooser, choice), nonce,
                       fromBase64url(publicKey), own.secretKey);
  own.secretKey.fill(0);
  var blob = new Uint8Array(own.publicKey.length + NONCE_BYTES + boxed.length);
  blob.set(own.publicKey, 0);
  blob.set(nonce, own.publicKey.length);
  blob.set(boxed, own.publicKey.length + NONCE_BYTES);
  return toBase64url(blob);
}

/** Seal a slip form's picked choice into its "sealed" field, and take its radio
 * buttons out of the form. Returns true when the form may be sent. */
export function sealForm(nacl, form) {
  var radios = form.querySelectorAll('input[type="radio"]');
  var picked = null;
  radios.forEach(function (radio) {
    if (radio.name === "choice" && radio.checked) {
      picked = radio;
    }
  });
  if (!picked) {
    return true; // nothing to seal, nothing of a choice sent: the server says what to pick
  }
  var sealed = form.querySelector('input[name="sealed"]');
  if (!sealed) {
    sealed = form.ownerDocument.createElement("input");
    sealed.type = "hidden";
    sealed.name = "sealed";
    form.appendChild(sealed);
  }
  sealed.value = seal(nacl, form.getAttribute("data-seal-key"),
                      Number(form.getAttribute("data-sealing")),
                      form.getAttribute("data-chooser"), unpad(picked.value));
  radios.forEach(function (radio) {
    radio.setAttribute("form", UNSENT);
  });
  if (form.hasAttribute && form.hasAttribute("data-remind")) {
    var label = picked.closest ? picked.closest("label") : null;
    remember(form.getAttribute("data-sealing") + ":" + form.getAttribute("data-chooser"),
             label ? label.textContent.trim() : unpad(picked.value));
  }
  return true;
}

var REMEMBERED = "companion-slip:";

/** What this device sealed, kept on the device alone (this tab's session), to say it back to
 * its chooser once the slip is in: the server never has it. */
function remember(key, shown) {
  try {
    window.sessionStorage.setItem(REMEMBERED + key, shown);
  } catch (error) {
    // No storage (a private window): the slip is in all the same, only unsaid.
  }
}

/** The words that say a remembered choice back: the template's "{}" is the choice. */
export function remindText(template, shown) {
  return shown ? template.replace("{}", shown) : "";
}

function sayRemembered() {
  document.querySelectorAll("[data-remind-key]").forEach(function (element) {
    var shown = null;
    try {
      shown = window.sessionStorage.getItem(REMEMBERED + element.getAttribute("data-remind-key"));
    } catch (error) {
      shown = null;
    }
    var text = remindText(element.getAttribute("data-remind") || "", shown);
    if (text) {
      element.textContent = text;
      element.hidden = false;
    }
  });
}

function onSubmit(event) {
  var form = event.target;
  if (!form || !form.hasAttribute || !form.hasAttribute("data-seal-key")) {
    return;
  }
  var sent = false;
  try {
    sent = window.nacl ? sealForm(window.nacl, form) : false;
  } catch (error) {
    sent = false;
  }
  if (!sent) {
    // Nothing leaves the device unsealed once this script runs.
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}

/** Seal every slip form as it is sent. */
export function startSlips() {
  // Capturing, on the document: before htmx's own listener on the form.
  document.addEventListener("submit", onSubmit, true);
  // A slip that is in says the choice back on the device that sealed it.
  document.addEventListener("htmx:afterSettle", sayRemembered);
  sayRemembered();
}
