#!/usr/bin/env node
// Can the whole app (Flask, Jinja, SQLAlchemy on SQLite) start on Pyodide from local files
// only? A measurement for issue 42, not a test: it prints what it found.
//
//   node scripts/pyodide_app_probe.mjs WHEELS [--stub NAME,...] [--fake-scrypt]
//
// WHEELS is a folder of the app's dependencies as pure-Python wheels (*.whl) and, for a
// package with no pure wheel but a pure fallback (markupsafe), its sdist (*.tar.gz: its
// src/<package>/ is taken), e.g. for each of the app's packages (pyproject.toml):
//   pip download --no-deps --only-binary=:all: --platform any --python-version 3.14 \
//       --implementation py --abi none -d WHEELS flask==3.1.3 ...
//   pip download --no-deps --no-binary=:all: -d WHEELS markupsafe==3.0.4
// Each is unpacked into Pyodide's site-packages (no micropip: it
// is not in the npm package), the app's files (package.json, companion/, templates/, static/) are put in
// its file system, then create_app() runs on SQLite in Pyodide's memory file system, the
// tables are made, the front page is asked of Flask's test client twice, then a table is
// made (the create-table form, POST) and its page asked twice.
// --stub NAME,... puts an empty module in sys.modules for each NAME first (a package with
// no WebAssembly build here), to see how far the app gets without it; --fake-scrypt puts a
// stand-in (NOT scrypt) for hashlib.scrypt, which Pyodide's hashlib lacks (no OpenSSL).

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadPyodide } from "pyodide";
import { ROOT } from "./pyodide_rules.mjs";

const PLACE = "/companion-app";
const argv = process.argv.slice(2);
const wheels = argv.find((arg) => !arg.startsWith("--"));
const stubAt = argv.indexOf("--stub");
const stubs = stubAt >= 0 ? argv[stubAt + 1].split(",") : [];
const fakeScrypt = argv.includes("--fake-scrypt");
if (!wheels) {
  console.error("usage: node scripts/pyodide_app_probe.mjs WHEELS [--stub NAME,...]");
  process.exit(2);
}

function files(folder) {
  const found = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    const path = `${folder}/${name}`;
    if (name === "__pycache__" || name.endsWith(".pyc")) continue;
    if (statSync(join(ROOT, path)).isDirectory()) found.push(...files(path));
    else found.push(path);
  }
  return found;
}

const times = {};
let mark = performance.now();
const lap = (name) => { const now = performance.now(); times[name] = Math.round(now - mark); mark = now; };

const pyodide = await loadPyodide();
lap("pyodide_start_ms");

pyodide.FS.mkdirTree("/wheels");
for (const name of readdirSync(wheels).sort()) {
  pyodide.FS.writeFile(`/wheels/${name}`, readFileSync(join(wheels, name)));
}
pyodide.runPython(`
import os, sys, sysconfig, tarfile, zipfile
site = sysconfig.get_paths()["purelib"]
for name in sorted(os.listdir("/wheels")):
    path = "/wheels/" + name
    if name.endswith(".whl"):
        zipfile.ZipFile(path).extractall(site)
    elif name.endswith(".tar.gz"):
        with tarfile.open(path) as sdist:
            for member in sdist.getmembers():
                parts = member.name.split("/")
                if len(parts) > 3 and parts[1] == "src" and member.isfile():
                    target = os.path.join(site, *parts[2:])
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with open(target, "wb") as out:
                        out.write(sdist.extractfile(member).read())
`);
lap("unpack_wheels_ms");

let bytes = 0;
const appFiles = ["package.json", ...files("companion"), ...files("templates"), ...files("static")];
for (const path of appFiles) {
  const target = `${PLACE}/${path}`;
  const data = readFileSync(join(ROOT, path));
  bytes += data.length;
  pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
  pyodide.FS.writeFile(target, data);
}
lap("app_files_ms");

const report = pyodide.runPython(`
import importlib, json, sys, time, traceback, types
sys.path.insert(0, ${JSON.stringify(PLACE)})
class _Anything:
    """What a stubbed module gives for any name: callable, subclassable, anything."""
    def __init__(self, *args, **kwargs): pass
    def __call__(self, *args, **kwargs): return _Anything()
    def __getattr__(self, name): return _Anything()
class _Stub(types.ModuleType):
    __path__ = []
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return type(name, (_Anything,), {})
class _Stubs:
    """Serves every module under a stubbed name as a _Stub."""
    def find_spec(self, name, path=None, target=None):
        import importlib.machinery
        if name.split(".")[0] in ${JSON.stringify(stubs)}:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec): return _Stub(spec.name)
    def exec_module(self, module): pass
sys.meta_path.insert(0, _Stubs())
if ${fakeScrypt ? "True" : "False"}:
    import hashlib
    def _scrypt(password, *, salt, n, r, p, maxmem=0, dklen=64):
        """NOT scrypt: a stand-in so the probe gets past werkzeug's password hash."""
        return hashlib.sha512(salt + password).digest()[:dklen]
    hashlib.scrypt = _scrypt
imports_started = time.perf_counter()
found = {"stubbed": ${JSON.stringify(stubs)}, "fake_scrypt": ${fakeScrypt ? "True" : "False"},
         "imports": {}}
for module in ["flask", "jinja2", "markupsafe", "sqlalchemy", "flask_sqlalchemy", "flask_babel",
               "flask_wtf", "flask_migrate", "flask_limiter", "limits", "flask_compress",
               "qrcode", "markdown", "nacl", "gevent", "psycopg", "redis", "sqlite3"]:
    try:
        importlib.import_module(module)
        found["imports"][module] = "ok"
    except BaseException as error:
        found["imports"][module] = f"{type(error).__name__}: {error}"
found["imports_ms"] = round((time.perf_counter() - imports_started) * 1000)
started = time.perf_counter()
try:
    from companion import create_app
    from companion.extensions import db
    app = create_app({"TESTING": True, "SECRET_KEY": "probe", "PUBLIC_URL": "",
                      "SQLALCHEMY_DATABASE_URI": "sqlite:////tmp/companion.sqlite3",
                      "RATELIMIT_STORAGE_URI": "memory://", "RATELIMIT_ENABLED": False})
    found["create_app_ms"] = round((time.perf_counter() - started) * 1000)
    with app.app_context():
        db.create_all()
    client = app.test_client()
    for attempt in ("first_request", "later_request"):
        started = time.perf_counter()
        page = client.get("/")
        found[attempt] = {"status": page.status_code, "bytes": len(page.data),
                          "ms": round((time.perf_counter() - started) * 1000)}
    import re
    found["front_page_title"] = re.search(r"<title>([^<]*)</title>", page.get_data(as_text=True)).group(1)
    form = client.get("/new?game=tremp&seats=4").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    started = time.perf_counter()
    made = client.post("/new", data={
        "csrf_token": token.group(1) if token else "", "name": "Probe", "game": "tremp",
        "seats": "4", "player": ["Ana", "Ben", "Cleo", "Dev"], "dealer": "1"})
    found["new_table"] = {"status": made.status_code, "to": made.headers.get("Location"),
                          "ms": round((time.perf_counter() - started) * 1000)}
    if made.headers.get("Location"):
        for attempt in ("table_page", "table_page_again"):
            started = time.perf_counter()
            page = client.get(made.headers["Location"])
            found[attempt] = {"status": page.status_code, "bytes": len(page.data),
                              "ms": round((time.perf_counter() - started) * 1000)}
        found["table_page_names"] = [n for n in ("Ana", "Ben", "Cleo", "Dev")
                                     if n in page.get_data(as_text=True)]
except BaseException as error:
    found["failed"] = traceback.format_exc()[-3000:]
json.dumps(found)
`);
lap("python_ms");
console.log(JSON.stringify({ ...times, app_bytes: bytes, app_files: appFiles.length,
                             ...JSON.parse(report) }, null, 1));
