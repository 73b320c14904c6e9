"""Trefeltromp at a real table: its flow, its own actions and its templates (``trefeltromp/``)."""

from __future__ import annotations

from . import views  # noqa: F401  (the actions join the blueprint)
from .flow import FLOW, HandView, Phase

__all__ = ["FLOW", "HandView", "Phase"]
