"""Cookies and response headers: what keeps a seat a seat and a page a page.

- The session cookie is signed, HttpOnly, SameSite=Lax, and Secure whenever
  the request came over HTTPS (behind a proxy: with ``COMPANION_PROXY_FIX=1``).
- Every response carries a Content-Security-Policy that lets scripts come only
  from the app itself and from the one configured htmx URL (no inline script,
  no eval), plus ``X-Content-Type-Options`` and ``Referrer-Policy``.
"""

from __future__ import annotations

import functools

from flask import Flask, Response, current_app, has_request_context, request
from flask.sessions import SecureCookieSessionInterface

from .flow import STYLESHEET_ENDPOINT


class SessionInterface(SecureCookieSessionInterface):
    """The signed-cookie session, marked Secure exactly when the request is HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when the page came over HTTPS (a LAN laptop serves plain HTTP)."""
        if app.config.get("SESSION_COOKIE_SECURE"):
            return True
        return has_request_context() and request.is_secure


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
    headers.setdefault("Content-Security-Policy",
                       content_security_policy(current_app.config["HTMX_URL"],
                                               bool(current_app.config.get("OFFLINE"))))
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
