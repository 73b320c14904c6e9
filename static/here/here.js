/* The page of a table on this device (/here, companion.web.here).
 *
 * It needs a service worker (HTTPS, or localhost): the service worker keeps Pyodide, the
 * app's zip and this page for the next time with no network, and passes every request of
 * the frame's pages (under data-mount) to this page, which hands it to the Web Worker that
 * runs the app (static/here/worker.js) with a MessagePort for the answer. The app runs in
 * a worker of this page, not in the service worker (which the browser stops when idle, and
 * which may not wait on Python's start), and this page stays while the frame below goes from
 * page to page (a page change would stop a worker it held). One tab at a time holds the
 * table (a lock): two would write the same database. The frame reopens where it was.
 */

const main = document.getElementById("here");
const frame = document.getElementById("here-frame");
const stepLine = main.querySelector(".here-step");
const bar = main.querySelector(".here-progress");
const STEPS = ["python", "app", "data", "ready"];
const LAST = "companion-here-last";

function say(words, problem) {
  stepLine.textContent = words;
  stepLine.classList.toggle("here-problem", Boolean(problem));
}

function showStep(name) {
  bar.hidden = false;
  bar.value = STEPS.indexOf(name) + 1;
  main.setAttribute("data-step", name);
  const words = main.getAttribute(`data-step-${name}`);
  if (words) {
    say(words);
  }
}

function openFrame(mount) {
  const asked = new URL(window.location.href).searchParams.get("open");
  const last = window.localStorage.getItem(LAST);
  const fits = (url) => url && url.startsWith(mount + "/") && !url.startsWith("//");
  frame.src = fits(asked) ? asked : fits(last) ? last : mount + "/";
  frame.hidden = false;
  document.body.classList.add("here-ready");
  const keepWhere = () => {
    try {
      const where = frame.contentWindow.location;
      if (where.pathname.startsWith(mount + "/")) {
        window.localStorage.setItem(LAST, where.pathname + where.search);
      }
      document.title = frame.contentDocument.title || document.title;
    } catch (error) {
      // (a page of another origin: nothing to keep)
    }
  };
  frame.addEventListener("load", () => {
    keepWhere();
    // A boosted page change (htmx) moves the frame without a load.
    for (const name of ["htmx:pushedIntoHistory", "htmx:replacedInHistory"]) {
      frame.contentDocument.addEventListener(name, keepWhere);
    }
  });
}

async function run() {
  const mount = main.getAttribute("data-mount");
  if (!mount) {
    return; // not built on this server: the page says so
  }
  if (!window.isSecureContext || !("serviceWorker" in navigator)) {
    say(main.getAttribute("data-insecure"), true);
    return;
  }
  await navigator.serviceWorker.register(main.getAttribute("data-sw"), { scope: "/" });
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    // The first visit: this page came before the service worker. It takes the page now
    // (clients.claim), so the frame's requests reach it.
    await new Promise((resolve) => {
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    });
  }
  const workerUrl = `${main.getAttribute("data-worker")}?${new URLSearchParams({
      pyodide: main.getAttribute("data-pyodide"),
      app: main.getAttribute("data-app"),
      nacl: main.getAttribute("data-nacl"),
      origin: window.location.origin,
    })}`;
  const worker = new Worker(workerUrl, { type: "module" });
  const started = new Promise((resolve, reject) => {
    worker.addEventListener("message", (event) => {
      const message = event.data || {};
      if (message.type === "step") {
        showStep(message.step);
        if (message.step === "ready") {
          resolve();
        }
      } else if (message.type === "failed") {
        reject(new Error(message.error));
      }
    });
    worker.addEventListener("error", (event) => reject(new Error(event.message)));
  });
  // The service worker's requests for the frame: to the app's worker, answered on the port.
  navigator.serviceWorker.addEventListener("message", (event) => {
    const message = event.data || {};
    if (message.type === "here-request" && event.ports[0]) {
      const { method, url, headers, body } = message;
      const transfer = body ? [event.ports[0], body] : [event.ports[0]];
      worker.postMessage({ type: "request", method, url, headers, body }, transfer);
    }
  });
  navigator.serviceWorker.controller.postMessage({ type: "here-host" });
  await started;
  openFrame(mount);
  // This page and its own files came before the service worker on a first visit: it keeps
  // them now (Pyodide and the app's zip it kept as the worker fetched them), and says so.
  const kept = new MessageChannel();
  kept.port1.onmessage = () => main.setAttribute("data-kept", "");
  navigator.serviceWorker.controller.postMessage({
    type: "here-keep",
    urls: [window.location.pathname,
           ...[...document.querySelectorAll('link[rel="stylesheet"], script[src]')]
             .map((element) => element.getAttribute("href") || element.getAttribute("src")),
           workerUrl, main.getAttribute("data-nacl")],
  }, [kept.port2]);
}

function begin() {
  const go = () => run().catch((error) => {
    say(`${main.getAttribute("data-failed")} ${error.message}`, true);
  });
  if (navigator.locks) {
    navigator.locks.request("companion-here", { ifAvailable: true }, (lock) => {
      if (!lock) {
        say(main.getAttribute("data-elsewhere"), true);
        return undefined;
      }
      return new Promise(() => { go(); }); // held for as long as this page is open
    });
  } else {
    go();
  }
}

begin();
