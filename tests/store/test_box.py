"""The slips' ``box`` (companion.store.box): PyNaCl's on a server; in the browser's Python
(Pyodide), tweetnacl's through the bridge to JavaScript, and byte for byte the same.

The browser's side runs under Node: Pyodide from ``node_modules``, tweetnacl as the
worker gives it (``globalThis.nacl``), and ``companion/store/box.py`` as it is. Without
Node or ``node_modules`` the test is skipped with a message; with
``COMPANION_REQUIRE_BROWSER=1`` (CI) it fails instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from nacl.bindings import crypto_box, crypto_scalarmult_base
from nacl.public import PrivateKey

from companion.store import box
from tests.test_pyodide_rules import missing

ROOT = Path(__file__).resolve().parents[2]
BROWSER_BOX = r"""
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadPyodide } from "pyodide";

const require = createRequire(process.cwd() + "/");
globalThis.nacl = require("tweetnacl");
const pyodide = await loadPyodide();
pyodide.FS.writeFile("/box.py", readFileSync("companion/store/box.py"));
pyodide.globals.set("given", readFileSync(0, "utf8"));
console.log(pyodide.runPython(`
import json, sys
sys.path.insert(0, "/")
import box
given = json.loads(given)
h = bytes.fromhex
said = {"plain": box.PLAIN}
said["boxed"] = box.box(h(given["message"]), h(given["nonce"]), h(given["their_public"]),
                        h(given["my_private"])).hex()
said["opened"] = box.box_open(h(given["pynacl"]), h(given["nonce"]), h(given["my_public"]),
                              h(given["their_private"])).hex()
forged = bytearray(h(given["pynacl"]))
forged[-1] ^= 1
try:
    box.box_open(bytes(forged), h(given["nonce"]), h(given["my_public"]),
                 h(given["their_private"]))
    said["forged"] = "opened"
except box.BoxError:
    said["forged"] = "refused"
public, private = box.key_pair()
said["pair"] = [public.hex(), private.hex()]
said["random"] = len(box.random_bytes(24))
json.dumps(said)
`));
"""


def _pair() -> tuple[bytes, bytes]:
    private = PrivateKey.generate()
    return bytes(private.public_key), bytes(private)


def test_a_server_seals_with_pynacl():
    assert box.PLAIN is False
    public, private = box.key_pair()
    nonce = box.random_bytes(box.NONCE_BYTES)
    message = b"Ann votes Bo"
    assert box.box_open(box.box(message, nonce, public, private), nonce, public,
                        private) == message
    with pytest.raises(box.BoxError):
        box.box_open(b"\0" * 40, nonce, public, private)


def test_in_the_browser_the_box_is_tweetnacls_with_pynacls_bytes():
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir() or not (
            ROOT / "node_modules" / "tweetnacl").is_dir():
        missing("Node, node_modules/pyodide or node_modules/tweetnacl is missing (npm ci)")
    mine, my_private = _pair()
    theirs, their_private = _pair()
    nonce, message = os.urandom(box.NONCE_BYTES), "Cleo → Dev ✓".encode()
    given = {"message": message.hex(), "nonce": nonce.hex(), "their_public": theirs.hex(),
             "my_private": my_private.hex(), "my_public": mine.hex(),
             "their_private": their_private.hex(),
             "pynacl": crypto_box(message, nonce, theirs, my_private).hex()}
    script = ROOT / "test-output" / "browser_box.mjs"
    script.parent.mkdir(exist_ok=True)
    script.write_text(BROWSER_BOX, encoding="utf-8")
    ran = subprocess.run([node, str(script)], cwd=ROOT, input=json.dumps(given),
                         capture_output=True, text=True, timeout=600, check=False,
                         env={**os.environ, "NODE_PATH": str(ROOT / "node_modules")})
    assert ran.returncode == 0, ran.stderr
    said = json.loads(ran.stdout.strip().splitlines()[-1])
    assert said["plain"] is True
    # the browser's box of a message is PyNaCl's, byte for byte …
    assert said["boxed"] == crypto_box(message, nonce, theirs, my_private).hex()
    # … it opens PyNaCl's (sealed by "mine" to "theirs": opened with their private key) …
    assert bytes.fromhex(said["opened"]) == message
    # … refuses a box with one bit changed, and makes X25519 key pairs
    assert said["forged"] == "refused"
    public, private = map(bytes.fromhex, said["pair"])
    assert crypto_scalarmult_base(private) == public and len(public) == box.KEY_BYTES
    assert said["random"] == 24
