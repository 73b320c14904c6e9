"""Cookies and response headers, and where a page loads htmx from: what keeps a seat a seat
and a page a page.

- The session cookie is signed, HttpOnly, SameSite=Lax, and Secure whenever
  the request came over HTTPS (behind a proxy: with ``COMPANION_PROXY_FIX=1``).
- Every response carries a Content-Security-Policy that lets scripts come only
  from the app itself and from the htmx URL that response's page loads (no inline script,
  no eval), plus ``X-Content-Type-Options`` and ``Referrer-Policy``.
- htmx: the app's own copy on a LAN, the pinned CDN copy elsewhere. A table on a laptop's
  Wi-Fi often has no internet: a page there that asked the CDN first would log a failed
  request on every page, and where the CDN hangs instead of failing it would wait three
  seconds (``static/app/load-htmx.js``) before the app's own copy took over. So a page
  reached on a LAN name or address, or served by a server whose ``COMPANION_PUBLIC_URL``
  is one (``manage.py serve`` sets it to the LAN address), loads the app's own copy
  (``static/vendor/htmx.min.js``) directly and never asks the CDN. A page on a public host
  name gets the pinned CDN copy with the app's copy as its fallback. A copy set with
  ``COMPANION_HTMX_URL`` is used on every host, alone."""

from __future__ import annotations

import functools
import ipaddress
from typing import NamedTuple
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g, has_request_context, request, url_for
from flask.sessions import SecureCookieSessionInterface

from .flow import STYLESHEET_ENDPOINT


class SessionInterface(SecureCookieSessionInterface):
    """The signed-cookie session, marked Secure exactly when the request is HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when the page came over HTTPS (a LAN laptop serves plain HTTP)."""
        if app.config.get("SESSION_COOKIE_SECURE"):
            return True
        return has_request_context() and request.is_secure


LOCAL_NAMES = ("localhost",)
"""Host names that are this machine."""
LOCAL_SUFFIXES = (".localhost", ".local", ".lan", ".home", ".home.arpa", ".internal",
                  ".localdomain")
"""Endings of names only a local network knows: mDNS (``.local``), home routers' names
(``.lan``, ``.home.arpa``, RFC 8375) and the names set aside for private use."""


class HtmxSource(NamedTuple):
    """The htmx a page loads: ``url`` under ``integrity`` (or none), and the URL of the
    app's own copy to load when ``url`` fails or hangs (``fallback``, or "": none)."""

    url: str
    integrity: str
    fallback: str


def local_host(host: str) -> bool:
    """True for a host (a ``Host`` header's value, with or without its port) that only a
    local network reaches: a private, loopback or link-local IPv4 or IPv6 address (IPv6
    ULA ``fc00::/7`` and link-local ``fe80::/10`` too), ``localhost``, a ``.local`` (mDNS)
    or other local-network name, or a name of one label (a machine's bare name).

    >>> [local_host(h) for h in ("192.168.1.20:5000", "10.0.0.5", "172.16.3.4", "127.0.0.1",
    ...                          "[fd00::2]:5000", "[fe80::1%eth0]", "[::1]", "laptop.local",
    ...                          "localhost:5000", "raspberrypi")]
    [True, True, True, True, True, True, True, True, True, True]
    >>> [local_host(h) for h in ("companion.example.org", "8.8.8.8", "172.32.0.1",
    ...                          "[2001:4860::8888]:443", "")]
    [False, False, False, False, False]
    """
    name = host.strip().lower()
    if name.startswith("["):  # [IPv6]:port
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:  # name:port or IPv4:port
        name = name.partition(":")[0]
    name = name.rstrip(".")
    if not name:
        return False
    try:
        address = ipaddress.ip_address(name.partition("%")[0])  # (an IPv6 zone dropped)
    except ValueError:
        return (name in LOCAL_NAMES or name.endswith(LOCAL_SUFFIXES)
                or ("." not in name and ":" not in name))
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_private or address.is_loopback or address.is_link_local


def on_a_lan() -> bool:
    """True when this request's page is on a local network: it came to a local host name
    or address, or the server's public URL (``COMPANION_PUBLIC_URL``) is one."""
    public = urlsplit(current_app.config.get("PUBLIC_URL") or "").hostname
    if public and local_host(f"[{public}]" if ":" in public else public):
        return True
    return has_request_context() and local_host(request.host)


def htmx_source() -> HtmxSource:
    """The htmx this request's page loads (worked out once per request): the setting
    ``COMPANION_HTMX_URL`` alone when it is set; else the app's own copy on a LAN; else
    the pinned CDN copy, with the app's own copy as its fallback."""
    if has_request_context() and "htmx_source" in g:
        return g.htmx_source
    url, sri = current_app.config["HTMX_URL"], current_app.config["HTMX_SRI"]
    copy = current_app.extensions[HTMX_COPY]
    if copy is None:  # a copy of the settings' own: used as it is
        source = HtmxSource(url, sri, "")
    elif on_a_lan() or current_app.config.get("OFFLINE"):  # (offline: no internet at all)
        source = HtmxSource(url_for("static", filename=copy), sri, "")
    else:
        source = HtmxSource(url, sri, url_for("static", filename=copy))
    if has_request_context():
        g.htmx_source = source
    return source


HTMX_COPY = "companion.htmx_copy"
"""``app.extensions`` key: the app's own copy of htmx to fall back on (a static file's
name), or None when ``COMPANION_HTMX_URL`` names a copy of its own (worked out at start)."""


def register(app: Flask) -> None:
    """Let templates ask ``htmx_source()`` (base.html loads what it says)."""
    from ..config import htmx_fallback

    app.extensions[HTMX_COPY] = htmx_fallback(app.config["HTMX_URL"], app.config["HTMX_SRI"])
    app.jinja_env.globals["htmx_source"] = htmx_source


@functools.cache
def content_security_policy(htmx_url: str, framed: bool = False) -> str:
    """The CSP: scripts from 'self' and the exact htmx URL when it is on another origin;
    framed by no page, or (``framed``: a table on this device, whose pages show in the frame
    of the page that runs them, ``/here``) by the app's own.

    >>> "script-src 'self' https://x.example/htmx.js;" in content_security_policy(
    ...     "https://x.example/htmx.js")
    True
    >>> "script-src 'self';" in content_security_policy("/static/htmx.min.js")
    True
    >>> "media-src 'self' data:;" in content_security_policy("/static/htmx.min.js")
    True
    """
    script_src = "'self'"
    if htmx_url.startswith(("https://", "http://")):
        script_src += " " + htmx_url
    return "; ".join([
        "default-src 'self'",
        f"script-src {script_src}",
        "style-src 'self'",
        "img-src 'self' data:",
        # On plain http there is no Screen Wake Lock: sync-page.js keeps the scorekeeper's screen
        # on with nosleep.js, which plays a tiny looping video built into it as data: URIs.
        # Only media gets data:; scripts and styles stay as strict.
        "media-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'self'" if framed else "frame-ancestors 'none'",
    ])


def add_security_headers(response: Response) -> Response:
    """Put the CSP and friends on every response; keep pages out of every cache."""
    headers = response.headers
    headers.setdefault("Content-Security-Policy", content_security_policy(
        htmx_source().url, bool(current_app.config.get("OFFLINE"))))
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    shell = request.endpoint in ("static", STYLESHEET_ENDPOINT) or request.blueprint == "pwa"
    if not shell and "Cache-Control" not in headers:
        # Pages carry seats, keys and CSRF tokens: never stored, never shared.
        headers["Cache-Control"] = "no-store"
    if request.is_secure:
        # Behind HTTPS, the browser keeps to HTTPS (a LAN table on plain http gets none).
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response
