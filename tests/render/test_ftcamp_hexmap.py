"""FTCamp hex map picture: a PNG of what the viewer may see."""

from __future__ import annotations

import io
import math

from PIL import Image

from bot.render import registry, style
from bot.render.ftcamp_hexmap import _centre, _choose, layout, render
from bot.rules.dice import ScriptedDice
from bot.rules.ftcamp import RULESET
from tests.render.label_checks import assert_clean, joined, texts
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


def _long_names() -> dict:
    s = world(group("Barnard Outpost Extended Defence Platform", 1, hex_name="0602"),
              group("Pickets", 2, hex_name="0602"),
              group("Survey", 1, hex_name="0602"),
              group("Reserve Wing of the Second Kravak Fleet", 2, hex_name="0702"),
              group("Vanguard", 1), group("Hunters", 2))
    s.players[0].name, s.players[1].name = "Terran Union", "Kravak Horde"
    s.map.systems[0].name = "Tau Ceti Prime and its Moons"
    s.revealed = list(s.groups)
    view = RULESET.view(s, None)
    view["contested"], view["current_hex"] = ["0602"], "0602"
    return view


def _inside_hex(box: tuple[float, float, float, float], cx: float, cy: float,
                size: float) -> bool:
    """All four corners of ``box`` inside the flat-top hex centred at cx, cy."""
    h = math.sqrt(3) / 2 * size
    for x, y in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
        dx, dy = abs(x - cx), abs(y - cy)
        if dy > h or dx > size - dy / math.sqrt(3):
            return False
    return True


def test_long_names_are_whole_inside_their_hex() -> None:
    view = _long_names()
    canvas = layout(view)
    assert_clean(canvas)
    words = joined(canvas, "name")
    for name in ("Barnard Outpost Extended Defence Platform", "Pickets", "Survey",
                 "Reserve Wing of the Second Kravak Fleet", "Tau Ceti Prime and its Moons"):
        assert name in words
    size, _ = _choose(view)
    top = style.TITLE_H + style.MARGIN
    centres = [_centre(c, r, size, top) for c in range(1, 9) for r in range(1, 7)]
    for lb in canvas.labels:  # each line of a name lies wholly inside the nearest hex
        if lb.kind == "name":
            mx, my = (lb.box[0] + lb.box[2]) / 2, (lb.box[1] + lb.box[3]) / 2
            cx, cy = min(centres, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2)
            assert _inside_hex(lb.box, cx, cy, size), lb
    assert canvas.width <= 1400


def test_owners_are_told_apart_by_initial_and_shape_not_colour_alone() -> None:
    canvas = layout(_long_names())
    marks = texts(canvas, "marker")
    # every group line and each legend entry carries its owner's initial
    assert marks.count("T") == 1 + 3 and marks.count("K") == 1 + 3
    legend = texts(canvas, "legend")
    assert "Terran Union" in legend and "Kravak Horde" in legend
    assert "contested: engage orders to come" in legend


def test_e_d45_the_legend_names_every_fill_and_contested_means_a_battle_may_come() -> None:
    view = _long_names()
    legend = texts(layout(view), "legend")
    for entry in ("groups or a star system here", "nothing seen here", "a battle to fight",
                  "engage orders being decided now"):
        assert entry in legend

    def hatched(v: dict) -> int:
        colours = layout(v).image.getcolors(maxcolors=1 << 24) or []
        return next((n for n, c in colours if c == style.HATCH), 0)

    # once the hex's battle list is out it is no longer "contested": hatched only while its
    # engage orders are to come; with a battle it gets the battle outline instead
    no_battle = {**view, "battles": [{"round": view["round"], "hex": "0602", "battles": []}]}
    assert hatched(no_battle) < hatched(view) - 200
    fought = {**view, "battles": [{"round": view["round"], "hex": "0602", "battles": [{}]}]}
    assert hatched(fought) == hatched(no_battle)


def test_contested_is_a_neutral_hatch_never_an_owner_colour() -> None:
    view = _long_names()

    def count(v: dict, colour: tuple[int, int, int]) -> int:
        colours = layout(v).image.getcolors(maxcolors=1 << 24) or []
        return next((n for n, c in colours if c == colour), 0)

    assert count(view, style.HATCH) > count({**view, "contested": []}, style.HATCH) + 200
    assert style.HATCH not in style.OWNER_COLOURS


def test_a_hex_too_crowded_lists_its_other_groups_under_the_map() -> None:
    s = world(*[group(f"Squadron number {i}", 1 + i % 2, hex_name="0101") for i in range(14)])
    s.revealed = list(s.groups)
    canvas = layout(RULESET.view(s, None))
    assert_clean(canvas)
    inside = joined(canvas, "name")
    below = joined(canvas, "overflow")
    assert "more below" in inside and below.startswith("More groups:")
    for i in range(14):  # each name whole, in its hex or in the list
        assert f"Squadron number {i} " in inside + " " or f"Squadron number {i} (" in below
