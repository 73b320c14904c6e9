/* Light, dark, or as the device: the theme chosen on this device.
 *
 * The choice is kept in a cookie (COOKIE), so the server draws each page in it from the
 * first paint (base.html: <html data-theme>), with no flash of the other theme. "auto"
 * (as the device) is no data-theme at all: the style sheet follows prefers-color-scheme.
 *
 * The switch (the footer's form.theme-switch in base.html) works without this module too:
 * its form goes to /theme, which sets the cookie and comes back. Here a tap on a choice
 * sets the cookie and the page's theme at once, without a request.
 */

export const COOKIE = "companion-theme";
export const CHOICES = ["auto", "light", "dark"];
const YEAR = 60 * 60 * 24 * 365;

/** The choice a cookie string holds ("auto" when none, or one this app does not know). */
export function readChoice(cookies) {
  for (const part of String(cookies || "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === COOKIE) {
      const choice = decodeURIComponent(value.join("="));
      return CHOICES.includes(choice) ? choice : "auto";
    }
  }
  return "auto";
}

/** The cookie that keeps ``choice`` on this device for a year ("auto" forgets it). */
export function choiceCookie(choice) {
  const known = CHOICES.includes(choice) ? choice : "auto";
  const age = known === "auto" ? 0 : YEAR;
  return `${COOKIE}=${known}; Path=/; Max-Age=${age}; SameSite=Lax`;
}

/** What <html data-theme> should be for ``choice``: "light", "dark", or null (none). */
export function themeAttribute(choice) {
  return choice === "light" || choice === "dark" ? choice : null;
}

function apply(choice) {
  const root = document.documentElement;
  const theme = themeAttribute(choice);
  if (theme) {
    root.dataset.theme = theme;
  } else {
    delete root.dataset.theme;
  }
  const scheme = document.querySelector('meta[name="color-scheme"]');
  if (scheme) {
    scheme.content = theme || "dark light";
  }
}

/** A tap on the switch's choices sets the theme at once and keeps it in the cookie. */
export function watchThemeSwitch() {
  document.addEventListener("change", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.name !== "theme"
        || !input.closest("form.theme-switch")) {
      return;
    }
    document.cookie = choiceCookie(input.value);
    apply(input.value);
  });
  document.addEventListener("submit", (event) => {
    // With this module, the choice is already made: the form's own button sends nothing.
    if (event.target instanceof HTMLFormElement && event.target.matches("form.theme-switch")) {
      event.preventDefault();
    }
  }, true);
}
