"""The README's commands work as written, in a fresh shell.

A newcomer copies a command from the README into a new terminal: no virtualenv
activated, nothing of ours on the ``PATH``, no variables set. These tests take the
commands out of the README's ``sh`` blocks, run each in such a shell (``env -i``, the
system's ``PATH``) in a copy of the repository, and check what the README promises of it.

``python3 manage.py test`` is the one command not run here: it is this suite, and CI runs
it exactly as written (``.ci/run``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import urllib.request
from pathlib import Path

import pytest

from tests.test_entrypoint import fresh_database  # noqa: F401 (a fixture)
from tests.waiting import HANG, wait_until

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FRESH_PATH = "/usr/local/bin:/usr/bin:/bin"
"""A new login shell's ``PATH`` on Debian: the system's Python, nothing of the project's."""


def sh_blocks(text: str) -> dict[str, list[str]]:
    """The README's ``sh`` blocks by the heading above them: their command lines, without
    comments or blank lines (a trailing ``# …`` comment is cut off)."""
    blocks: dict[str, list[str]] = {}
    heading = ""
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = not inside and line.strip() == "```sh"
            if inside:
                blocks.setdefault(heading, [])
            continue
        if inside:
            command = re.sub(r"\s+#\s.*$", "", line).strip()
            if command and not command.startswith("#"):
                blocks[heading].append(command)
        elif line.startswith("#"):
            heading = line.lstrip("#").strip()
    return blocks


def test_sh_blocks_reads_commands_under_their_heading():
    text = ("# A\n```sh\nrun this   # why\n# only a comment\n\nand this\n```\n"
            "## B\n```\nnot sh\n```\n")
    assert sh_blocks(text) == {"A": ["run this", "and this"]}


BLOCKS = sh_blocks(README.read_text(encoding="utf-8"))


def test_the_readme_gives_exactly_two_commands():
    assert BLOCKS["Two commands"] == ["python3 manage.py serve", "python3 manage.py test"]


def fresh_copy(tmp_path: Path, venv: bool = True) -> Path:
    """The repository's tracked files in a new folder, with this machine's ``.venv`` (the
    one the first run makes: making it again here would only time pip), or none."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    copy = tmp_path / "companion"
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    if venv:
        (copy / ".venv").symlink_to((ROOT / ".venv").resolve(), target_is_directory=True)
    return copy


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fresh_shell(command: str, cwd: Path, home: Path, **variables: str) -> subprocess.Popen:
    """``command`` in a new shell with nothing of this session's environment, in its own
    process group (so that stopping it stops what it started)."""
    environment = {"HOME": str(home), "PATH": FRESH_PATH, "LANG": "C.UTF-8", **variables}
    return subprocess.Popen(["env", "-i", *(f"{k}={v}" for k, v in environment.items()),
                             "bash", "-c", command], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def read_aloud(shell: subprocess.Popen) -> list[str]:
    """Every line ``shell`` prints, gathered by a thread as it comes."""
    said: list[str] = []
    threading.Thread(target=lambda: said.extend(shell.stdout), daemon=True).start()
    return said


def stop(shell: subprocess.Popen) -> None:
    """Ctrl+C to the shell's whole process group, as a person stops it."""
    os.killpg(shell.pid, signal.SIGINT)
    try:
        shell.wait(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(shell.pid, signal.SIGKILL)
        shell.wait()


def answers(address: str, said: list[str], shell: subprocess.Popen, *,
            seconds: float = HANG) -> str:
    """The page at ``address``, once it answers (a hang fails at the ceiling)."""
    def page() -> str | None:
        assert shell.poll() is None, "it stopped:\n" + "".join(said)
        try:
            with urllib.request.urlopen(address, timeout=HANG) as answer:
                return answer.read().decode() if answer.status == 200 else None
        except OSError:
            return None
    return wait_until(page, lambda: f"{address} never answered:\n" + "".join(said),
                      every=0.2, seconds=seconds)


@pytest.mark.skipif(not (ROOT / ".venv").is_dir(), reason="the first run has not made .venv")
def test_serve_as_written_prints_the_address_and_its_qr_and_serves_it(tmp_path):
    copy = fresh_copy(tmp_path)
    port = free_port()
    shell = fresh_shell(BLOCKS["Two commands"][0], copy, tmp_path, PORT=str(port))
    said = read_aloud(shell)
    try:
        def address() -> str | None:
            for line in list(said):
                found = re.fullmatch(rf"\s*(http://\S+:{port})\s*", line)
                if found:
                    return found.group(1)
            assert shell.poll() is None, "serve stopped:\n" + "".join(said)
            return None
        shown = wait_until(address, lambda: "no address printed:\n" + "".join(said))
        assert any("\u2588" in line or "\u2580" in line for line in said), \
            "no QR code was printed"
        assert "<html" in answers(shown + "/", said, shell)
        assert (copy / "instance").is_dir(), "serve keeps its SQLite in instance/"
    finally:
        stop(shell)


PLACEHOLDERS = {
    "DATABASE_URL": "postgresql://user:password@host/dbname",
    "COMPANION_PUBLIC_URL": "https://companion.example.org",
}
"""The deploy block's values a reader puts their own in for: the test puts its own."""


def test_the_deploy_commands_name_only_placeholders_a_reader_replaces():
    exports = dict(re.findall(r"^export (\w+)=(\S+)$", "\n".join(BLOCKS[DEPLOY]), re.M))
    assert {name: exports.get(name) for name in PLACEHOLDERS} == PLACEHOLDERS


DEPLOY = next(heading for heading in BLOCKS if heading.startswith("Deploying"))


@pytest.mark.db
def test_the_deploy_commands_as_written_migrate_and_serve(tmp_path, fresh_database):  # noqa: F811
    """The Procfile host's commands, in a fresh shell in a fresh clone (a new virtualenv,
    the project installed from PyPI's packages): the migrations applied, gunicorn serving.
    The database and public address are the test's (the README's are placeholders)."""
    copy = fresh_copy(tmp_path, venv=False)
    url = fresh_database
    written = "\n".join(BLOCKS[DEPLOY])
    for name, placeholder in PLACEHOLDERS.items():
        value = url if name == "DATABASE_URL" else "http://127.0.0.1"
        written = written.replace(f"export {name}={placeholder}", f"export {name}={value}")
    port = free_port()
    shell = fresh_shell("set -e\n" + written, copy, tmp_path, PORT=str(port),
                        PIP_DISABLE_PIP_VERSION_CHECK="1")
    said = read_aloud(shell)
    try:
        page = answers(f"http://127.0.0.1:{port}/", said, shell, seconds=10 * HANG)
        assert "<html" in page
    finally:
        stop(shell)
