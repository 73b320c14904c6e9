/* The companion's small progressive enhancements. No build step.
 *
 * Every page works without this file (plain forms and links); with it:
 *  1. the service worker is registered (offline page, installable app);
 *  2. a `companion:tick` event fires on <body> when the table the page follows
 *     changed (its event stream, the #pulse's data-events, says the version),
 *     and every 2 s while the page hears no stream; at once when the page
 *     becomes visible again; live partials poll with hx-trigger="companion:tick
 *     from:body", so a sleeping phone stops polling and catches up when it wakes;
 *  3. the screen stays awake while <body data-wake-lock="on">: by the Screen
 *     Wake Lock where the browser gives it (HTTPS, localhost), otherwise (plain
 *     http on a LAN) by nosleep.js from the first tap on; #wake-status in the
 *     header says which;
 *  4. forms (or submit buttons) with data-confirm="question" ask first;
 *  5. a boosted (hx-boost) page change also brings the new page's <body>
 *     class, data-* and hx-headers attributes, as a full page load would;
 *  6. a boosted link tapped with no connection opens the offline page (where a
 *     service worker serves it; else the page stays and taps.js says "No connection");
 *  7. a running countdown (data-countdown="<seconds>" data-running="yes",
 *     e.g. Tromplemond's interrogation timer) ticks down every second
 *     between polls; each poll brings the server's own figure again;
 *  8. htmx is loaded from <meta name="companion-htmx">: the pinned CDN copy,
 *     or the app's own copy of the same file when the CDN fails or hangs;
 *  9. a card picker says how many of its cards are ticked ("3 of 3") as
 *     they are ticked (the server writes the same figure on each load);
 * 10. the new-table form's first-dealer list names each player as their
 *     name is typed (the server names them too, on each load);
 * 11. a choice being made (a slip's name, the cards picked) in an element
 *     with data-keep-choice and an id survives the live updates around it;
 * 12. the answer of a poll the old page sent that comes after a boosted page
 *     change is dropped: it does not land in the new page;
 * 13. a tap (an htmx POST) says what its page shows (the #pulse's URL, in
 *     X-Companion-Pulse), so its answer brings, besides its own region, every
 *     other region that changed and the page's new pulse: the page does not
 *     poll to catch up with its own tap;
 * 14. a page never rests behind the version its stream said (it polls again
 *     once its requests settle, and every 2 s while it is behind), and an
 *     answer older than what the page shows is not swapped in; <body
 *     data-heard> says the version the stream said last;
 * 15. a tap's answer goes where its region is now (a pulse answer may have
 *     swapped a new one in while the tap was under way);
 * 16. the stream brings the pulse's answer itself (event "pulse": the pulse URL it
 *     answers, then the answer), when the page opened it with its pulse's URL and an
 *     id of its own (sent with its taps too, X-Companion-Page): the page swaps it in
 *     as a poll's answer when it still shows what the answer starts from and no tap
 *     of its own is under way (a tap and the pulse never cross), and polls otherwise.
 *
 * Load it with `defer` (base.html does): 8 relies on running before
 * DOMContentLoaded. It needs no inline script, so the CSP forbids them all.
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

  /* 2. Live ticks, and the table's event stream. */
  function tick() {
    if (document.body) {
      document.body.dispatchEvent(new CustomEvent("companion:tick"));
    }
  }

  var QUIET_MS = 40000;    // a stream that said nothing for this long is opened again
  var REFUSED_MS = 60000;  // a server that held no stream for this page is asked again after
  var stream = null;       // the EventSource of the table the page follows, if any
  var streamUrl = "";      // its URL and the path of the pulse it answers
  var spoke = false;       // the stream spoke since it (re)opened: the page hears
  var latest = null;       // the latest version it said
  var heard = 0;           // when it last spoke (or opened)
  var refusedUntil = 0;
  var taps = [];           // the taps' requests (htmx requests that change something)

  function tapping() {
    // Whether a tap is under way (opened, not done; an aborted one is "unsent" again).
    taps = taps.filter(function (xhr) { return xhr.readyState > 0 && xhr.readyState < 4; });
    return taps.length > 0;
  }
  // This page's id: its stream and its taps say it (a tap's own change is not pushed back).
  var pageId = (Math.random().toString(36).slice(2) + Date.now().toString(36)).slice(0, 16);

  function hearing() {
    return stream !== null && spoke && Date.now() - heard < QUIET_MS;
  }

  function showHearing() {
    // <body data-stream="on|off">: whether the page hears its table (or polls instead).
    if (document.body) {
      document.body.setAttribute("data-stream", hearing() ? "on" : "off");
      document.body.setAttribute("data-heard", latest === null ? "" : String(latest));
    }
  }

  function listen() {
    // One stream for the table the page follows, while the page is shown (a hidden page
    // holds no connection: a browser gives a site only six at a time).
    var pulse = document.getElementById("pulse");
    var url = "";
    var answers = "";  // the pulse the stream answers (a new page of the same table: a new one)
    if (pulse && window.EventSource && document.visibilityState === "visible"
        && Date.now() >= refusedUntil) {
      url = pulse.getAttribute("data-events") || "";
      answers = pulse.getAttribute("hx-get") || "";
    }
    var key = url ? url + " " + answers.split("?")[0] : "";
    if (key === streamUrl) {
      showHearing(); // (a boosted page change brings a <body> without it)
      return;
    }
    if (stream) {
      stream.close();
      stream = null;
    }
    streamUrl = key;
    spoke = false;
    latest = null;
    heard = Date.now();
    showHearing();
    if (!url) {
      return;
    }
    var source = new EventSource(url + (url.indexOf("?") < 0 ? "?" : "&") + "page=" + pageId
                                 + "&pulse=" + encodeURIComponent(answers));
    stream = source;
    source.onmessage = function (event) {
      if (source !== stream) {
        return;
      }
      heardFromServer();
      spoke = true;
      heard = Date.now();
      latest = parseInt(event.data, 10);
      showHearing();
      var shown = document.getElementById("pulse");
      if (shown && shown.getAttribute("data-version") !== event.data) {
        tick(); // the table changed: the pulse brings what did
      }
    };
    source.addEventListener("pulse", function (event) {
      // 16. The answer a poll would get: swapped in as one, when the page still shows
      // what it starts from (else the page polls for it).
      if (source !== stream) {
        return;
      }
      var cut = event.data.indexOf("\n");
      var answers = event.data.slice(0, cut);
      var answer = event.data.slice(cut + 1);
      var version = answerVersion(answer);
      heardFromServer();
      spoke = true;
      heard = Date.now();
      if (version !== null) {
        latest = version;
      }
      showHearing();
      var shown = document.getElementById("pulse");
      if (!shown || version === null) {
        return;
      }
      if (tapping()) {
        return; // a tap and the page's pulse never cross: once it is answered, keepUp polls
      }
      if (shown.getAttribute("hx-get") === answers && window.htmx && htmx.swap) {
        htmx.swap(shown, answer, { swapStyle: "none" });
      } else if (behind()) {
        tick();
      }
    });
    function giveUp() {
      // Refused (the server holds as many streams as it may) or failed for good: poll, and
      // ask again in a while.
      source.close();
      stream = null;
      streamUrl = "";
      refusedUntil = Date.now() + REFUSED_MS;
      window.setTimeout(listen, REFUSED_MS);
      showHearing();
    }
    source.addEventListener("full", function () {
      if (source === stream) {
        giveUp();
      }
    });
    source.onerror = function () {
      if (source !== stream) {
        return;
      }
      spoke = false; // the page polls until the stream speaks again
      showHearing();
      if (source.readyState === EventSource.CLOSED) {
        giveUp();
      }
    };
  }

  function heardFromServer() {
    // The stream spoke (a heartbeat, a change): taps.js knows the page has its table.
    document.dispatchEvent(new CustomEvent("companion:heard"));
  }

  function answerVersion(answer) {
    // The table version an answer shows (its first region's or pulse's data-version), or null.
    var found = /data-version="(\d+)"/.exec(answer);
    return found ? parseInt(found[1], 10) : null;
  }

  function behind() {
    // The page shows an older version than its stream said (its polls found nothing new
    // yet: keepUp chases once at once, then this every TICK_MS until the page catches up).
    var pulse = document.getElementById("pulse");
    return latest !== null && pulse !== null
      && parseInt(pulse.getAttribute("data-version"), 10) < latest;
  }

  function startTicks() {
    window.setInterval(function () {
      if (stream && Date.now() - heard > QUIET_MS) {
        streamUrl = ""; // silent too long (a proxy holding it back?): open it again
        listen();
      }
      showHearing();
      if (document.visibilityState === "visible" && (!hearing() || behind())) {
        tick();
      }
    }, TICK_MS);
    document.addEventListener("visibilitychange", function () {
      listen();
      if (document.visibilityState === "visible") {
        tick();
      }
    });
    // A boosted page change may bring a page that follows another table, or none.
    document.addEventListener("htmx:afterSettle", listen);
    listen();
  }

  /* 3. Keeping the screen awake. */
  var wakeLock = null;          // the Screen Wake Lock held now
  var wakeLockPending = false;
  var noSleep = null;           // nosleep.js, where there is no Screen Wake Lock
  var noSleepLoad = "";         // "", "loading", "ready" or "broken"
  var noSleepStarting = false;
  var noSleepNeedsTap = false;  // a start was refused: wait for a tap

  function wakeLockWanted() {
    return Boolean(document.body) && document.body.dataset.wakeLock === "on";
  }

  function wakeState() {
    // What #wake-status says: "on", "tap", "off", or "" (hidden).
    if (!wakeLockWanted()) {
      return "";
    }
    if ("wakeLock" in navigator) {
      return wakeLock ? "on" : (wakeLockPending ? "" : "off");
    }
    if (noSleep && noSleep.isEnabled) {
      return "on";
    }
    return noSleepLoad === "broken" ? "off" : "tap";
  }

  function showWakeStatus() {
    var status = document.getElementById("wake-status");
    if (!status) {
      return;
    }
    var state = wakeState();
    status.hidden = !state;
    if (state && status.getAttribute("data-state") !== state) {
      status.setAttribute("data-state", state);
      status.textContent = status.getAttribute("data-" + state);
    }
  }

  function updateWakeLock() {
    if ("wakeLock" in navigator) {
      updateNativeWakeLock();
    } else {
      updateNoSleep();
    }
    showWakeStatus();
  }

  function updateNativeWakeLock() {
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
          showWakeStatus();
        });
        updateWakeLock(); // Switched off while the request was pending, or now held.
      }).catch(function () {
        // Low battery, no permission, or not supported here: the screen just dims.
        wakeLockPending = false;
        showWakeStatus();
      });
    } else if (!wakeLockWanted() && wakeLock) {
      var lock = wakeLock;
      wakeLock = null;
      lock.release().catch(function () {});
    }
  }

  /* Plain http (not a secure context) has no Screen Wake Lock. nosleep.js keeps the
   * screen on by playing a tiny looping video, which browsers allow only once the
   * person has tapped the page: it starts on the first tap (or at once after one). */
  function updateNoSleep() {
    if (!wakeLockWanted()) {
      if (noSleep && noSleep.isEnabled) {
        noSleep.disable();
      }
      return;
    }
    if (!noSleep) {
      loadNoSleep();
    } else if (!noSleep.isEnabled && !noSleepNeedsTap && hasBeenTapped()) {
      startNoSleep();
    }
  }

  function hasBeenTapped() {
    return Boolean(navigator.userActivation && navigator.userActivation.hasBeenActive);
  }

  function loadNoSleep() {
    var status = document.getElementById("wake-status");
    var src = status && status.getAttribute("data-fallback");
    if (noSleepLoad) {
      return;
    }
    if (!src) {
      noSleepLoad = "broken";
      return;
    }
    noSleepLoad = "loading";
    var script = addScript(src, "");
    script.addEventListener("load", function () {
      if (typeof window.NoSleep === "function") {
        noSleep = new window.NoSleep();
        noSleepLoad = "ready";
      } else {
        noSleepLoad = "broken";
      }
      updateWakeLock();
    });
    script.addEventListener("error", function () {
      noSleepLoad = "broken";
      updateWakeLock();
    });
  }

  function startNoSleep() {
    if (noSleepStarting || document.visibilityState !== "visible") {
      return;
    }
    noSleepStarting = true;
    noSleep.enable().then(function () {
      noSleepStarting = false;
      noSleepNeedsTap = false;
      updateWakeLock(); // The game may have ended while the video was starting.
    }, function () {
      // Not allowed without a (new) tap: ask for one.
      noSleepStarting = false;
      noSleepNeedsTap = true;
      showWakeStatus();
    });
  }

  function startNoSleepOnTap() {
    // Called inside the tap's own event, as browsers require for playing a video.
    if (noSleep && wakeLockWanted() && !noSleep.isEnabled) {
      noSleepNeedsTap = false;
      startNoSleep();
    }
  }

  function resumeOnReturn() {
    // A hidden page loses its Wake Lock, and may have its video paused: take them again.
    if (document.visibilityState !== "visible") {
      return;
    }
    if (noSleep && noSleep.isEnabled && wakeLockWanted()) {
      startNoSleep();
    }
    updateWakeLock();
  }

  function watchWakeLock() {
    document.addEventListener("visibilitychange", resumeOnReturn);
    document.addEventListener("click", startNoSleepOnTap, true);
    new MutationObserver(updateWakeLock).observe(document.body, {
      attributes: true,
      attributeFilter: ["data-wake-lock"],
    });
    // A boosted htmx navigation keeps the old <body>; pages may switch the lock then,
    // and the new page's header brings a fresh (hidden) #wake-status.
    document.addEventListener("htmx:afterSwap", showWakeStatus);
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

  /* 6. A boosted link that cannot reach the server shows the offline page, or says so. */
  function offlineFallback() {
    document.addEventListener("htmx:sendError", function (event) {
      var detail = event.detail;
      var verb = detail.requestConfig && detail.requestConfig.verb;
      // Only links and GET forms (taps are kept and sent again by taps.js).
      if (detail.boosted && verb === "get" && detail.pathInfo) {
        if (navigator.serviceWorker && navigator.serviceWorker.controller) {
          // A full navigation, which the service worker answers with /offline.
          window.location.assign(detail.pathInfo.finalRequestPath || detail.pathInfo.requestPath);
        } else {
          // No service worker (plain http on a LAN): a navigation would end on the
          // browser's own "This site can't be reached" page. The page stays; taps.js says
          // "No connection".
          document.dispatchEvent(new CustomEvent("companion:no-connection"));
        }
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

  /* 8. htmx from the CDN, or the app's own copy of it. */
  var HTMX_PATIENCE_MS = 3000;  // a CDN that has not answered by then counts as out of reach
  var domContentLoaded = false;

  document.addEventListener("DOMContentLoaded", function () {
    domContentLoaded = true;
  });

  function addScript(src, integrity) {
    var script = document.createElement("script");
    script.src = src;
    if (integrity) {
      script.integrity = integrity;
      script.crossOrigin = "anonymous";
    }
    document.head.appendChild(script);
    return script;
  }

  function htmxRan() {
    // htmx sets itself up on DOMContentLoaded, or at once if the page has finished
    // loading (readyState "complete"). A copy that runs in between would wait for an
    // event that has already gone by: send that event again, for htmx.
    if (domContentLoaded && document.readyState !== "complete") {
      document.dispatchEvent(new Event("DOMContentLoaded"));
    }
  }

  function loadHtmx() {
    var meta = document.querySelector('meta[name="companion-htmx"]');
    if (!meta || window.htmx) {
      return;
    }
    var integrity = meta.getAttribute("data-integrity");
    var fallback = meta.getAttribute("data-fallback");
    var cdn = addScript(meta.getAttribute("content"), integrity);
    var settled = false;
    var timer = fallback ? window.setTimeout(useFallback, HTMX_PATIENCE_MS) : null;

    function settle() {
      var first = !settled;
      settled = true;
      window.clearTimeout(timer);
      return first;
    }

    function useFallback() {
      if (!settle() || !fallback) {
        return;
      }
      // If the CDN still answers, its copy must not start a second htmx: a script
      // moved to another document before it runs is never run.
      document.implementation.createHTMLDocument("").adoptNode(cdn);
      addScript(fallback, integrity).addEventListener("load", htmxRan);
    }

    cdn.addEventListener("load", function () {
      if (settle()) {
        htmxRan();
      }
    });
    // Failed, blocked, or refused by the SRI check (a file that is not the pinned one).
    cdn.addEventListener("error", useFallback);
  }

  /* 9. Pickers count their ticks. */
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

  /* 10. The first-dealer list follows the names typed. */
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

  /* 11. Choices being made survive live updates. */
  function keepChoices() {
    var kept = null;

    function save(event) {
      if (kept || !event.detail.shouldSwap) {
        // Saved at the first swap of this answer (a pulse swaps several regions); an
        // answer that swaps nothing (an unchanged poll's 204) never settles, so saving
        // then would keep a stale choice until the next update and lose the one made since.
        return;
      }
      kept = [];
      var ticked = document.querySelectorAll("[data-keep-choice] input:checked");
      Array.prototype.forEach.call(ticked, function (input) {
        kept.push([input.closest("[data-keep-choice]").id, input.name, input.value]);
      });
    }

    function restore() {
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
    }

    document.addEventListener("htmx:beforeSwap", save);
    document.addEventListener("htmx:oobBeforeSwap", save);
    document.addEventListener("htmx:afterSwap", restore);
    document.addEventListener("htmx:oobAfterSwap", restore);
    document.addEventListener("htmx:afterSettle", function () {
      restore();
      kept = null;
    });
  }

  /* 12. A page change drops the old page's late polls. */
  function dropLatePolls() {
    // A poll sent by the page being left may answer after the new page is in. Its regions
    // (swapped out of band, by id) would then find no place there, and an old #pulse put in
    // the new page's #pulse place would go on polling for the old page: the new page would
    // stop following the table. So, as a new page comes, the old page's polling elements
    // are told to swap nothing more (aborting them instead would log htmx errors).
    function swapNothing(event) {
      event.detail.shouldSwap = false;
    }
    document.addEventListener("htmx:beforeSwap", function (event) {
      var detail = event.detail;
      if (!detail.boosted || detail.target !== document.body || !detail.shouldSwap) {
        return;
      }
      var polls = document.querySelectorAll('[hx-trigger*="companion:tick"]');
      Array.prototype.forEach.call(polls, function (element) {
        element.addEventListener("htmx:beforeSwap", swapNothing);
      });
    });
  }

  /* 14. The page never rests behind its table. */
  function keepUp() {
    // A tap and the page's pulse never cross (hx-sync, _macros.html), but an answer may
    // come from before a change the stream has told of since (a poll dropped while a
    // request was under way): an answer older than what the page shows is not swapped
    // in, and once requests settle, a page behind the version its stream said polls again.
    document.addEventListener("htmx:beforeSwap", function (event) {
      var detail = event.detail;
      var pulse = document.getElementById("pulse");
      if (!detail.shouldSwap || detail.boosted || !pulse || !detail.xhr) {
        return;
      }
      var version = answerVersion(detail.xhr.responseText || "");
      if (version !== null && version < parseInt(pulse.getAttribute("data-version"), 10)) {
        detail.shouldSwap = false;
      }
    });
    var chased = null; // the version a poll that found nothing new was sent after again
    document.addEventListener("htmx:afterRequest", function (event) {
      var detail = event.detail;
      if (!detail.successful || !behind()) {
        return;
      }
      var fromPulse = detail.elt === document.getElementById("pulse");
      if (fromPulse && detail.xhr && detail.xhr.status === 204) {
        // Read just before the change the stream told of while it was under way: poll
        // once more at once, then every TICK_MS while behind (startTicks), not in a loop
        // (a server or network that keeps answering 204).
        if (chased === latest) {
          return;
        }
        chased = latest;
      }
      window.setTimeout(tick, 0); // after htmx has let go of this request
    });
  }

  /* 15. A tap's answer goes where its region is now. */
  function followMovedTargets() {
    // Should a tap and another request be under way at once, and the other's answer swap
    // a new round region in while the tap was under way, the region the tap was sent from
    // is no longer in the page: its answer (newer: the pulse's, if later, is dropped by
    // keepUp) goes into the region of the same id that took its place.
    document.addEventListener("htmx:beforeSwap", function (event) {
      var target = event.detail.target;
      if (target && target.id && !document.body.contains(target)) {
        var now = document.getElementById(target.id);
        if (now) {
          event.detail.target = now;
        }
      }
    });
  }

  /* 13. A tap says what its page shows (and 16: the page counts its taps under way). */
  function sendPageStamps() {
    document.addEventListener("htmx:configRequest", function (event) {
      var pulse = document.getElementById("pulse");
      if (pulse && event.detail.verb !== "get") {
        event.detail.headers["X-Companion-Pulse"] = pulse.getAttribute("hx-get");
        event.detail.headers["X-Companion-Page"] = pageId;
      }
    });
    document.addEventListener("htmx:beforeRequest", function (event) {
      var detail = event.detail;
      if (detail.xhr && detail.requestConfig && detail.requestConfig.verb !== "get") {
        taps.push(detail.xhr);
      }
    });
  }

  function start() {
    loadHtmx();
    registerServiceWorker();
    startTicks();
    watchWakeLock();
    confirmSubmits();
    syncBoostedBody();
    dropLatePolls();
    offlineFallback();
    runCountdowns();
    countPicks();
    nameDealers();
    followMovedTargets();
    keepUp(); // before keepChoices: an answer not swapped saves no choice
    keepChoices();
    sendPageStamps();
  }

  if (document.readyState === "loading") {
    // Once: htmxRan() may send DOMContentLoaded again.
    document.addEventListener("DOMContentLoaded", start, { once: true });
  } else {
    start();
  }
}());
