"""The table's records (issue 32): the record book, the night's recap, import from a screen.

A package of its own, its templates beside it (``templates/records/``, found through the
blueprint's ``template_folder``). Every figure comes from the rules
(``companion.rules.records.record_book`` and ``companion.rules.evening``) of the
evenings' records, worked out again from the games' facts: nothing is stored but facts.
"""

from __future__ import annotations

from .routes import bp

__all__ = ["bp"]
