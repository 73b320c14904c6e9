/* Steppers: a bid's −1 / +1 / +5 are done in the page, with no round trip.
 *
 * A form with data-stepper-min (the smallest bid the rules allow now) holds the bid field
 * (input[name="bid"]), the stepper's value (input[name="proposal"]) and buttons
 * name="adjust" value="-1|1|5". Without this module each step is a plain submit that the
 * server answers with the stepped value; with it, a step changes the field at once and
 * nothing is sent until Bid. The field shows its value (no placeholder), selected when
 * tapped, so a number typed on the pad replaces it.
 */

/** A typed whole number (digits only, spaces around allowed), or null. */
export function readWhole(text) {
  const trimmed = String(text ?? "").trim();
  return /^\d{1,6}$/.test(trimmed) ? parseInt(trimmed, 10) : null;
}

/** The value after stepping `by` from what is typed (or, unreadable, from `fallback`):
 * never below `minimum`, as the rules' Auction.stepped. */
export function stepped(typed, by, minimum, fallback) {
  const from = readWhole(typed);
  const start = from === null ? (fallback ?? minimum) : from;
  return Math.max(minimum, start + by);
}

function step(button) {
  const form = button.closest("form[data-stepper-min]");
  const field = form && form.querySelector('input[name="bid"]');
  if (!field) {
    return false;
  }
  const minimum = parseInt(form.getAttribute("data-stepper-min"), 10);
  const proposal = form.querySelector('input[name="proposal"]');
  const fallback = proposal ? readWhole(proposal.value) : null;
  const value = stepped(field.value, parseInt(button.value, 10), minimum, fallback);
  field.value = String(value);
  if (proposal) {
    proposal.value = String(value);
  }
  const less = form.querySelector('button[name="adjust"][value="-1"]');
  if (less) {
    less.disabled = value <= minimum;
  }
  return true;
}

/** Steps in the page; the bid field selected when tapped. */
export function startSteppers() {
  // Capture phase on window: the click's default (the form's submit, which htmx would
  // send) is stopped before anything else sees it.
  window.addEventListener("click", (event) => {
    const button = event.target && event.target.closest &&
      event.target.closest('form[data-stepper-min] button[name="adjust"]');
    if (button && !button.disabled && step(button)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  document.addEventListener("focusin", (event) => {
    const field = event.target;
    if (field && field.matches && field.matches('form[data-stepper-min] input[name="bid"]')) {
      field.select();
    }
  });
}
