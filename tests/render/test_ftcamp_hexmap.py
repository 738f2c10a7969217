"""FTCamp hex map picture: a PNG of what the viewer may see."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import registry
from bot.render.ftcamp_hexmap import render
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET
from tests.rules.ftcamp.ftcamp_testkit import craft, group, orders_in, world


def _with_secret_decoys() -> tuple:  # type: ignore[type-arg]
    s = orders_in(world(group("A", 1, crafts=[craft("a", decoys=1)]), group("B", 2)),
                  skip_special=False).state
    secret = RULESET.resolve(s, {1: {"type": "special_acts", "decoy:A": "new:1:3"}},
                             ScriptedDice()).state
    plain = RULESET.resolve(s, {}, ScriptedDice()).state
    return secret, plain


def test_hexmap_is_a_png_of_the_map() -> None:
    secret, _ = _with_secret_decoys()
    data = registry.render("ftcamp", "hexmap", RULESET.view(secret, 1))
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.width > 400 and img.height > 300


def test_public_hexmap_shows_nothing_hidden() -> None:
    secret, plain = _with_secret_decoys()
    # The launched decoy group is secret until the reveal: public pictures are identical.
    assert render(RULESET.view(secret, None)) == render(RULESET.view(plain, None))
    assert render(RULESET.view(secret, 2)) == render(RULESET.view(plain, 2))
    assert render(RULESET.view(secret, 1)) != render(RULESET.view(plain, 1))


def test_hexmap_handles_large_maps_and_crowded_hexes() -> None:
    s = world(*[group(f"G{i}", 1 + i % 2, hex_name="0101") for i in range(9)])
    s.map.columns, s.map.rows = 30, 20
    s.revealed = list(s.groups)
    img = Image.open(io.BytesIO(render(RULESET.view(s, None))))
    assert img.width <= 1400
