#!/usr/bin/env python3
"""Build what a table on this device runs in the tablet's browser (issue 42): one zip of the
app (the companion package, templates, static files, package.json, the translations
compiled) and the pure-Python packages it imports, taken from this server's own
site-packages at the versions installed here.

    python scripts/build_offline.py [--out FOLDER]

FOLDER (default: instance/offline/, ignored by git) gets ``app-<hash>.zip`` and
``offline.json`` (its name, the Pyodide version, sizes), which ``/here`` reads
(``companion.web.here``). Which packages: those a fresh offline app imports while it makes a
table and draws its pages, found by running it (in a child process); from each, its Python
files and data, never a compiled module (.so: markupsafe and SQLAlchemy then run their
pure-Python code); of babel's locale data only the app's languages. Skipped when
node_modules/pyodide is absent (``npm ci`` installs it).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"
LANGUAGES = ("en", "fr", "de", "nb")
NOT_IN_THE_BROWSER = {
    # compiled, with no pure-Python code to fall back on; the offline app does without them
    "nacl", "cffi", "_cffi_backend", "gevent", "greenlet", "zope", "psycopg", "psycopg_binary",
    "brotli", "_brotli", "redis", "PIL", "coverage", "pytest", "_pytest", "hypothesis",
    "pluggy", "iniconfig", "playwright", "pyee", "companion", "tests", "_distutils_hack",
    # imported by the server's process but not needed by the app's pages (markdown finds
    # no syntax highlighter and does without)
    "pygments",
}
COMPILED = (".so", ".pyd", ".pyc", ".dylib", ".c", ".h", ".pyx", ".pxd", ".cpp")

FIND_IMPORTS = r"""
import json, os, sys, tempfile
from companion import offline
here = offline.start(tempfile.mkdtemp(), "http://localhost")
page = here.answer("GET", offline.MOUNT + "/new?game=clumond&seats=3", [])["body"].decode()
import re
token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
made = here.answer("POST", offline.MOUNT + "/new",
                   [("Content-Type", "application/x-www-form-urlencoded")],
                   f"csrf_token={token}&name=Build&game=clumond&seats=3&player=A&player=B"
                   "&player=C&dealer=1".encode())
where = dict(made["headers"])["Location"].split("localhost", 1)[-1]
here.answer("GET", where, [("Accept-Language", "fr")])
here.answer("GET", offline.MOUNT + "/", [("Accept-Language", "de")])
site = [p for p in sys.path if p.endswith("site-packages")]
found = set()
for module in list(sys.modules.values()):
    path = getattr(module, "__file__", None) or ""
    for folder in site:
        if path.startswith(folder + os.sep):
            found.add(path[len(folder) + 1:].split(os.sep)[0].removesuffix(".py"))
from importlib.metadata import distribution, packages_distributions
owners = packages_distributions()
infos = {top: [str(distribution(name)._path.name) for name in owners.get(top, [])]
         for top in found}
print(json.dumps({"site": site[0], "top": sorted(found), "infos": infos}))
"""


def imported_packages() -> tuple[Path, list[str], dict[str, list[str]]]:
    """The site-packages folder, the top-level names the offline app imports there, and
    each one's distribution's metadata folder (.dist-info: packages read their versions)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", FIND_IMPORTS], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    found = json.loads(out.strip().splitlines()[-1])
    return Path(found["site"]), [
        name for name in found["top"]
        if name not in NOT_IN_THE_BROWSER and "." not in name and not name.startswith("__")
    ], found["infos"]


def _wanted(relative: str) -> bool:
    """Whether a file of a package goes in: no compiled module, no cache, and of babel's
    locale data only the app's languages."""
    parts = relative.split("/")
    if "__pycache__" in parts or relative.endswith(COMPILED):
        return False
    if parts[:2] == ["babel", "locale-data"]:
        return parts[2].removesuffix(".dat") in _locale_data()
    return True


def _locale_data() -> set[str]:
    """The babel locale data the app's languages read: each language's own and its parents'
    (``nb`` reads ``no``'s, which babel's data names as its parent), up to ``root``."""
    from babel.core import get_global

    exceptions = get_global("parent_exceptions")
    names = {"root"}
    for language in LANGUAGES:
        name = language
        while name != "root":
            names.add(name)
            name = exceptions.get(name) or ("_".join(name.split("_")[:-1]) or "root")
    return names


def _files(folder: Path, base: Path):
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            yield path, path.relative_to(base).as_posix()


def _compiled_translations(archive: zipfile.ZipFile) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted((ROOT / "companion" / "translations").glob("*/LC_MESSAGES/messages.po")):
        with po.open("rb") as handle:
            catalog = read_po(handle)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        archive.writestr(po.with_suffix(".mo").relative_to(ROOT).as_posix(), buffer.getvalue())


def build(out: Path) -> dict:
    """Write the zip and offline.json into ``out``; what offline.json says."""
    site, packages, infos = imported_packages()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        def put(path: Path, name: str) -> None:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # same bytes each time
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())

        put(ROOT / "package.json", "package.json")
        for path, name in _files(ROOT / "companion", ROOT):
            if "__pycache__" not in name and not name.endswith((".pyc", ".mo", ".po", ".pot")) \
                    and not name.startswith("companion/migrations/"):
                put(path, name)
        for path, name in _files(ROOT / "templates", ROOT):
            put(path, name)
        for path, name in _files(ROOT / "static", ROOT):
            if not name.startswith("static/here/"):
                put(path, name)
        _compiled_translations(archive)
        for top in packages:
            target = site / top
            if target.is_dir():
                for path, name in _files(target, site):
                    if _wanted(name):
                        put(path, "site/" + name)
            elif (site / f"{top}.py").is_file():
                put(site / f"{top}.py", f"site/{top}.py")
            for info in infos.get(top, []):
                for path, name in _files(site / info, site):
                    if not name.endswith("/RECORD"):
                        put(path, "site/" + name)
    data = buffer.getvalue()
    name = f"app-{hashlib.sha256(data).hexdigest()[:12]}.zip"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("app-*.zip"):
        if old.name != name:
            old.unlink()
    (out / name).write_bytes(data)
    pyodide_version = json.loads((PYODIDE / "package.json").read_text())["version"]
    said = {"zip": name, "bytes": len(data), "pyodide": pyodide_version, "packages": packages}
    (out / "offline.json").write_text(json.dumps(said, indent=1) + "\n")
    return said


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "instance" / "offline")
    args = parser.parse_args()
    if not (PYODIDE / "pyodide.mjs").is_file():
        print("node_modules/pyodide is absent (npm ci): nothing built")
        return 0
    said = build(args.out)
    print(f"{args.out / said['zip']}: {said['bytes']:,} bytes, "
          f"{len(said['packages'])} packages: {', '.join(said['packages'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
