"""The container step's fixtures: Chromium against the compose stack, through Caddy, over
HTTPS, trusting Caddy's own authority.

CI's container step (``.ci/containers``) builds the image, starts ``compose.yaml`` and runs
this folder with ``COMPANION_CONTAINER_URL`` (the stack's HTTPS address, e.g.
``https://localhost:18443``), ``COMPANION_CONTAINER_CA`` (Caddy's root certificate,
copied out of its data volume) and ``COMPANION_CONTAINER_APP`` (the app's container).
Without them every test here is skipped: the normal suite has no stack to play
(``tests/test_entrypoint.py`` runs the image's entrypoint there).

The root is trusted, not the errors ignored: Chromium is given a home of its own whose NSS
database (``~/.pki/nssdb``, made with ``certutil``) trusts it, so the pages are a secure
context with a certificate that checks, as a phone that trusts the site's authority sees
them. The pinned htmx CDN address is answered with the app's own copy (the machine may
have no internet), as in ``tests/browser``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.config import HTMX_COPY
from companion.config import HTMX_URL as HTMX_CDN_URL
from tests.browser.conftest import STOPPED_POLL
from tests.waiting import HANG_MS, Ceiling

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
URL = os.environ.get("COMPANION_CONTAINER_URL", "").rstrip("/")
CA = os.environ.get("COMPANION_CONTAINER_CA", "")
APP = os.environ.get("COMPANION_CONTAINER_APP", "")
"""The app's container (its name), for a test that restarts it."""
CHROMIUM = "/usr/bin/chromium"
TABLET = {"viewport": {"width": 820, "height": 1180}, "device_scale_factor": 1}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1,
         "is_mobile": True, "has_touch": True}


def pytest_collection_modifyitems(config, items):
    """Skip this folder's tests unless CI's container step gave the stack's address; mark
    them ``browser`` (they drive Chromium)."""
    skip = pytest.mark.skip(reason="no compose stack: set COMPANION_CONTAINER_URL and "
                                   "COMPANION_CONTAINER_CA (.ci/containers does)")
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)
            if not (URL and CA):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def stack_url() -> str:
    """The stack's HTTPS address (Caddy's)."""
    return URL


@pytest.fixture(scope="session")
def trusting_home(tmp_path_factory) -> Path:
    """A home folder whose NSS database trusts Caddy's root certificate."""
    certutil = shutil.which("certutil")
    if certutil is None:
        pytest.fail("certutil is missing (apt-get install libnss3-tools)", pytrace=False)
    home = tmp_path_factory.mktemp("chromium-home")
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n",
                    "caddy-local-authority", "-i", CA], check=True)
    return home


@pytest.fixture(scope="session")
def browser(trusting_home):
    """Headless Debian Chromium, at home in :func:`trusting_home`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            env={**os.environ, "HOME": str(trusting_home)},
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--no-first-run"])
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser, stack_url) -> Iterator[Callable]:
    """``new_context("phone" | "tablet", js=True)``: a device (own cookies) on the stack.

    The test fails if a page logs an error to its console (a refused certificate, a
    script that failed)."""
    errors: list[str] = []
    contexts = []
    htmx = ROOT / "static" / HTMX_COPY

    def serve_htmx(route) -> None:
        route.fulfill(path=str(htmx), content_type="application/javascript",
                      headers={"Access-Control-Allow-Origin": "*"})

    def make(kind: str = "phone", *, js: bool = True, **options):
        device = TABLET if kind == "tablet" else PHONE
        context = browser.new_context(java_script_enabled=js,
                                      **{"base_url": stack_url, **device, **options})
        context.set_default_timeout(HANG_MS)
        context.route(HTMX_CDN_URL, serve_htmx)

        def watch(page) -> None:
            page.on("console", lambda message: message.type == "error"
                    and not message.text.startswith(STOPPED_POLL)
                    and errors.append(f"{kind}: {message.text} ({page.url})"))

        context.on("page", watch)
        contexts.append(context)
        return context

    make.errors = errors  # (a test that restarts the app forgives what the restart caused)
    yield make
    for context in contexts:
        context.close()
    assert errors == [], errors


@pytest.fixture
def restart_app(stack_url) -> Callable[[], None]:
    """``restart_app()``: the app's container is stopped and started again (``podman
    restart``: gunicorn stops on SIGTERM, the entrypoint runs again); returns once the
    home page answers through Caddy again."""
    import ssl
    import time
    import urllib.request

    if not APP or shutil.which("podman") is None:
        pytest.skip("no app container to restart (COMPANION_CONTAINER_APP, podman)")
    trust = ssl.create_default_context(cafile=CA)

    def answers() -> bool:
        try:
            with urllib.request.urlopen(stack_url + "/", context=trust, timeout=10) as answer:
                return answer.status == 200
        except OSError:
            return False

    def restart() -> None:
        subprocess.run(["podman", "restart", "--time", "30", APP], check=True,
                       capture_output=True)
        ceiling = Ceiling()
        while not answers():
            assert not ceiling.passed, "the app never answered again after its restart"
            time.sleep(0.5)

    return restart
