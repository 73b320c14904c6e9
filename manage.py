#!/usr/bin/env python3
"""The two commands of the companion, for a fresh machine with only Python 3.11+.

    python3 manage.py serve     run the app for the table (SQLite, LAN, QR in the terminal)
    python3 manage.py test      run the whole test suite

Either one first makes ``.venv`` (once) and installs the project into it
(again whenever ``pyproject.toml`` changes), then re-runs itself inside it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".companion-installed"
RULES_COVERAGE_GOAL = 95
PARALLEL = ["-n", os.environ.get("COMPANION_TEST_WORKERS", "auto"), "--dist", "loadfile"]
"""pytest-xdist: a worker per core (``COMPANION_TEST_WORKERS`` to choose), each test file's
tests on one worker (a worker's browser tests share its live server and its Chromium)."""


def ensure_venv() -> None:
    """Make the virtualenv and install the project (with its test extra) when needed."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not PYTHON.exists():
        print("Making a virtualenv in .venv (once) …", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        print("Installing the companion and its test tools into .venv …", flush=True)
        pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        subprocess.run([*pip, "-e", f"{ROOT}[test]"], check=True)
        STAMP.write_text(wanted)


def in_venv() -> bool:
    """True when this process already runs on the project's virtualenv."""
    return Path(sys.prefix).resolve() == VENV.resolve()


def lan_address() -> str:
    """The address phones on the same network should use for this machine.

    A UDP ``connect`` only picks the outgoing interface; it sends no packet.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
            if not address.startswith("127.") and address != "0.0.0.0":
                return address
    except OSError:
        pass
    try:
        for address in socket.gethostbyname_ex(socket.gethostname())[2]:
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    return "127.0.0.1"


def serve(args: list[str]) -> int:
    """Apply migrations, print the address and its QR code, and serve on the LAN."""
    port = int(os.environ.get("PORT", "5000"))
    public_url = os.environ.get("COMPANION_PUBLIC_URL") or f"http://{lan_address()}:{port}"
    os.environ["COMPANION_PUBLIC_URL"] = public_url
    upgrade = [str(PYTHON), "-m", "flask", "--app", "companion", "db", "upgrade"]
    subprocess.run(upgrade, check=True, cwd=ROOT)
    import qrcode  # installed in .venv by ensure_venv

    qr = qrcode.QRCode(border=2)
    qr.add_data(public_url)
    print("\nThe companion is running. Scorekeeper: open this address on the tablet;")
    print("phones on the same Wi-Fi can scan this code:\n")
    qr.print_ascii(invert=True)
    print(f"\n    {public_url}\n\n(Ctrl+C stops it.)\n", flush=True)
    if os.name == "nt":
        command = [str(PYTHON), "-m", "flask", "--app", "companion", "run",
                   "--host", "0.0.0.0", "--port", str(port)]
    else:
        # gunicorn.conf.py: one worker, made after the app (so it holds the ballot key).
        command = [str(BIN / "gunicorn"), "-c", str(ROOT / "gunicorn.conf.py"),
                   "--bind", f"0.0.0.0:{port}", "--access-logfile", "-", *args,
                   "companion:create_app()"]
    try:
        return subprocess.run(command, cwd=ROOT).returncode
    except KeyboardInterrupt:
        return 0


def front_end_installed() -> bool:
    """True when node_modules holds every package of package.json at its pinned version."""
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    for name, version in pinned.items():
        installed = ROOT / "node_modules" / name / "package.json"
        if not installed.is_file() or json.loads(installed.read_text(encoding="utf-8")).get(
                "version") != version:
            return False
    return True


def fetch_front_end() -> None:
    """With npm here, install package.json's packages (``npm ci``) when they are not yet.

    Nothing needs them to serve or to test the app: static/vendor/ holds the
    files it serves. With them the tests also check those files byte for byte.
    """
    if not shutil.which("npm") or front_end_installed():
        return
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                   cwd=ROOT, check=False)


def took(seconds: float) -> str:
    """``seconds`` as minutes and seconds, for the times ``manage.py test`` prints."""
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{rest} s"


def test(args: list[str]) -> int:
    """Run pytest; with no arguments, the whole suite with the rules coverage goal.

    The rules layer is tested on its own (``tests/rules``, and the doctests of
    ``companion/rules`` and of each game's ``companion/games/<game>/rules``): those run under
    coverage, whose goal is the rules' branch coverage; the rest of the suite runs without
    it, since coverage's tracer slows every test it runs under, the web and browser tests
    most (``docs/performance.md``). Both parts run on a worker per core (pytest-xdist), and
    the time each part took is printed at the end. With arguments, pytest gets them as they
    are (add ``-n auto`` to run them in parallel too).
    """
    fetch_front_end()
    pytest = [str(PYTHON), "-m", "pytest"]
    if args:
        return subprocess.run([*pytest, *args], cwd=ROOT).returncode
    games = sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("companion/games/*/rules*")
                   if path.suffix == ".py" or path.is_dir())
    rules = ["tests/rules", "companion/rules", *games]
    started = time.monotonic()
    code = subprocess.run([*pytest, *PARALLEL, "--cov", "--cov-report=", "-q", *rules],
                          cwd=ROOT).returncode
    measured = ",".join(["companion/rules/*", *(f"{game}*" for game in games)])
    report = [str(PYTHON), "-m", "coverage", "report", f"--include={measured}",
              "--skip-empty", f"--fail-under={RULES_COVERAGE_GOAL}"]
    print(f"\nBranch coverage of the rules: companion/rules and each game's rules "
          f"(goal {RULES_COVERAGE_GOAL}%):", flush=True)
    covered = subprocess.run(report, cwd=ROOT).returncode
    rules_done = time.monotonic()
    rest = [f"--ignore={path}" for path in rules]
    others = subprocess.run([*pytest, *PARALLEL, "-q", "--durations=15", *rest],
                            cwd=ROOT).returncode
    done = time.monotonic()
    print(f"\nThe suite took {took(done - started)}: the rules with their coverage "
          f"{took(rules_done - started)}, the rest (web, store, browser) "
          f"{took(done - rules_done)}.", flush=True)
    return code or covered or others


def main() -> int:
    """Dispatch ``serve`` or ``test``."""
    command, *args = sys.argv[1:] or ["help"]
    if command not in ("serve", "test"):
        print(__doc__)
        return 0 if command in ("help", "-h", "--help") else 2
    if not in_venv():
        ensure_venv()
        return subprocess.run([str(PYTHON), str(Path(__file__).resolve()), command, *args],
                              cwd=ROOT).returncode
    return serve(args) if command == "serve" else test(args)


if __name__ == "__main__":
    sys.exit(main())
