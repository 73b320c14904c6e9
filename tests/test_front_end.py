"""The front-end files the app serves: named once in package.json, copied into static/vendor/.

package.json pins each npm package to an exact version and lists, under
"vendored", which file of which package the app serves from static/vendor/.
The copies are committed, so a machine with only Python (no npm, no internet)
serves them; these tests check they are the pinned files.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest

from companion.config import (
    HTMX_COPY,
    HTMX_FILE,
    HTMX_PACKAGE,
    HTMX_SRI,
    HTMX_URL,
    PACKAGE_JSON,
    pinned_version,
)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
VENDORED = PACKAGE["vendored"]


def package_of(copy: str) -> str:
    """The npm package a vendored copy comes from."""
    return VENDORED[copy].split("/", 1)[0]


def sri(data: bytes) -> str:
    """The SHA-384 subresource-integrity value of ``data``."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def test_package_json_is_private_and_pins_exact_versions():
    assert PACKAGE["private"] is True
    for name, version in PACKAGE["dependencies"].items():
        assert version.replace(".", "").isdigit(), f"{name} {version}: pin an exact version"


def test_the_lock_file_has_the_pinned_versions():
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"][""]["dependencies"] == PACKAGE["dependencies"]
    for name, version in PACKAGE["dependencies"].items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version


def test_config_reads_the_htmx_version_from_package_json(tmp_path):
    assert PACKAGE_JSON == ROOT / "package.json"
    version = PACKAGE["dependencies"][HTMX_PACKAGE]
    assert pinned_version(HTMX_PACKAGE) == version
    assert HTMX_URL == f"https://unpkg.com/htmx.org@{version}/dist/htmx.min.js"
    other = tmp_path / "package.json"
    other.write_text(json.dumps({"dependencies": {"htmx.org": "9.8.7"}}))
    assert pinned_version("htmx.org", other) == "9.8.7"


@pytest.mark.parametrize("copy", sorted(VENDORED))
def test_each_vendored_copy_is_committed_and_comes_from_a_pinned_package(copy):
    path = ROOT / copy
    assert copy.startswith("static/vendor/")
    assert path.is_file() and path.stat().st_size > 0, f"{copy} is missing"
    assert package_of(copy) in PACKAGE["dependencies"], f"{copy} comes from a package not pinned"


@pytest.mark.parametrize("copy", sorted(VENDORED))
def test_each_vendored_copy_is_the_npm_packages_own_file(copy):
    original = ROOT / "node_modules" / VENDORED[copy]
    package = package_of(copy)
    installed = ROOT / "node_modules" / package / "package.json"
    if not installed.is_file():
        pytest.skip(f"{package} is not in node_modules (run `npm ci`)")
    version = json.loads(installed.read_text(encoding="utf-8"))["version"]
    assert version == PACKAGE["dependencies"][package], \
        f"node_modules has {package} {version}: run `npm ci`"
    assert (ROOT / copy).read_bytes() == original.read_bytes(), f"{copy} differs from npm's"


def test_the_apps_htmx_copy_is_the_pinned_file_under_the_pinned_sri_hash():
    assert VENDORED[f"static/{HTMX_COPY}"] == f"{HTMX_PACKAGE}/{HTMX_FILE}"
    assert HTMX_URL.endswith(f"/{HTMX_FILE}")
    assert sri((ROOT / "static" / HTMX_COPY).read_bytes()) == HTMX_SRI
