/* Keeping the screen awake.
 *
 * The screen stays awake while <body data-wake-lock="on">: by the Screen Wake Lock where
 * the browser gives it (HTTPS, localhost), otherwise (plain http on a LAN) by nosleep.js
 * from the first tap on; #wake-status in the header says which ("on", "tap", "off").
 *
 * Plain http (not a secure context) has no Screen Wake Lock. nosleep.js keeps the screen
 * on by playing a tiny looping video, which browsers allow only once the person has tapped
 * the page: it starts on the first tap (or at once after one).
 */

import { addScript } from "./load-htmx.js";

let wakeLock = null;          // the Screen Wake Lock held now
let wakeLockPending = false;
let noSleep = null;           // nosleep.js, where there is no Screen Wake Lock
let noSleepLoad = "";         // "", "loading", "ready" or "broken"
let noSleepStarting = false;
let noSleepNeedsTap = false;  // a start was refused: wait for a tap

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
  const status = document.getElementById("wake-status");
  if (!status) {
    return;
  }
  const state = wakeState();
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
    navigator.wakeLock.request("screen").then((lock) => {
      wakeLockPending = false;
      wakeLock = lock;
      lock.addEventListener("release", () => {
        if (wakeLock === lock) {
          wakeLock = null;
        }
        showWakeStatus();
      });
      updateWakeLock(); // Switched off while the request was pending, or now held.
    }).catch(() => {
      // Low battery, no permission, or not supported here: the screen just dims.
      wakeLockPending = false;
      showWakeStatus();
    });
  } else if (!wakeLockWanted() && wakeLock) {
    const lock = wakeLock;
    wakeLock = null;
    lock.release().catch(() => {});
  }
}

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
  const status = document.getElementById("wake-status");
  const src = status && status.getAttribute("data-fallback");
  if (noSleepLoad) {
    return;
  }
  if (!src) {
    noSleepLoad = "broken";
    return;
  }
  noSleepLoad = "loading";
  const script = addScript(src, "");
  script.addEventListener("load", () => {
    if (typeof window.NoSleep === "function") {
      noSleep = new window.NoSleep();
      noSleepLoad = "ready";
    } else {
      noSleepLoad = "broken";
    }
    updateWakeLock();
  });
  script.addEventListener("error", () => {
    noSleepLoad = "broken";
    updateWakeLock();
  });
}

function startNoSleep() {
  if (noSleepStarting || document.visibilityState !== "visible") {
    return;
  }
  noSleepStarting = true;
  noSleep.enable().then(() => {
    noSleepStarting = false;
    noSleepNeedsTap = false;
    updateWakeLock(); // The game may have ended while the video was starting.
  }, () => {
    // Not allowed without a (new) tap: ask for one.
    noSleepStarting = false;
    noSleepNeedsTap = true;
    showWakeStatus();
  });
}

function startNoSleepOnTap() {
  // Inside a tap's own event, as browsers require for playing a video.
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

/** Keep the screen on while the page asks for it, and say so in #wake-status. */
export function watchWakeLock() {
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
