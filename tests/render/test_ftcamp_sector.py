"""FTCamp contested hex picture: orbits, sectors and the groups placed."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import registry
from bot.render.ftcamp_sector import render
from bot.rules.ftcamp import RULESET
from tests.rules.ftcamp.ftcamp_testkit import SYS, group, play_hex, static, world


def test_sector_picture_after_allocation() -> None:
    out = play_hex(group("A", 1, hex_name=SYS, thrust=1), group("B", 2, hex_name=SYS, thrust=2),
                   static("Fort", 1, "B-3", hex_name=SYS),
                   orders={"A": "SF", "B": "SF"}, where={"A": "A-1", "B": "C-7"})
    view = RULESET.view(out.state, None)
    assert view["sector"]["hex"] == SYS and {p["sector"] for p in
                                             view["sector"]["placements"]} == {"A-1", "C-7",
                                                                               "B-3"}
    data = registry.render("ftcamp", "sector", view)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.size == (1200, 900)


def test_sector_picture_without_a_contested_hex() -> None:
    view = RULESET.view(world(group("A", 1)), None)
    assert view["sector"] is None
    assert Image.open(io.BytesIO(render(view))).format == "PNG"


def test_sector_picture_differs_with_placements() -> None:
    one = play_hex(group("A", 1, thrust=1), group("B", 2, thrust=2),
                   orders={"A": "SF", "B": "SF"}, where={"A": "A-1", "B": "D-7"})
    two = play_hex(group("A", 1, thrust=1), group("B", 2, thrust=2),
                   orders={"A": "SF", "B": "SF"}, where={"A": "A-1", "B": "D-8"})
    assert render(RULESET.view(one.state, None)) != render(RULESET.view(two.state, None))
