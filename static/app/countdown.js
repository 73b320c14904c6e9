/* Countdowns tick between polls.
 *
 * A running countdown (data-countdown="<seconds>" data-running="yes", e.g. Tromplemond's
 * interrogation timer) ticks down every second between polls; each poll brings the
 * server's own figure again.
 */

/** A number of seconds as the clock shows it: "1:05". */
export function clockText(left) {
  const seconds = left % 60;
  return Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
}

/** Every second, each running countdown on the page goes down by one, to 0 ("up"). */
export function runCountdowns() {
  window.setInterval(() => {
    document.querySelectorAll('[data-countdown][data-running="yes"]').forEach((timer) => {
      let left = parseInt(timer.getAttribute("data-countdown"), 10);
      if (isNaN(left) || left <= 0) {
        return;
      }
      left -= 1;
      timer.setAttribute("data-countdown", String(left));
      const clock = timer.querySelector(".clock");
      if (clock) {
        clock.textContent = clockText(left);
      }
      if (left === 0) {
        timer.classList.add("up");
      }
    });
  }, 1000);
}
