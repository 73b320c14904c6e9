"""The app's zip for a table on this device (scripts/build_offline.py) keeps only the app's
languages of babel's locale data: each must still load there, with the data it inherits
(``nb`` reads ``no``'s), or a page that formats money in it breaks on the tablet."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import babel
import pytest
from babel import Locale, localedata

ROOT = Path(__file__).resolve().parents[1]


def _build_offline():
    spec = importlib.util.spec_from_file_location(
        "build_offline", ROOT / "scripts" / "build_offline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("language", _build_offline().LANGUAGES)
def test_each_language_loads_from_the_locale_data_the_zip_keeps(language, tmp_path,
                                                                monkeypatch):
    build = _build_offline()
    data = Path(babel.__file__).parent / "locale-data"
    for path in data.glob("*.dat"):
        if build._wanted(f"babel/locale-data/{path.name}"):
            shutil.copy(path, tmp_path / path.name)
    monkeypatch.setattr(localedata, "_dirname", str(tmp_path))
    monkeypatch.setattr(localedata, "_cache", {})
    locale = Locale.parse(language)
    assert locale.currency_symbols["EUR"] == "€"  # the data it inherits opens too
