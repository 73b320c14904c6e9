"""A game's own test helper, found by its name: the module, or None when there is none."""

from __future__ import annotations

import importlib
from types import ModuleType


def module_if_any(name: str) -> ModuleType | None:
    """The module ``name`` imported, or None when there is no such module (an import that
    fails inside it is raised: a helper that is there but broken is not "none")."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and (name == error.name or name.startswith(error.name + ".")):
            return None
        raise
