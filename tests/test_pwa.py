"""The companion installs as an app: manifest, icons, service worker, offline page."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from PIL import Image

from companion.web import device, pwa

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pwa_client():
    """A bare Flask app with only the PWA blueprint, on the project's templates and static."""
    app = Flask(
        "companion_pwa_test",
        root_path=str(ROOT),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config["TESTING"] = True
    device.register(app)  # (its pages speak the device's language: English here)
    app.register_blueprint(pwa.bp)
    return app.test_client()


def get_manifest(client):
    """Fetch and parse /manifest.webmanifest."""
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    return response, json.loads(response.get_data(as_text=True))


def test_manifest_is_served_as_a_web_manifest(pwa_client):
    response, _ = get_manifest(pwa_client)
    assert response.mimetype == "application/manifest+json"


def test_manifest_has_what_an_install_needs(pwa_client):
    _, manifest = get_manifest(pwa_client)
    assert manifest["name"] == "The companion"
    assert manifest["short_name"] == "Companion"
    assert manifest["description"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["id"] == "/"
    for key in ("theme_color", "background_color"):
        colour = manifest[key]
        assert colour.startswith("#") and len(colour) == 7
        red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert red + green + blue < 3 * 64, f"{key} {colour} should be dark"


def test_manifest_icons_exist_and_have_their_declared_sizes(pwa_client):
    _, manifest = get_manifest(pwa_client)
    icons = manifest["icons"]
    declared = {(icon["sizes"], icon.get("purpose", "any")) for icon in icons}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= declared
    for icon in icons:
        assert icon["type"] == "image/png"
        response = pwa_client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert response.mimetype == "image/png"
        image = Image.open(io.BytesIO(response.data))
        assert image.format == "PNG"
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert image.size == (width, height), icon["src"]


def test_maskable_icon_keeps_the_background_colour_at_its_edges(pwa_client):
    # A maskable icon is cropped to any shape: its corners must be plain background.
    _, manifest = get_manifest(pwa_client)
    maskable = next(i for i in manifest["icons"] if i.get("purpose") == "maskable")
    image = Image.open(io.BytesIO(pwa_client.get(maskable["src"]).data)).convert("RGB")
    background = tuple(int(manifest["background_color"][i:i + 2], 16) for i in (1, 3, 5))
    size = image.size[0]
    for xy in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1), (size // 2, 2)):
        assert image.getpixel(xy) == background


def test_service_worker_is_served_from_the_root_and_never_goes_stale(pwa_client):
    response = pwa_client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype in ("text/javascript", "application/javascript")
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response.headers["Cache-Control"]


def test_service_worker_knows_the_shell_and_the_offline_fallback(pwa_client):
    source = pwa_client.get("/sw.js").get_data(as_text=True)
    shell_line = next(line for line in source.splitlines()
                      if line.startswith("self.COMPANION_SHELL = "))
    shell = json.loads(shell_line.removeprefix("self.COMPANION_SHELL = ").rstrip(";"))
    assert "/offline" in shell
    modules = sorted((ROOT / "static" / "app").glob("*.js"))
    assert len(modules) > 1
    for module in modules:
        assert f"/static/app/{module.name}" in shell, f"{module.name} would be missing offline"
    for name in ("icon-192.png", "icon-512.png", "maskable-512.png"):
        assert f"/static/icons/{name}" in shell
    css = sorted((ROOT / "static" / "css").glob("*.css"))
    for sheet in css:
        assert f"/static/css/{sheet.name}" in shell
    for url in shell:
        assert pwa_client.get(url).status_code == 200, f"{url} is in the shell but not served"
    assert 'self.COMPANION_OFFLINE = "/offline"' in source
    assert "caches.match(OFFLINE_URL" in source
    assert 'request.method !== "GET"' in source


def test_service_worker_version_changes_with_the_shell(pwa_client, tmp_path):
    def version(client):
        source = client.get("/sw.js").get_data(as_text=True)
        return next(line for line in source.splitlines() if "COMPANION_VERSION" in line)

    before = version(pwa_client)
    assert before == version(pwa_client), "the same files must give the same version"
    app = pwa_client.application
    copy = tmp_path / "static"
    (copy / "icons").mkdir(parents=True)
    (copy / "app").mkdir()
    for name in ("app/boot.js", "app/sync.js", "sw.js",
                 *(f"icons/{p.name}" for p in (ROOT / "static" / "icons").glob("*.png"))):
        (copy / name).write_bytes((ROOT / "static" / name).read_bytes())
    app.static_folder = str(copy)
    assert version(pwa_client) != before, "a module fewer is a new shell"
    before = version(pwa_client)
    (copy / "app" / "sync.js").write_text("/* a new sync.js */\n")
    assert version(pwa_client) != before


def test_offline_page_renders(pwa_client):
    response = pwa_client.get("/offline")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "No connection" in page
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    # The service worker serves this page with no network: nothing from another host.
    assert "https://" not in page and "http://" not in page
    assert "<script>" not in page, "the CSP forbids inline scripts"


def test_the_app_modules_are_served_as_javascript(pwa_client):
    response = pwa_client.get("/static/app/sync-page.js")
    assert response.status_code == 200
    # A browser runs a module script only when it is served as JavaScript.
    assert response.mimetype in ("text/javascript", "application/javascript")
    assert b"companion:tick" in response.data


def test_the_service_workers_own_shell_list_names_every_module():
    # (Used only when /sw.js is not served by pwa.py, which puts the list in front.)
    source = (ROOT / "static" / "sw.js").read_text(encoding="utf-8")
    listed = set(re.findall(r'"/static/app/([a-z-]+\.js)"', source))
    assert listed == {p.name for p in (ROOT / "static" / "app").glob("*.js")}


# The same, through the real app (create_app, with its security headers and base.html).

def sw_shell(client) -> list[str]:
    """The shell URLs the served service worker stores on install."""
    source = client.get("/sw.js").get_data(as_text=True)
    line = next(x for x in source.splitlines() if x.startswith("self.COMPANION_SHELL = "))
    return json.loads(line.removeprefix("self.COMPANION_SHELL = ").rstrip(";"))


def test_app_pages_link_the_manifest_and_load_the_app_modules(client):
    for url in ("/", "/new", "/offline"):
        page = client.get(url).get_data(as_text=True)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, url
        assert '<script type="module" src="/static/app/boot.js"></script>' in page, url
        code = re.findall(r'<script\b(?![^>]*type="application/json")', page)
        # (the test client's host is localhost: htmx is the app's own copy, a plain script)
        assert len(code) == (1 if url == "/offline" else 3), url
        if url != "/offline":  # (which seals no slip, and needs no htmx)
            nacl = page.index('<script src="/static/vendor/nacl-fast.min.js" defer></script>')
            htmx = page.index('<script src="/static/vendor/htmx.min.js" defer')
            boot = page.index("/static/app/boot.js")
            assert nacl < boot and htmx < boot, "window.nacl and htmx before the modules"
        # (the front end's words are data, <script type="application/json">, never run)
        assert not re.search(r'<script(?![^>]*\bsrc=)(?![^>]*type="application/json")[^>]*>',
                             page), f"inline script on {url}"


def test_service_worker_stores_the_style_sheets_the_pages_use(client):
    shell = sw_shell(client)
    for url in ("/", "/new", "/offline"):
        page = client.get(url).get_data(as_text=True)
        sheets = re.findall(r'<link rel="stylesheet" href="([^"?]+)', page)
        assert sheets, f"{url} has no style sheet"
        for sheet in sheets:
            assert sheet in shell, f"{sheet} (used by {url}) would not work offline"


def test_app_serves_the_worker_and_manifest_fresh_and_pages_never_stored(client):
    worker = client.get("/sw.js")
    assert worker.headers["Service-Worker-Allowed"] == "/"
    assert worker.headers["Cache-Control"] == "no-cache"
    assert client.get("/manifest.webmanifest").mimetype == "application/manifest+json"
    # The offline page is in the shell; the real pages must never be stored anywhere.
    assert "no-store" in client.get("/").headers["Cache-Control"]
