/* Forms: asking first, counting picks, naming dealers, keeping a choice being made.
 *
 *  - forms (or submit buttons) with data-confirm="question" ask first;
 *  - a card picker says how many of its cards are ticked ("3 of 3") as they are ticked
 *    (the server writes the same figure on each load);
 *  - the new-table form's first-dealer list names each player as their name is typed
 *    (the server names them too, on each load);
 *  - a choice being made (a slip's name, the cards picked) in an element with
 *    data-keep-choice and an id survives the live updates around it;
 *  - an amount is tapped (a chip) or typed, never both: typing one lets go of the chip,
 *    tapping a chip clears what was typed (the one highlighted is the one that goes in).
 *
 * The words these write are the page's (words.js), in its language.
 */

import { word } from "./words.js";

/** Confirm before submitting. */
export function confirmSubmits() {
  // Capture phase on window, so a "Cancel" stops htmx's boosted submit too.
  window.addEventListener("submit", (event) => {
    const form = event.target;
    const submitter = event.submitter;
    const question = (submitter && submitter.getAttribute("data-confirm")) ||
      (form && form.getAttribute && form.getAttribute("data-confirm"));
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
}

/** Pickers count their ticks. */
export function countPicks() {
  document.addEventListener("change", (event) => {
    const input = event.target;
    if (!input || input.type !== "checkbox" || !input.closest) {
      return;
    }
    const fieldset = input.closest("fieldset.picker");
    const count = fieldset && fieldset.querySelector("[data-pick-count]");
    if (!count) {
      return;
    }
    const size = count.getAttribute("data-pick-count");
    const ticked = fieldset.querySelectorAll('input[type="checkbox"]:checked').length;
    count.textContent = word("picked", "{ticked} of {size}", { ticked: ticked, size: size });
    count.classList.toggle("full", String(ticked) === size);
  });
}

/** The first-dealer list follows the names typed. */
export function nameDealers() {
  document.addEventListener("input", (event) => {
    const input = event.target;
    const seat = input && input.getAttribute && input.getAttribute("data-dealer-option");
    const option = seat && document.querySelector('#dealer option[value="' + seat + '"]');
    if (!option) {
      return;
    }
    const name = input.value.trim();
    option.textContent = name ? word("named_seat", "{name} (seat {seat})", { name: name, seat: seat })
      : word("seat", "Seat {seat}", { seat: seat });
  });
}

/** Choices being made survive live updates. */
export function keepChoices() {
  let kept = null;

  function save(event) {
    if (kept || !event.detail.shouldSwap) {
      // Saved at the first swap of this answer (a pulse swaps several regions); an
      // answer that swaps nothing (an unchanged poll's 204) never settles, so saving
      // then would keep a stale choice until the next update and lose the one made since.
      return;
    }
    kept = [];
    document.querySelectorAll("[data-keep-choice] input:checked").forEach((input) => {
      kept.push([input.closest("[data-keep-choice]").id, input.name, input.value]);
    });
  }

  function restore() {
    (kept || []).forEach((choice) => {
      const holder = document.getElementById(choice[0]);
      if (!holder || !holder.hasAttribute("data-keep-choice")) {
        return; // The choice was made, or a new one began: nothing to keep.
      }
      holder.querySelectorAll("input").forEach((input) => {
        if (input.name === choice[1] && input.value === choice[2]) {
          input.checked = true;
        }
      });
    });
  }

  document.addEventListener("htmx:beforeSwap", save);
  document.addEventListener("htmx:oobBeforeSwap", save);
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:afterSettle", () => {
    restore();
    kept = null;
  });
}

/** One amount at a time: a chip tapped, or an amount typed. */
export function oneAmount() {
  document.addEventListener("input", (event) => {
    const field = event.target;
    if (!field || !field.matches || !field.matches('.amount-form input[name="typed"]')) {
      return;
    }
    if (field.value !== "") {
      field.form.querySelectorAll('input[name="amount"]:checked').forEach((chip) => {
        chip.checked = false;
      });
    }
  });
  document.addEventListener("change", (event) => {
    const chip = event.target;
    if (chip && chip.matches && chip.matches('.amount-form input[name="amount"]')) {
      const typed = chip.form.querySelector('input[name="typed"]');
      if (typed) {
        typed.value = "";
      }
    }
  });
}
