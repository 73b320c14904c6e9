"""Tromplemond at a real table: its flow, its own actions and its templates (``tromplemond/``)."""

from __future__ import annotations

from . import views  # noqa: F401  (the actions join the blueprint)
from .flow import FLOW, Phase, RoundView

__all__ = ["FLOW", "Phase", "RoundView"]
