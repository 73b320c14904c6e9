"""The app as a whole: settings, security headers, cookies, error pages, base layout."""

from __future__ import annotations

import html as html_text
import re

import pytest

from companion import create_app
from companion.config import HTMX_SRI, HTMX_URL, database_url, from_environment, secret_key


def make_app(tmp_path, **config):
    """An app on a throwaway SQLite file, with ``config`` on top."""
    return create_app({"TESTING": True, "SECRET_KEY": "tests",
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}",
                       **config})


# Settings -------------------------------------------------------------------------------

@pytest.mark.parametrize(("given", "used"), [
    ("postgres://u:pw@db:5432/club", "postgresql+psycopg://u:pw@db:5432/club"),
    ("postgresql://u@db/club", "postgresql+psycopg://u@db/club"),
    ("postgresql+psycopg://u@db/club", "postgresql+psycopg://u@db/club"),
    ("sqlite:////srv/x.db", "sqlite:////srv/x.db"),
])
def test_database_urls_from_hosts_get_the_psycopg_driver(given, used):
    assert database_url(given, "/instance") == used


def test_without_database_url_the_database_is_sqlite_in_the_instance_folder(tmp_path):
    assert database_url(None, str(tmp_path)) == f"sqlite:///{tmp_path}/companion.sqlite3"


def test_the_secret_key_is_made_once_and_kept_across_restarts(tmp_path):
    first = secret_key(str(tmp_path))
    assert len(first) >= 32
    assert secret_key(str(tmp_path)) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0, "only the owner may read it"


def test_an_app_without_secret_key_uses_the_instance_key(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = create_app({"TESTING": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}"})
    assert app.config["SECRET_KEY"] == secret_key(app.instance_path)


def test_htmx_defaults_to_the_pinned_cdn_copy_with_its_hash():
    settings = from_environment("/i", {})
    assert settings["HTMX_URL"] == HTMX_URL
    assert settings["HTMX_SRI"] == HTMX_SRI
    assert settings["RATELIMIT_STORAGE_URI"] == "memory://"
    assert settings["PUBLIC_URL"] == ""


def test_another_htmx_copy_gets_no_hash_unless_given():
    other = from_environment("/i", {"COMPANION_HTMX_URL": "http://10.0.0.2/htmx.js"})
    assert (other["HTMX_URL"], other["HTMX_SRI"]) == ("http://10.0.0.2/htmx.js", "")
    given = from_environment("/i", {"COMPANION_HTMX_URL": "http://10.0.0.2/htmx.js",
                                    "COMPANION_HTMX_SRI": "sha384-abc"})
    assert given["HTMX_SRI"] == "sha384-abc"


def test_public_url_loses_its_trailing_slash():
    settings = from_environment("/i", {"COMPANION_PUBLIC_URL": "http://192.168.1.20:5000/"})
    assert settings["PUBLIC_URL"] == "http://192.168.1.20:5000"


def test_sqlite_runs_in_wal_mode_with_foreign_keys(app):
    from companion.extensions import db

    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite only")
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000


# The base layout ------------------------------------------------------------------------

def htmx_meta(html: str) -> str:
    """The <meta name="companion-htmx"> tag static/app/load-htmx.js loads htmx from."""
    tag = re.search(r'<meta name="companion-htmx"[^>]*>', html)
    assert tag, "htmx meta tag missing"
    return tag.group(0)


PUBLIC = "https://companion.example.org"
"""A server on the internet, reached by its public name."""
OWN_COPY = "/static/vendor/htmx.min.js"


def htmx_scripts(html: str) -> list[str]:
    """The <script> tags of a page that load htmx (the CDN's or the app's own copy)."""
    return re.findall(r'<script src="[^"]*htmx[^"]*"[^>]*>', html)


def script_src(csp: str) -> str:
    """The sources a Content-Security-Policy lets scripts come from."""
    return dict(d.strip().split(" ", 1) for d in csp.split(";"))["script-src"]


def test_on_a_public_host_pages_load_htmx_from_the_pinned_cdn_with_the_apps_copy_as_fallback(
        client):
    response = client.get("/", base_url=PUBLIC)
    html = response.get_data(as_text=True)
    tag = htmx_meta(html)
    assert f'content="{HTMX_URL}"' in tag
    assert f'data-integrity="{HTMX_SRI}"' in tag
    assert f'data-fallback="{OWN_COPY}"' in tag
    assert htmx_scripts(html) == [], "app/load-htmx.js adds the script"
    assert script_src(response.headers["Content-Security-Policy"]) == f"'self' {HTMX_URL}"
    assert client.get(OWN_COPY).status_code == 200
    assert "<script>" not in html, "no inline script: the CSP forbids them"


@pytest.mark.parametrize("host", [
    "192.168.1.20:5000", "10.0.0.5", "172.16.3.4:8000", "127.0.0.1:5000", "localhost:5000",
    "laptop.local", "[fd00::2]:5000", "[fe80::1]", "[::1]:5000", "raspberrypi:5000"])
def test_on_a_lan_pages_load_the_apps_own_htmx_and_never_the_cdn(client, host):
    """A LAN (private, loopback, link-local or IPv6 ULA address, a .local or bare name): no
    request to the CDN at all, which a table with no internet cannot reach."""
    response = client.get("/", base_url=f"http://{host}")
    html = response.get_data(as_text=True)
    assert 'name="companion-htmx"' not in html, "no CDN to try first"
    assert htmx_scripts(html) == [
        f'<script src="{OWN_COPY}" defer integrity="{HTMX_SRI}" crossorigin="anonymous">']
    assert "unpkg" not in html
    assert script_src(response.headers["Content-Security-Policy"]) == "'self'"


@pytest.mark.parametrize("host", ["companion.example.org", "8.8.8.8", "172.32.0.1:5000",
                                  "[2001:4860::8888]"])
def test_public_names_and_addresses_get_the_cdn(client, host):
    response = client.get("/", base_url=f"http://{host}")
    assert f'content="{HTMX_URL}"' in htmx_meta(response.get_data(as_text=True))
    assert script_src(response.headers["Content-Security-Policy"]) == f"'self' {HTMX_URL}"


def test_a_server_set_up_on_a_lan_loads_its_own_htmx_on_every_host_name(tmp_path):
    """``manage.py serve`` sets COMPANION_PUBLIC_URL to the LAN address: a page reached by
    another name (the router's, say) is on that LAN too."""
    app = make_app(tmp_path, PUBLIC_URL="http://192.168.1.20:5000")
    response = app.test_client().get("/", base_url="http://laptop.fritz.box:5000")
    html = response.get_data(as_text=True)
    assert 'name="companion-htmx"' not in html and "unpkg" not in html
    assert htmx_scripts(html)[0].startswith(f'<script src="{OWN_COPY}"')
    assert script_src(response.headers["Content-Security-Policy"]) == "'self'"
    public = make_app(tmp_path, PUBLIC_URL=PUBLIC).test_client().get("/", base_url=PUBLIC)
    assert f'content="{HTMX_URL}"' in htmx_meta(public.get_data(as_text=True))


@pytest.mark.parametrize("base_url", [PUBLIC, "http://192.168.1.20:5000"])
def test_a_local_htmx_copy_set_in_the_settings_is_loaded_on_every_host_alone(
        tmp_path, base_url):
    app = make_app(tmp_path, HTMX_URL="/static/vendor/htmx.min.js", HTMX_SRI="")
    response = app.test_client().get("/", base_url=base_url)
    html = response.get_data(as_text=True)
    assert 'name="companion-htmx"' not in html, "no fallback"
    assert htmx_scripts(html) == ['<script src="/static/vendor/htmx.min.js" defer>']
    assert script_src(response.headers["Content-Security-Policy"]) == "'self'"


@pytest.mark.parametrize("base_url", [PUBLIC, "http://192.168.1.20:5000"])
def test_another_htmx_url_set_in_the_settings_is_loaded_on_every_host_alone(tmp_path, base_url):
    url = "https://cdn.example.net/htmx.min.js"
    app = make_app(tmp_path, HTMX_URL=url, HTMX_SRI="sha384-abc")
    response = app.test_client().get("/", base_url=base_url)
    html = response.get_data(as_text=True)
    assert 'name="companion-htmx"' not in html
    assert htmx_scripts(html) == [
        f'<script src="{url}" defer integrity="sha384-abc" crossorigin="anonymous">']
    assert script_src(response.headers["Content-Security-Policy"]) == f"'self' {url}"


def test_base_layout_has_manifest_icons_app_js_boost_csrf_and_safe_htmx_config(client):
    html = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color"' in html
    assert 'rel="apple-touch-icon" href="/static/icons/icon-192.png"' in html
    assert re.search(r'<script type="module" src="/static/app/boot.js">', html)
    assert 'hx-boost="true"' in html
    assert re.search(r"hx-headers='\{\"X-CSRFToken\": \"[^\"]+\"\}'", html)
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html).group(1)
    assert '"allowEval":false' in config and '"includeIndicatorStyles":false' in config
    assert "hx-on" not in html


@pytest.mark.parametrize("path", ["/", "/new", "/rules"])
def test_every_page_says_what_the_app_is_in_the_device_language(client, path):
    """A search result or a shared link shows a description, in the device's language
    (the same words as the installable app's manifest)."""
    said = {}
    for lang in ("en", "fr"):
        client.set_cookie("lang", lang)
        html = client.get(path).get_data(as_text=True)
        found = re.findall(r'<meta name="description" content="([^"]+)">', html)
        assert len(found) == 1, (path, lang)
        manifest = client.get("/manifest.webmanifest").get_json()
        assert html_text.unescape(found[0]) == manifest["description"], (path, lang)
        assert "'" not in found[0], "the words are escaped in the attribute"
        said[lang] = found[0]
    assert said["en"].startswith("Keep score for card games") and said["fr"] != said["en"]


def test_base_layout_has_a_hidden_wake_status_that_names_the_apps_nosleep_copy(client):
    html = client.get("/").get_data(as_text=True)
    status = re.search(r'<p id="wake-status"[^>]*>', html)
    assert status, "the header's wake-lock status is missing"
    assert " hidden" in status.group(0), "wakelock.js shows it, only where the screen stays on"
    fallback = re.search(r'data-fallback="([^"]+)"', status.group(0)).group(1)
    assert fallback == "/static/vendor/NoSleep.min.js"
    assert client.get(fallback).status_code == 200
    for state in ("on", "tap", "off"):
        assert f'data-{state}="' in status.group(0)


# Security headers and cookies -----------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/new", "/recover", "/no-such-page",
                                  "/static/app/boot.js"])
def test_every_response_has_csp_nosniff_and_referrer_policy(client, path):
    response = client.get(path, base_url=PUBLIC)
    csp = response.headers["Content-Security-Policy"]
    for directive in ("default-src 'self'", f"script-src 'self' {HTMX_URL}", "style-src 'self'",
                      "img-src 'self' data:", "media-src 'self' data:", "connect-src 'self'",
                      "manifest-src 'self'",
                      "worker-src 'self'", "base-uri 'self'", "form-action 'self'",
                      "frame-ancestors 'none'"):
        assert directive in csp
    assert "unsafe-eval" not in csp and "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_csp_stays_strict_with_the_fallbacks(client):
    # The app's own htmx and nosleep.js come from 'self': scripts gain nothing. Only media
    # may be a data: URI, for nosleep.js's built-in video.
    directives = dict(d.strip().split(" ", 1) for d in client.get(
        "/", base_url=PUBLIC).headers["Content-Security-Policy"].split(";"))
    assert directives["script-src"] == f"'self' {HTMX_URL}"
    assert directives["style-src"] == "'self'"
    assert directives["media-src"] == "'self' data:"
    assert [name for name, sources in directives.items() if "data:" in sources] == [
        "img-src", "media-src"]


def test_csp_lets_scripts_come_from_the_configured_htmx_url(tmp_path):
    app = make_app(tmp_path, HTMX_URL="http://10.0.0.2:8000/htmx.min.js", HTMX_SRI="")
    csp = app.test_client().get("/").headers["Content-Security-Policy"]
    assert "script-src 'self' http://10.0.0.2:8000/htmx.min.js;" in csp


def test_pages_are_never_cached(client):
    assert client.get("/").headers["Cache-Control"] == "no-store"


def session_cookie(response):
    return next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("companion="))


def test_session_cookie_is_httponly_lax_and_not_secure_over_plain_http(client):
    cookie = session_cookie(client.get("/"))  # the CSRF token puts something in the session
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_session_cookie_is_secure_over_https(client):
    cookie = session_cookie(client.get("/", base_url="https://localhost"))
    assert "Secure" in cookie


def test_forwarded_https_counts_only_behind_proxy_fix(tmp_path):
    forwarded = {"X-Forwarded-Proto": "https"}
    plain = make_app(tmp_path)
    assert "Secure" not in session_cookie(plain.test_client().get("/", headers=forwarded))
    proxied = make_app(tmp_path, PROXY_FIX=True)
    assert "Secure" in session_cookie(proxied.test_client().get("/", headers=forwarded))


def test_proxy_fix_is_switched_on_by_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_PROXY_FIX", "1")
    app = make_app(tmp_path)
    response = app.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in session_cookie(response)


# Error pages ----------------------------------------------------------------------------

def test_unknown_page_is_a_404_page_with_a_message(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "Not found" in html and 'id="error-message"' in html


def test_wrong_method_is_a_405_page(client):
    response = client.post("/")
    assert response.status_code in (400, 405)  # CSRF is checked first for a POST
    response = client.put("/new")
    assert response.status_code == 405


def test_errors_under_api_are_json(client):
    response = client.get("/api/games")
    assert response.status_code == 405
    assert response.is_json and "error" in response.get_json()
    response = client.get("/api/nothing")
    assert response.status_code == 404 and response.get_json()["error"]


@pytest.mark.db
def test_a_poll_that_fails_gets_a_small_fragment_not_a_page(client):
    response = client.get("/t/BCDFGHJK/pulse?v=1", headers={"HX-Request": "true"})
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "<html" not in html and 'role="alert"' in html


def test_the_offline_page_is_revalidated_and_https_keeps_to_https(client):
    offline = client.get("/offline")
    assert offline.status_code == 200 and offline.headers["Cache-Control"] == "no-cache"
    assert "Strict-Transport-Security" not in client.get("/").headers  # plain http on a LAN
    secure = client.get("/", base_url="https://companion.example.org")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_templates_compiled_at_the_start_leave_none_to_compile_for_a_game(
        app, client, actions, monkeypatch):
    from pathlib import Path

    from companion import compile_templates

    root = Path(__file__).resolve().parents[2]
    # The app's templates, and those beside their blueprints (companion/web/records/…).
    templates = [*(root / "templates").rglob("*.html"),
                 *(p for p in (root / "companion").rglob("*.html") if "templates" in p.parts)]
    assert compile_templates(app) == len(templates)
    compiled = []
    compile_now = app.jinja_env.compile
    monkeypatch.setattr(app.jinja_env, "compile",
                        lambda *args, **kwargs: compiled.append(args[1:2])
                        or compile_now(*args, **kwargs))
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"},
                 headers={"HX-Request": "true"})
    assert client.get(f"/t/{code}").status_code == 200
    assert phones[0].get(f"/t/{code}/seat").status_code == 200
    assert compiled == [], "the first pages and taps of a server compile no template"
