// The night's recap: share the picture (a PNG drawn here from the server's SVG) and its text.
//
// The system share sheet (Web Share API) and the clipboard exist only on a secure page
// (https, or the machine itself): a phone on the table's Wi-Fi that opens
// http://192.168.1.20:5000 has neither. So the page's Share and Copy buttons start hidden
// and are shown here where the browser has them (recapWays). The downloads are the
// server's plain links (the SVG and the text, saved as files) and the PNG drawn here, on
// every page; where nothing can be shared or copied, a line says so and points to them and
// to the QR code of the page. The PNG is drawn on a canvas from the SVG: the server needs
// no image library (companion/web/records/picture.py says why).

import { word } from "./app/words.js";

const SCALE = 2; // a sharp picture on a phone's screen

/** The PNG of an SVG document, drawn at `scale` times its size. */
export async function pngFromSvg(svgText, scale = SCALE) {
  // A data: URL, not a blob: one: the app's CSP lets images load from 'self' and data: only.
  const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  const image = new Image();
  image.decoding = "async";
  const loaded = new Promise((resolve, reject) => {
    image.onload = resolve;
    image.onerror = () => reject(new Error("the picture could not be drawn"));
  });
  image.src = url;
  await loaded;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(image.width * scale);
  canvas.height = Math.round(image.height * scale);
  const context = canvas.getContext("2d");
  context.scale(scale, scale);
  context.drawImage(image, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((png) => (png ? resolve(png) : reject(new Error("no PNG"))), "image/png"));
}

/** What this browser can do with the recap: `{share, copy}`. `share` is true when it has
 * the share sheet, `copy` when it has the clipboard; both need a secure page (`secure`:
 * window.isSecureContext; a browser that does not say is taken at its word, by what
 * `nav` has). */
export function recapWays(nav, secure) {
  const safe = secure !== false;
  return {
    share: safe && typeof nav.share === "function",
    copy: safe && Boolean(nav.clipboard) && typeof nav.clipboard.writeText === "function",
  };
}

/** How the recap is shared on this browser: "files", "text" or "copy" (no share sheet). */
export function shareWay(nav, file, secure) {
  if (!recapWays(nav, secure).share) return "copy";
  if (file && typeof nav.canShare === "function" && nav.canShare({ files: [file] })) {
    return "files";
  }
  return "text";
}

function setUp(section) {
  const button = section.querySelector("[data-share]");
  const status = section.querySelector("[data-status]");
  const download = section.querySelector("[data-png]");
  const noShare = section.querySelector("[data-no-share]");
  const textBlock = document.querySelector("[data-text]");
  const copyButton = document.querySelector("[data-copy]");
  const svg = section.querySelector("svg");
  const text = textBlock ? textBlock.textContent : "";
  const title = document.title;
  const name = `${section.dataset.file || "recap"}.png`;
  const ways = recapWays(navigator, window.isSecureContext);
  let file = null;

  if (button) button.hidden = !ways.share;
  if (copyButton) copyButton.hidden = !ways.copy;
  if (noShare) noShare.hidden = ways.share || ways.copy;
  section.dataset.ways = [ways.share && "share", ways.copy && "copy"].filter(Boolean).join(" ")
    || "download";

  const say = (message) => {
    if (status) status.textContent = message;
  };

  const picture = (async () => {
    if (!svg) return null;
    try {
      const png = await pngFromSvg(new XMLSerializer().serializeToString(svg));
      file = new File([png], name, { type: "image/png" });
      if (download) {
        download.href = URL.createObjectURL(png);
        download.hidden = false;
        // Nothing to share here: the picture to send on is this download.
        if (!ways.share) download.classList.replace("quiet", "primary");
      }
      return file;
    } catch {
      return null;
    }
  })();

  const copy = async () => {
    try {
      if (ways.copy) {
        await navigator.clipboard.writeText(text);
        say(word("recap.copied", "The recap's text is copied: paste it in your group chat. The picture is below to download."));
        return;
      }
    } catch {
      // fall through to the message below
    }
    say(word("recap.select", "Select the text below to copy it; download the picture with the button."));
  };

  if (button) {
    button.addEventListener("click", async () => {
      await picture;
      const way = shareWay(navigator, file, window.isSecureContext);
      try {
        if (way === "files") {
          await navigator.share({ title, text, files: [file] });
          say(word("recap.shared", "Shared."));
        } else if (way === "text") {
          await navigator.share({ title, text });
          say(word("recap.shared_text", "Shared. Download the picture to send it too."));
        } else {
          await copy();
        }
      } catch (error) {
        if (error && error.name === "AbortError") return; // the player closed the sheet
        await copy();
      }
    });
  }
  if (copyButton) copyButton.addEventListener("click", copy);
}

/** Set up the page's recap, once (a module runs once a document: a boosted visit to
 * another recap finds it again after htmx has swapped it in). */
function start() {
  const section = document.querySelector("[data-testid='recap']");
  if (section && !section.dataset.ready) {
    section.dataset.ready = "yes";
    setUp(section);
  }
}

if (typeof document !== "undefined") { // (not under node's test runner: tests/js/recap.test.mjs)
  start();
  document.addEventListener("htmx:afterSettle", start);
}
