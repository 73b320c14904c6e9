"""The join link and its QR code, drawn on the server as inline SVG."""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from flask import current_app, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup, escape

from ..store import Table


def public_url(endpoint: str, **values: object) -> str:
    """An absolute URL as phones must reach it: ``PUBLIC_URL`` if set, else this request's host.

    On a laptop at the table the request may come in on ``localhost``, which
    a phone cannot reach; ``COMPANION_PUBLIC_URL`` gives the LAN address.
    """
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for(endpoint, **values)


def join_url(table: Table) -> str:
    """The full join URL of a table, the one its QR code encodes."""
    return public_url("seats.join", code=table.code)


def qr_svg(data: str) -> Markup:
    """A QR code of ``data`` as an inline ``<svg>`` (paths only, no external references)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=4)
    svg = image.to_string(encoding="unicode")
    label = escape(_("QR code of the join link"))
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" id="join-qr" class="qr" ',
                      1)
    # qrcode only writes paths and numbers: nothing a player typed is in it.
    return Markup(svg)
