"""/help rule reads the rule pages as package data (issue 11 follow-up): through
importlib.resources, from ``bot/campaign/ruledocs`` (a link to docs/rules), listed in the
package data so that a non-editable install (a wheel) carries them."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from bot.campaign import rulings

ROOT = Path(__file__).resolve().parents[2]


def test_the_rule_pages_are_read_through_importlib_resources() -> None:
    folder = resources.files("bot.campaign").joinpath("ruledocs")
    index = folder.joinpath("rulings-index.md").read_text(encoding="utf-8")
    assert "- **O-15 Battle results.**" in index
    assert "- **P-13 " in folder.joinpath("platform.md").read_text(encoding="utf-8")
    assert str(rulings.rules_dir()) == str(folder)
    assert rulings.find("O-15") is not None and rulings.find("P-13") is not None


def test_every_page_read_is_package_data_and_docs_rules_is_its_one_home() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"][rulings.PACKAGE]
    package = ROOT / Path(*rulings.PACKAGE.split("."))
    shipped = {p.name for pattern in patterns for p in package.glob(pattern)}
    assert {rulings.INDEX, *rulings.PAGES} <= shipped
    # a link, not a copy that could fall behind the pages people edit
    link = package / rulings.FOLDER
    assert link.is_symlink() and link.resolve() == (ROOT / "docs" / "rules").resolve()
