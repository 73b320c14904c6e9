/* The live-sync protocol: how a page keeps up with the table it follows, as plain functions.
 *
 * No DOM, no globals, no clock of its own (the time is an argument): sync-page.js wires
 * these decisions to the page, htmx and the table's event stream, taps-page.js uses the
 * connection's, and tests/js/sync.test.js runs them under `node --test`.
 *
 * The protocol, in short. A page that follows a table has a #pulse (the URL of the poll
 * that brings whatever changed, and the table version the page shows) and, when the server
 * holds one for it, the table's event stream. The stream says each new version, and may
 * bring the pulse's answer itself. Without a stream (refused, broken, or silent too long),
 * the page polls every TICK_MS while it is shown. So:
 *  - an answer older than what the page shows is never swapped in (staleAnswer);
 *  - a tap and a pushed answer never cross: while a tap is under way a pushed answer waits,
 *    and the tap's own answer brings the regions that changed; once it is answered a page
 *    still behind polls (pushAction, chase);
 *  - a page never rests behind the version its stream said (behind, chase, shouldPoll);
 *  - a page that was hidden (a phone asleep) polls at once when shown again, and holds no
 *    stream while hidden (streamFor);
 *  - a page that hears nothing for too long says "Reconnecting…" (connection, silent).
 */

export const TICK_MS = 2000;          // a page without a stream polls this often
export const QUIET_MS = 8000;         // a stream that said nothing this long is opened again
export const REFUSED_MS = 60000;      // a server that held no stream is asked again after
export const LOST_MS = 3500;          // without a stream: this long without an answer is lost
export const HEARTBEAT_MS = 2000;     // the stream's heartbeat (the server's HEARTBEAT)
export const STREAM_GRACE_MS = 1000;  // ... and how late one may be before the page asks
export const ASK_EVERY_MS = TICK_MS;  // a page whose stream went silent asks this often

/** A page's id, from a random number in [0, 1) and the time: its stream and taps say it. */
export function newPageId(random, now) {
  return (random.toString(36).slice(2) + now.toString(36)).slice(0, 16);
}

/** The table version an answer shows (its first region's or pulse's data-version), or null. */
export function answerVersion(answer) {
  const found = /data-version="(\d+)"/.exec(answer);
  return found ? parseInt(found[1], 10) : null;
}

/** The stream a page should hold now: {url, answers, key}, with url "" for none.
 *
 * page: {events, answers} from its #pulse (data-events, hx-get), or null without a pulse;
 * canStream: the browser has EventSource; visible: the page is shown (a hidden page holds
 * no connection: a browser gives a site six at a time); refusedUntil: when the server may
 * be asked again after it held none. The key names the stream: a new page of the same table
 * (another pulse path) is a new stream, a pulse with new stamps is not.
 */
export function streamFor(page, canStream, visible, now, refusedUntil) {
  let url = "";
  let answers = "";
  if (page && canStream && visible && now >= refusedUntil) {
    url = page.events || "";
    answers = page.answers || "";
  }
  return { url, answers, key: url ? url + " " + answers.split("?")[0] : "" };
}

/** The URL a stream opens: the table's events, with the page's id and the pulse it shows. */
export function streamUrl(url, pageId, answers) {
  return url + (url.indexOf("?") < 0 ? "?" : "&") + "page=" + pageId
    + "&pulse=" + encodeURIComponent(answers);
}

/** What a page knows of its stream, just (re)opened at `now`. */
export function opened(now) {
  return { spoke: false, latest: null, heard: now };
}

/** The stream spoke at `now` (a heartbeat, a version, a pulse's answer: version or null). */
export function spoke(stream, now, version) {
  return { spoke: true, latest: version === null ? stream.latest : version, heard: now };
}

/** The stream faltered (an error it may recover from): the page polls until it speaks again. */
export function faltered(stream) {
  return Object.assign({}, stream, { spoke: false });
}

/** Whether a page hears its table: its stream is open, spoke since it opened, and lately. */
export function hearing(stream, now) {
  return stream !== null && stream.spoke && now - stream.heard < QUIET_MS;
}

/** Whether an open stream has been silent so long that it is opened again. */
export function tooQuiet(stream, now) {
  return stream !== null && now - stream.heard > QUIET_MS;
}

/** A pushed pulse message, "the pulse URL it answers\nthe answer": its parts and version. */
export function splitPulse(data) {
  const cut = data.indexOf("\n");
  const answer = data.slice(cut + 1);
  return { answers: data.slice(0, cut), answer, version: answerVersion(answer) };
}

/** Whether a version the stream said is news to a page that shows `shown` (its
 * #pulse's data-version as written, or null without a pulse): then it polls. */
export function isNews(shown, said) {
  return shown !== null && shown !== said;
}

/** Whether a page that shows version `shown` (a number, or null without a pulse) is behind
 * the latest version its stream said. */
export function behind(shown, latest) {
  return latest !== null && shown !== null && shown < latest;
}

/** What a page does with a pulse's answer its stream brought:
 * "swap" it in as a poll's answer (the page shows the pulse it answers), "poll" for its own
 * (it shows another pulse and is behind), "wait" (a tap of its own is under way: the tap's
 * answer brings the change, and a page still behind polls once it is answered), or
 * "nothing" (no pulse on the page, no version in the answer, or nothing to catch up).
 *
 * page: {pulse: the #pulse's hx-get, or null; tapping; canSwap: htmx can swap it;
 * behind: whether it is behind once the stream said this answer's version}.
 */
export function pushAction(page, pushed) {
  if (page.pulse === null || pushed.version === null) {
    return "nothing";
  }
  if (page.tapping) {
    return "wait";
  }
  if (page.pulse === pushed.answers && page.canSwap) {
    return "swap";
  }
  return page.behind ? "poll" : "nothing";
}

/** Whether an answer showing `version` is older than what the page shows (`shown`): it is
 * not swapped in (a poll sent before a change the page has since shown). */
export function staleAnswer(version, shown) {
  return version !== null && version < shown;
}

/** After a request is answered: does the page poll again, and what does it remember?
 *
 * request: {successful, behind (the page, once the answer is in), fromPulse (the request
 * was the #pulse's poll), status}; chased: the version a poll that found nothing new was
 * last sent again after; latest: the version the stream said. A page behind polls again,
 * except that a pulse poll answered "nothing new" (204: read just before the change)
 * is chased once per version, not in a loop: the TICK_MS timer polls after that.
 * Returns {poll, chased}.
 */
export function chase(request, chased, latest) {
  if (!request.successful || !request.behind) {
    return { poll: false, chased };
  }
  if (request.fromPulse && request.status === 204) {
    if (chased === latest) {
      return { poll: false, chased };
    }
    return { poll: true, chased: latest };
  }
  return { poll: true, chased };
}

/** Whether the TICK_MS timer polls: a page shown, that does not hear its stream or is
 * behind what it said. */
export function shouldPoll(visible, isHearing, isBehind) {
  return visible && (!isHearing || isBehind);
}

/** The requests of taps still under way (opened, not done; an aborted one is unsent again). */
export function underWay(requests) {
  return requests.filter((xhr) => xhr.readyState > 0 && xhr.readyState < 4);
}

/** Whether a page that hears its stream has heard nothing for longer than the stream's
 * heartbeat allows: it is then lost (connection()) and asks with a poll (askNow()), which
 * brings it back at once if the server is there and only its stream died.
 * page: {now, streaming, heard, since}, as for connection(). */
export function silent(page) {
  return page.streaming && page.now - Math.max(page.heard, page.since)
    > HEARTBEAT_MS + STREAM_GRACE_MS;
}

/** Whether a page whose stream went silent sends a poll to ask now: at once, then every
 * ASK_EVERY_MS until it hears (asked: when it last asked, or null). */
export function askNow(isSilent, asked, now) {
  return isSilent && (asked === null || now - asked >= ASK_EVERY_MS);
}

/** Whether a page has lost its table: "live", "lost" (it says "Reconnecting…") or "idle"
 * (it follows nothing). page: {now, online, following, streaming, heard, since}: heard is
 * when it last heard the server (a stream message, an answered request), since when it
 * started listening the way it does now (the page opened, the stream opened or dropped). */
export function connection(page) {
  if (!page.following) {
    return "idle";
  }
  if (!page.online) {
    return "lost";
  }
  const quiet = page.now - Math.max(page.heard, page.since);
  const allowed = page.streaming ? HEARTBEAT_MS + STREAM_GRACE_MS : LOST_MS;
  return quiet > allowed ? "lost" : "live";
}

/** Whether a page that was lost and hears again polls at once, to catch up. */
export function caughtUp(was, now) {
  return was === "lost" && now === "live";
}

/** The order of the pages a screen asked for (boosted links and forms whose answer is a
 * whole page): each is numbered when asked (ask), and a page asked for before the one
 * shown is never shown over it (mayShow). A tap's answer that is a page (the dealer set,
 * then the start page) may come after a page asked for later; showing it would take the
 * newer page away. */
export function pageOrder() {
  let asked = 0;
  let shown = 0;
  return {
    ask() {
      asked += 1;
      return asked;
    },
    mayShow(number) {
      if (number < shown) {
        return false;
      }
      shown = number;
      return true;
    },
  };
}
