// static/app/ is native ES modules with no build step: every import names a module that
// exists and exports the names imported, boot.js reaches every module, and the decisions
// (sync.js, taps.js) touch no page. `node --test tests/js/`.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import test from "node:test";

const APP = new URL("../../static/app/", import.meta.url);
const MODULES = readdirSync(APP).filter((name) => name.endsWith(".js")).sort();
const IMPORT = /^\s*import\s+(?:([^;"']*?)\s+from\s+)?["']([^"']+)["'];/gm;

function importsOf(name) {
  const source = readFileSync(new URL(name, APP), "utf8");
  return [...source.matchAll(IMPORT)].map((found) => ({
    names: found[1] ? found[1].replace(/[{}]/g, "").split(",").map((n) => n.trim())
      .filter(Boolean) : [],
    from: found[2],
  }));
}

test("static/app holds the modules boot.js starts", () => {
  assert.ok(MODULES.includes("boot.js"));
  assert.ok(MODULES.length >= 8, MODULES.join(", "));
});

test("every import names a module of static/app by a relative path ending in .js", () => {
  for (const name of MODULES) {
    for (const { from } of importsOf(name)) {
      assert.match(from, /^\.\/[a-z-]+\.js$/, `${name} imports ${from}`);
      assert.ok(existsSync(new URL(from, APP)), `${name} imports ${from}, which is missing`);
    }
  }
});

test("every module loads, and exports each name another one imports from it", async () => {
  // boot.js starts the page at once unless the page is still loading: a page that is.
  const listened = [];
  globalThis.document = { readyState: "loading",
                          addEventListener: (type) => listened.push(type) };
  try {
    for (const name of MODULES) {
      const module = await import(new URL(name, APP));
      for (const other of MODULES) {
        for (const { names, from } of importsOf(other)) {
          if (from !== "./" + name) {
            continue;
          }
          for (const imported of names) {
            assert.ok(imported in module, `${other} imports ${imported} from ${name}`);
          }
        }
      }
    }
  } finally {
    delete globalThis.document;
  }
  assert.deepEqual(listened, ["DOMContentLoaded"], "boot.js waits for the page, once");
});

test("boot.js reaches every module of static/app (none is left out of the page)", () => {
  const reached = new Set(["boot.js"]);
  const queue = ["boot.js"];
  while (queue.length) {
    for (const { from } of importsOf(queue.shift())) {
      const name = from.slice(2);
      if (!reached.has(name)) {
        reached.add(name);
        queue.push(name);
      }
    }
  }
  assert.deepEqual([...reached].sort(), MODULES);
});

test("the decisions (sync.js, taps.js) touch no page and no global", () => {
  for (const name of ["sync.js", "taps.js"]) {
    const source = readFileSync(new URL(name, APP), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert.doesNotMatch(source, /\b(window|document|navigator|globalThis|htmx|EventSource)\b/,
                        name);
    assert.doesNotMatch(source, /\bDate\.now\(|Math\.random\(/, `${name}: time and chance are arguments`);
    for (const { from } of importsOf(name)) {
      assert.ok(["./sync.js", "./taps.js"].includes(from), `${name} imports ${from}`);
    }
  }
});
