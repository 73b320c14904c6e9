// static/app/theme.js: the theme chosen on a device, kept in a cookie the server reads.
// `node --test tests/js/`.
import assert from "node:assert/strict";
import test from "node:test";

import { CHOICES, COOKIE, choiceCookie, readChoice, themeAttribute } from "../../static/app/theme.js";

test("a device that chose nothing follows the device (auto)", () => {
  assert.equal(readChoice(""), "auto");
  assert.equal(readChoice(undefined), "auto");
  assert.equal(readChoice("session=abc; other=dark"), "auto");
});

test("the choice is read from among the page's other cookies", () => {
  assert.equal(readChoice(`session=abc; ${COOKIE}=light; x=1`), "light");
  assert.equal(readChoice(`${COOKIE}=dark`), "dark");
});

test("a cookie the app does not know is as the device, not a theme", () => {
  assert.equal(readChoice(`${COOKIE}=purple`), "auto");
  assert.equal(readChoice(`${COOKIE}=`), "auto");
});

test("light and dark are kept for a year on every page; auto forgets the choice", () => {
  assert.equal(choiceCookie("light"), `${COOKIE}=light; Path=/; Max-Age=31536000; SameSite=Lax`);
  assert.match(choiceCookie("dark"), /=dark; Path=\/; Max-Age=31536000;/);
  assert.match(choiceCookie("auto"), /=auto; Path=\/; Max-Age=0;/);
  assert.match(choiceCookie("<script>"), /=auto; Path=\/; Max-Age=0;/);
});

test("what is kept is read back as it was chosen", () => {
  for (const choice of CHOICES) {
    const kept = choiceCookie(choice).split(";")[0];
    assert.equal(readChoice(kept), choice);
  }
});

test("the page's data-theme: light or dark, none for as the device", () => {
  assert.equal(themeAttribute("light"), "light");
  assert.equal(themeAttribute("dark"), "dark");
  assert.equal(themeAttribute("auto"), null);
  assert.equal(themeAttribute("nonsense"), null);
});
