"""The join link and its QR code, drawn on the server as inline SVG; and which address a
shared text may link (:func:`lasting_url`)."""

from __future__ import annotations

from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from flask import current_app, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup, escape

from ..store import Table
from .security import local_host


def public_url(endpoint: str, **values: object) -> str:
    """An absolute URL as phones must reach it: ``PUBLIC_URL`` if set, else this request's host.

    On a laptop at the table the request may come in on ``localhost``, which
    a phone cannot reach; ``COMPANION_PUBLIC_URL`` gives the LAN address.
    """
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for(endpoint, **values)


def beyond_the_lan(base: str) -> bool:
    """True when the address ``base`` (``https://companion.example.org``) can be reached
    from anywhere: its host is not one that only a local network reaches
    (:func:`~companion.web.security.local_host`: ``http://192.168.1.20:5000``, what
    ``manage.py serve`` sets when nothing is configured, ``localhost``, ``laptop``,
    ``games.local``).

    >>> [beyond_the_lan(u) for u in ("https://companion.example.org", "http://93.184.216.34:5000",
    ...  "http://192.168.1.20:5000", "https://10.0.0.5", "http://127.0.0.1:8000",
    ...  "http://localhost:5000", "http://laptop:5000", "http://games.local", "", "http://[fe80::1]")]
    [True, True, False, False, False, False, False, False, False, False]
    """
    host = urlsplit(base).netloc.rpartition("@")[2]
    return bool(host) and not local_host(host)


def lasting_url(endpoint: str, **values: object) -> str | None:
    """An absolute URL that a phone can still open away from the table's Wi-Fi, for a text
    that is sent on (a group chat): the configured ``PUBLIC_URL`` when it is an address
    beyond the LAN, else None (then the text carries no link: the LAN address that
    ``serve`` falls back to, or this request's host, would lead nowhere later)."""
    base = current_app.config.get("PUBLIC_URL") or ""
    if not beyond_the_lan(base):
        return None
    return base.rstrip("/") + url_for(endpoint, **values)


def join_url(table: Table) -> str:
    """The full join URL of a table, the one its QR code encodes."""
    return public_url("seats.join", code=table.code)


def qr_svg(data: str, *, label: str | None = None, element_id: str = "join-qr") -> Markup:
    """A QR code of ``data`` as an inline ``<svg>`` (paths only, no external references),
    named for screen readers by ``label`` (default: the join link's) and given the id
    ``element_id``."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=4)
    svg = image.to_string(encoding="unicode")
    said = escape(label if label is not None else _("QR code of the join link"))
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{said}" id="{escape(element_id)}" '
                      'class="qr" ', 1)
    # qrcode only writes paths and numbers: nothing a player typed is in it.
    return Markup(svg)
