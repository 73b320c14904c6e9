"""The README and the docs link only to what is there.

The README's links all stay inside the repository (a newcomer reading a clone,
offline, finds every page it names); the docs may name a few outside projects,
and every link of theirs inside the repository names a file that exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def links(page: Path) -> list[str]:
    """Every Markdown link target of ``page``, outside code blocks."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return LINK.findall(text)


def test_readme_is_short_and_links_only_inside_the_repository():
    readme = ROOT / "README.md"
    assert len(readme.read_text(encoding="utf-8").splitlines()) < 200
    outside = [t for t in links(readme) if re.match(r"[a-z]+:", t)]
    assert outside == [], f"the README links outside the repository: {outside}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_inside_the_repository_names_a_file_that_exists(page):
    missing = []
    for target in links(page):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        if not path.exists():
            missing.append(target)
    assert missing == [], f"{page.relative_to(ROOT)} links to missing files: {missing}"
