"""The web layer: one blueprint per feature, thin views, one partial per live region."""

from __future__ import annotations

from flask import Flask

from . import errors, filters
from .api import bp as api_bp
from .games import bp as games_bp
from .home import bp as home_bp
from .pwa import bp as pwa_bp
from .seats import bp as seats_bp
from .tables import bp as tables_bp
from .tromplemond import bp as tromplemond_bp
from .vote import bp as vote_bp

BLUEPRINTS = (home_bp, tables_bp, seats_bp, games_bp, api_bp, pwa_bp)
BLUEPRINTS += (vote_bp,)
BLUEPRINTS += (tromplemond_bp,)


def register(app: Flask) -> None:
    """Register the blueprints, the error pages and the template filters."""
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    errors.register(app)
    filters.register(app)
