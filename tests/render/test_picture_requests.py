"""A picture request stores its view as JSON (issue 9.1): every renderer must draw the same
picture from the round-tripped view as from the view itself, and encode fast."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image

from bot.render import png, registry
from bot.rules.base import Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.ftcamp import RULESET as FTCAMP
from bot.rules.hrft import RULESET as HRFT
from bot.rules.hrft import add_ship, sample_ship
from bot.rules.orbits import RULESET as ORBITS
from bot.rules.orbits.selfplay import play_game
from tests.rules.ftcamp.ftcamp_testkit import SYS, group, play_hex, static


def _orbits(viewer: int | None) -> dict[str, Any]:
    rec = play_game(3, SeededDice(5, "selfplay"), max_decisions=150)
    return ORBITS.view(rec.state, viewer)


def _ftcamp() -> dict[str, Any]:
    out = play_hex(group("A", 1, hex_name=SYS, thrust=1), group("B", 2, hex_name=SYS, thrust=2),
                   static("Fort", 1, "B-3", hex_name=SYS),
                   orders={"A": "SF", "B": "SF"}, where={"A": "A-1", "B": "C-7"})
    return FTCAMP.view(out.state, None)


def _hrft() -> dict[str, Any]:
    seats = [Seat(number=1, name="Alice"), Seat(number=2, name="Bob")]
    state = HRFT.start(HRFT.options_model(), seats, ScriptedDice([])).state
    state = add_ship(add_ship(state, 1, sample_ship("vanguard")), 2, sample_ship("lynx"))
    return HRFT.view(state, None)


CASES = [
    ("orbits", "map", lambda: _orbits(None)),
    ("orbits", "map", lambda: _orbits(1)),
    ("ftcamp", "hexmap", _ftcamp),
    ("ftcamp", "sector", _ftcamp),
    ("hrft", "sheet", _hrft),
]


@pytest.mark.parametrize(("ruleset", "name", "make"), CASES)
def test_the_view_survives_json_and_draws_the_same_picture(ruleset, name, make) -> None:
    view = make()
    stored = json.loads(json.dumps(view))
    direct = Image.open(io.BytesIO(registry.render(ruleset, name, view)))
    again = Image.open(io.BytesIO(registry.render(ruleset, name, stored)))
    assert direct.size == again.size and direct.tobytes() == again.tobytes()


def test_the_encoder_is_fast_and_lossless() -> None:
    img = Image.new("RGB", (40, 30), (10, 200, 30))
    img.putpixel((3, 4), (255, 0, 0))
    data = png.encode(img)
    back = Image.open(io.BytesIO(data))
    assert back.format == "PNG" and back.convert("RGB").tobytes() == img.tobytes()
