"""The JavaScript's own unit tests (tests/js/, Node's built-in runner), run with the suite.

The pages' decisions that need no browser (static/app/sync.js: the live-sync protocol;
static/app/taps.js: when a tap is sent again, when it is stale; static/app/slip.js: the
sealing) are tested with ``node --test``, with a check that the module graph resolves. Without
Node on the machine they are skipped with a message (CI has it: it installs the npm
packages with it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests" / "js"


def test_the_javascript_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed: the JavaScript unit tests (tests/js) cannot run")
        pytest.skip("node is not installed: the JavaScript unit tests (tests/js) did not run")
    files = sorted(str(path) for path in [*TESTS.glob("*.test.js"), *TESTS.glob("*.test.mjs")])
    assert files, "no JavaScript tests in tests/js"
    done = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout, done.stdout[-2000:]
