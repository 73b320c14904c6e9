/* The companion's small progressive enhancements. No dependencies.
 *
 * Every page works without this file (plain forms and links); with it:
 *  1. the service worker is registered (offline page, installable app);
 *  2. a `companion:tick` event fires on <body> every 2 s while the page is
 *     visible, and at once when it becomes visible again; live partials poll
 *     with hx-trigger="companion:tick from:body", so a sleeping phone stops
 *     polling and catches up when it wakes;
 *  3. the screen stays awake while <body data-wake-lock="on">;
 *  4. forms (or submit buttons) with data-confirm="question" ask first;
 *  5. a boosted (hx-boost) page change also brings the new page's <body>
 *     class, data-* and hx-headers attributes, as a full page load would;
 *  6. a boosted link tapped with no connection opens the offline page
 *     instead of doing nothing;
 *  7. a running countdown (data-countdown="<seconds>" data-running="yes",
 *     e.g. Tromplemond's interrogation timer) ticks down every second
 *     between polls; each poll brings the server's own figure again;
 *  8. a card picker says how many of its cards are ticked ("3 of 3") as
 *     they are ticked (the server writes the same figure on each load);
 *  9. the new-table form's first-dealer list names each player as their
 *     name is typed (the server names them too, on each load);
 * 10. a choice being made (a slip's name, the cards picked) in an element
 *     with data-keep-choice and an id survives the live updates around it.
 */
(function () {
  "use strict";

  var TICK_MS = 2000;

  /* 1. Service worker. */
  function registerServiceWorker() {
    if (!("serviceWorker" in navigator)) {
      return; // Old browser, or plain http on a LAN address (not a secure context).
    }
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // The app works the same without it; only the offline page is lost.
    });
  }

  /* 2. Live ticks. */
  function tick() {
    if (document.body) {
      document.body.dispatchEvent(new CustomEvent("companion:tick"));
    }
  }

  function startTicks() {
    window.setInterval(function () {
      if (document.visibilityState === "visible") {
        tick();
      }
    }, TICK_MS);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        tick();
      }
    });
  }

  /* 3. Screen Wake Lock. */
  var wakeLock = null;
  var wakeLockPending = false;

  function wakeLockWanted() {
    return Boolean(document.body) && document.body.dataset.wakeLock === "on";
  }

  function updateWakeLock() {
    if (!("wakeLock" in navigator)) {
      return;
    }
    if (wakeLockWanted() && document.visibilityState === "visible") {
      if (wakeLock || wakeLockPending) {
        return;
      }
      wakeLockPending = true;
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLockPending = false;
        wakeLock = lock;
        lock.addEventListener("release", function () {
          if (wakeLock === lock) {
            wakeLock = null;
          }
        });
        if (!wakeLockWanted()) {
          updateWakeLock(); // Switched off while the request was pending.
        }
      }).catch(function () {
        // Low battery, no permission, or not supported here: the screen just dims.
        wakeLockPending = false;
      });
    } else if (!wakeLockWanted() && wakeLock) {
      var lock = wakeLock;
      wakeLock = null;
      lock.release().catch(function () {});
    }
  }

  function watchWakeLock() {
    // The browser drops the lock whenever the page is hidden; take it again on return.
    document.addEventListener("visibilitychange", updateWakeLock);
    new MutationObserver(updateWakeLock).observe(document.body, {
      attributes: true,
      attributeFilter: ["data-wake-lock"],
    });
    // A boosted htmx navigation keeps the old <body>; pages may switch the lock then.
    document.body.addEventListener("htmx:afterSettle", updateWakeLock);
    updateWakeLock();
  }

  /* 4. Confirm before submitting. */
  function confirmSubmits() {
    // Capture phase on window, so a "Cancel" stops htmx's boosted submit too.
    window.addEventListener("submit", function (event) {
      var form = event.target;
      var submitter = event.submitter;
      var question = (submitter && submitter.getAttribute("data-confirm")) ||
        (form && form.getAttribute && form.getAttribute("data-confirm"));
      if (question && !window.confirm(question)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    }, true);
  }

  /* 5. Boosted pages keep their <body> attributes. */
  var pendingBody = null;

  function isSyncedAttribute(name) {
    return name === "class" || name === "hx-headers" || name.indexOf("data-") === 0;
  }

  function syncBoostedBody() {
    // hx-boost swaps only the inside of <body>; without this the scorekeeper page's
    // data-wake-lock and class would stay behind on the next page, or never arrive.
    document.addEventListener("htmx:beforeSwap", function (event) {
      var detail = event.detail;
      pendingBody = null;
      if (!detail.boosted || detail.target !== document.body || !detail.shouldSwap ||
          typeof detail.serverResponse !== "string" ||
          !/<body[\s>]/i.test(detail.serverResponse)) {
        return;
      }
      pendingBody = new DOMParser().parseFromString(detail.serverResponse, "text/html").body;
    });
    document.addEventListener("htmx:afterSwap", function (event) {
      if (!pendingBody || event.target !== document.body) {
        return;
      }
      var body = document.body;
      var fresh = pendingBody;
      pendingBody = null;
      Array.prototype.slice.call(body.attributes).forEach(function (attribute) {
        if (isSyncedAttribute(attribute.name) && !fresh.hasAttribute(attribute.name)) {
          body.removeAttribute(attribute.name);
        }
      });
      Array.prototype.slice.call(fresh.attributes).forEach(function (attribute) {
        if (isSyncedAttribute(attribute.name) &&
            body.getAttribute(attribute.name) !== attribute.value) {
          body.setAttribute(attribute.name, attribute.value);
        }
      });
    });
  }

  /* 6. A boosted link that cannot reach the server shows the offline page. */
  function offlineFallback() {
    document.addEventListener("htmx:sendError", function (event) {
      var detail = event.detail;
      var verb = detail.requestConfig && detail.requestConfig.verb;
      // Only links and GET forms: repeating a POST by hand could send it twice.
      if (detail.boosted && verb === "get" && detail.pathInfo) {
        // A full navigation, which the service worker answers with /offline
        // (or, with no service worker, the browser's own "no connection" page).
        window.location.assign(detail.pathInfo.finalRequestPath || detail.pathInfo.requestPath);
      }
    });
  }

  /* 7. Countdowns tick between polls. */
  function clockText(left) {
    var seconds = left % 60;
    return Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
  }

  function runCountdowns() {
    window.setInterval(function () {
      var timers = document.querySelectorAll('[data-countdown][data-running="yes"]');
      Array.prototype.forEach.call(timers, function (timer) {
        var left = parseInt(timer.getAttribute("data-countdown"), 10);
        if (isNaN(left) || left <= 0) {
          return;
        }
        left -= 1;
        timer.setAttribute("data-countdown", String(left));
        var clock = timer.querySelector(".clock");
        if (clock) {
          clock.textContent = clockText(left);
        }
        if (left === 0) {
          timer.classList.add("up");
        }
      });
    }, 1000);
  }

  /* 8. Pickers count their ticks. */
  function countPicks() {
    document.addEventListener("change", function (event) {
      var input = event.target;
      if (!input || input.type !== "checkbox" || !input.closest) {
        return;
      }
      var fieldset = input.closest("fieldset.picker");
      var count = fieldset && fieldset.querySelector("[data-pick-count]");
      if (!count) {
        return;
      }
      var size = count.getAttribute("data-pick-count");
      var ticked = fieldset.querySelectorAll('input[type="checkbox"]:checked').length;
      count.textContent = ticked + " of " + size;
      count.classList.toggle("full", String(ticked) === size);
    });
  }

  /* 9. The first-dealer list follows the names typed. */
  function nameDealers() {
    document.addEventListener("input", function (event) {
      var input = event.target;
      var seat = input && input.getAttribute && input.getAttribute("data-dealer-option");
      var option = seat && document.querySelector('#dealer option[value="' + seat + '"]');
      if (!option) {
        return;
      }
      var name = input.value.trim();
      option.textContent = name ? name + " (seat " + seat + ")" : "Seat " + seat;
    });
  }

  /* 10. Choices being made survive live updates. */
  function keepChoices() {
    var kept = null;
    document.addEventListener("htmx:beforeSwap", function () {
      kept = [];
      var ticked = document.querySelectorAll("[data-keep-choice] input:checked");
      Array.prototype.forEach.call(ticked, function (input) {
        kept.push([input.closest("[data-keep-choice]").id, input.name, input.value]);
      });
    });
    document.addEventListener("htmx:afterSwap", function () {
      (kept || []).forEach(function (choice) {
        var holder = document.getElementById(choice[0]);
        if (!holder || !holder.hasAttribute("data-keep-choice")) {
          return; // The choice was made, or a new one began: nothing to keep.
        }
        var inputs = holder.querySelectorAll("input");
        Array.prototype.forEach.call(inputs, function (input) {
          if (input.name === choice[1] && input.value === choice[2]) {
            input.checked = true;
          }
        });
      });
      kept = null;
    });
  }

  function start() {
    registerServiceWorker();
    startTicks();
    watchWakeLock();
    confirmSubmits();
    syncBoostedBody();
    offlineFallback();
    runCountdowns();
    countPicks();
    nameDealers();
    keepChoices();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
