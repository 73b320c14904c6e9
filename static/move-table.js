// A table on this device, back to a server in one tap (issue 42).
//
// The scorekeeper's screen of a table on this device (companion.offline) has a "Move this
// table to the server" button. Its tap takes the evening's record from the app in this
// browser (evening.json, under the app's mount), gets the server's own import page (the
// same origin, outside the mount: the network, not the service worker) for its form's
// hidden fields (the CSRF token), and posts the record to it as the page's form would, with
// `moved`: the server makes a table of it, makes this browser its scorekeeper (its cookie)
// and answers with a redirect to that table's scorekeeper screen, which the whole tab opens
// (the top page, not the frame). With no network the button says so: nothing is sent, the
// table here stays as it was. The table here is never changed or deleted by a move.

const FIELD = "record";

function say(button, words) {
  const status = button.parentElement.querySelector('[data-testid="move-status"]');
  if (status) {
    status.textContent = words;
  }
}

/** The hidden fields (CSRF token, tap key) of the server's import form, from its page. */
function hiddenFields(html) {
  const page = new DOMParser().parseFromString(html, "text/html");
  const form = page.querySelector("form[enctype='multipart/form-data']");
  if (!form) {
    return null;
  }
  return [...form.querySelectorAll("input[type='hidden']")]
    .map((input) => [input.name, input.value]);
}

/** What the server's import page said when it refused (its notice), or "". */
function refusal(html) {
  const page = new DOMParser().parseFromString(html, "text/html");
  const notice = page.querySelector(".notice");
  return notice ? notice.textContent.trim() : "";
}

async function move(button) {
  const server = button.getAttribute("data-move-server");
  button.disabled = true;
  say(button, button.getAttribute("data-move-sending"));
  try {
    const record = await (await fetch(button.getAttribute("data-move-record"))).blob();
    let fields;
    try {
      const page = await fetch(server, { cache: "no-store", credentials: "same-origin" });
      fields = page.ok ? hiddenFields(await page.text()) : null;
    } catch (error) {
      fields = null;
    }
    if (!fields) {
      say(button, button.getAttribute("data-move-unreachable"));
      return;
    }
    const form = new FormData();
    for (const [name, value] of fields) {
      form.append(name, value);
    }
    form.append("moved", "1");
    form.append(FIELD, record, "evening.json");
    let answer;
    try {
      answer = await fetch(server, { method: "POST", body: form, credentials: "same-origin" });
    } catch (error) {
      say(button, button.getAttribute("data-move-unreachable"));
      return;
    }
    if (answer.ok && answer.redirected && !new URL(answer.url).pathname.endsWith(server)) {
      window.top.location.assign(answer.url); // the server's table, this tab its scorekeeper
      return;
    }
    say(button, `${button.getAttribute("data-move-refused")} ${refusal(await answer.text())}`);
  } finally {
    button.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("[data-move-record]");
  if (button && !button.disabled) {
    event.preventDefault();
    move(button);
  }
});
