"""The web layer: one blueprint per feature, thin views, one partial per live region.

The generic blueprints know no game: each game plugs in through its flow (found
from the game registry: ``companion.web.games.load_flows``), whose blueprint is
registered under a prefix of its own, ``/t/<code>/games/<number>/<game>``.
"""

from __future__ import annotations

from flask import Flask

from ..extensions import db
from ..live import Hooks, streams, versions
from . import device, errors, filters, games, regions, security, words
from .api import bp as api_bp
from .here import bp as here_bp
from .home import bp as home_bp
from .ledger import bp as ledger_bp
from .limits import wrong_codes
from .pulse import bp as pulse_bp
from .pulse import is_pulse
from .pwa import bp as pwa_bp
from .records import bp as records_bp
from .roles import find_table
from .rounds import bp as rounds_bp
from .scores import bp as games_bp
from .seats import bp as seats_bp
from .tables import bp as tables_bp
from .vote import bp as vote_bp

BLUEPRINTS = (home_bp, tables_bp, seats_bp, games_bp, rounds_bp, vote_bp, pulse_bp, ledger_bp,
              api_bp, pwa_bp, records_bp)


def register(app: Flask) -> None:
    """Register the blueprints (the games' own under their prefix), errors and filters."""
    device.register(app)
    security.register(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    if not app.config.get("OFFLINE"):  # (the page that runs the offline app, on a server)
        app.register_blueprint(here_bp)
    games.install(app)
    versions.install(app)
    with app.app_context():
        streams.install(app, db.engine, Hooks(find_table=find_table, counted=wrong_codes,
                                              is_pulse=is_pulse))
    errors.register(app)
    filters.register(app)
    words.register(app)
    regions.register(app)
