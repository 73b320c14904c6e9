/* The words the front end writes itself, in the page's language.
 *
 * The page gives them translated as JSON in <script type="application/json" id="words">
 * (templates/base.html, from companion/web/filters.py's front_end_words). Each is read when
 * it is said, so that a boosted page's words are the ones read, and each falls back to the
 * English its caller gives: a page without them, or a test, reads English.
 */

/** The page's words, by key (none: an empty object). */
function pageWords() {
  if (typeof document === "undefined" || !document.getElementById) {
    return {};
  }
  var element = document.getElementById("words");
  if (!element) {
    return {};
  }
  try {
    var words = JSON.parse(element.textContent || "{}");
    return words && typeof words === "object" ? words : {};
  } catch (error) {
    return {};
  }
}

/** ``text`` with each {name} replaced by values[name] (a name it lacks is left as it is). */
export function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, function (whole, name) {
    return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
  });
}

/** The page's word for ``key`` (its ``english`` when the page has none), filled with ``values``. */
export function word(key, english, values) {
  var words = pageWords();
  var text = typeof words[key] === "string" ? words[key] : english;
  return values ? fill(text, values) : text;
}
