// The night's recap: share the picture (a PNG drawn here from the server's SVG) and its text.
//
// On a phone, the system share sheet (Web Share API), with the picture as a file where
// navigator.canShare({files}) says the browser takes one, else the text alone. Elsewhere
// (no navigator.share, or the sheet fails), the text goes to the clipboard and the PNG is
// offered as a download. The PNG is drawn on a canvas from the SVG: the server needs no
// image library (companion/web/records/picture.py says why).

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

/** How the recap is shared on this browser: "files", "text" or "copy". */
export function shareWay(nav, file) {
  if (typeof nav.share !== "function") return "copy";
  if (file && typeof nav.canShare === "function" && nav.canShare({ files: [file] })) {
    return "files";
  }
  return "text";
}

async function copyText(text) {
  if (navigator.clipboard && navigator.clipboard.writeText) {
    await navigator.clipboard.writeText(text);
    return true;
  }
  return false;
}

function setUp(section) {
  const button = section.querySelector("[data-share]");
  const status = section.querySelector("[data-status]");
  const download = section.querySelector("[data-png]");
  const textBlock = document.querySelector("[data-text]");
  const copyButton = document.querySelector("[data-copy]");
  const svg = section.querySelector("svg");
  const text = textBlock ? textBlock.textContent : "";
  const title = document.title;
  const name = `${section.dataset.file || "recap"}.png`;
  let file = null;

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
      }
      return file;
    } catch {
      return null;
    }
  })();

  const copy = async () => {
    try {
      if (await copyText(text)) {
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
      const way = shareWay(navigator, file);
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

const section = typeof document === "undefined"
  ? null // under node's test runner (tests/js/recap.test.mjs)
  : document.querySelector("[data-testid='recap']");
if (section && !section.dataset.ready) {
  section.dataset.ready = "yes";
  setUp(section);
}
