#!/usr/bin/env node
// The companion's pure rules (companion/rules/, companion/games/<game>/rules.py), run by
// Python compiled to WebAssembly (Pyodide, from node_modules/pyodide: no network), the way
// a tablet's browser would run them with no server (issue 42's first step).
//
//   node scripts/pyodide_rules.mjs [records.json]     (no file: the JSON on stdin)
//
// The input is one record or a list of them; the output, on stdout, is the same shape: for
// each record, companion.rules.replay(record) for a game record (it has "game"), or
// companion.rules.evening(record) for an evening record (no "game"; "unit" or "games"),
// or {"error": code, "message": text} when the record breaks the rules (RuleError). The
// records go to Python as text and come back as text: JavaScript never parses them, so
// no number is rounded on the way. One start of Pyodide serves the whole list.
//
// --times writes how long the start and the replays took to stderr.
//
// As a module: startRules() gives { pyodide, run(text) → text }.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the files go in Pyodide's file system (put first on sys.path). */
export const PLACE = "/companion-app";

/** The .py files under `folder` (relative to `root`), at any depth. */
function pythonFiles(root, folder) {
  const found = [];
  for (const name of readdirSync(join(root, folder)).sort()) {
    const path = join(folder, name);
    const full = join(root, path);
    if (statSync(full).isDirectory()) {
      if (name !== "__pycache__") found.push(...pythonFiles(root, path));
    } else if (name.endsWith(".py")) {
      found.push(path);
    }
  }
  return found;
}

/**
 * The files the rules need, relative to `root`: the package companion (its __init__ imports
 * only the standard library), the common rules (companion/rules/), and each game's folder's
 * __init__ and rules (rules.py, or a package rules/): what companion.rules.games finds for a
 * registered game. Nothing of the web or the store.
 */
export function rulesFiles(root = ROOT) {
  const files = ["companion/__init__.py", ...pythonFiles(root, "companion/rules"),
                 "companion/games/__init__.py"];
  const games = join(root, "companion", "games");
  for (const game of readdirSync(games).sort()) {
    const folder = join(games, game);
    if (!statSync(folder).isDirectory() || game === "__pycache__") continue;
    for (const name of ["__init__.py", "rules.py"]) {
      try {
        if (statSync(join(folder, name)).isFile()) files.push(`companion/games/${game}/${name}`);
      } catch { /* not there */ }
    }
    try {
      if (statSync(join(folder, "rules")).isDirectory())
        files.push(...pythonFiles(root, `companion/games/${game}/rules`));
    } catch { /* not there */ }
  }
  return files.map((path) => path.split(sep).join("/"));
}

const RUNNER = `
import json

from companion.rules import RuleError, evening, replay


def _one(record):
    """One record's result: its replay, or its evening's ledger, or the rule it breaks."""
    is_evening = (isinstance(record, dict) and "game" not in record
                  and ("unit" in record or "games" in record))
    try:
        return evening(record) if is_evening else replay(record)
    except RuleError as err:
        return {"error": err.code, "message": str(err)}


def run(text):
    """The results of the records in \`text\` (JSON: one record or a list), as JSON."""
    data = json.loads(text)
    out = [_one(r) for r in data] if isinstance(data, list) else _one(data)
    return json.dumps(out, ensure_ascii=False)
`;

/** Start Pyodide with the rules in its file system; `run(text)` replays records (JSON). */
export async function startRules({ root = ROOT } = {}) {
  const pyodide = await loadPyodide();
  for (const path of rulesFiles(root)) {
    const target = `${PLACE}/${path}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(join(root, path)));
  }
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(PLACE)})`);
  const scope = pyodide.globals.get("dict")();
  pyodide.runPython(RUNNER, { globals: scope });
  const runner = scope.get("run");
  return { pyodide, run: (text) => runner(text) };
}

async function readInput(file) {
  if (file) return readFileSync(file, "utf8");
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

async function main(argv) {
  const times = argv.includes("--times");
  const file = argv.find((arg) => !arg.startsWith("--"));
  const text = await readInput(file);
  const started = performance.now();
  const rules = await startRules();
  const ready = performance.now();
  const out = rules.run(text);
  const done = performance.now();
  process.stdout.write(out + "\n");
  if (times) {
    process.stderr.write(`start ${Math.round(ready - started)} ms, `
                         + `replays ${Math.round(done - ready)} ms\n`);
  }
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === "") {
  await main(process.argv.slice(2));
}
