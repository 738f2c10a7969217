"""FTCamp contested hex picture: orbits, sectors and the groups placed."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import registry
from bot.render.ftcamp_sector import layout, render
from bot.rules.ftcamp import RULESET
from bot.rules.ftcamp.hooks import picture_view
from bot.rules.ftcamp.views import placements, sector_view
from tests.render.label_checks import assert_clean, joined, texts
from tests.rules.ftcamp.ftcamp_testkit import (
    HEX,
    SYS,
    engage,
    group,
    picks,
    play_hex,
    static,
    world,
)


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


def two_hex_round():  # type: ignore[no-untyped-def]
    """Hex SYS: a battle (A, B), an escape (C) and a static; then hex HEX: two groups that
    stay apart. The picture of SYS is then a past one."""
    out = play_hex(group("A", 1, hex_name=SYS, thrust=1), group("B", 2, hex_name=SYS, thrust=2),
                   group("C", 2, hex_name=SYS, thrust=3), static("Fort", 1, "B-3", hex_name=SYS),
                   group("D", 1, thrust=1), group("E", 2, thrust=2),
                   orders={"A": "EE", "B": "SF", "C": "RT"},
                   where={"A": "A-1", "B": "A-1", "C": "C-12"})
    assert out.state.step == "engage" and out.state.run and out.state.run.hex == HEX
    out = engage(out.state, {1: {"order:D": "SF"}, 2: {"order:E": "SF"}}, [1, 1, 1, 1])
    return picks(out.state, ["A-1", "C-7"]).state


def test_e11_ed16_a_past_hex_picture_shows_every_group_placed_there() -> None:
    state = two_hex_round()
    # the round then waits for its battle in SYS (E-D36)
    assert state.sector_hex == HEX and state.round == 1 and state.step == "battles"
    placed = {p.group: p.sector for p in placements(state, SYS)}
    # C escaped and fought nobody; it was placed all the same (E-11).
    assert placed == {"A": "A-1", "B": "A-1", "C": "C-12", "Fort": "B-3"}
    past = sector_view(state, SYS)
    assert {p["group"]: p["owner"] for p in past["placements"]} == {"A": 1, "B": 2, "C": 2,
                                                                    "Fort": 1}
    # The public picture and a player's are the same: every pick was a public event.
    view = RULESET.view(state, None)
    view["sector"] = past
    assert render(picture_view(state, None, "sector", SYS)[0]) == render(view)
    assert render(view) != render({**view, "sector": {**past, "placements": [
        p for p in past["placements"] if p["group"] != "C"]}})


def test_ed15_a_spent_decoy_group_keeps_its_owner_in_the_picture() -> None:
    state = two_hex_round()
    result = next(r for r in state.results if r.hex == SYS)
    result.placed[2].group = "Gone"  # as if C had been a decoy group, spent after the hex
    assert {p["group"]: p["owner"] for p in sector_view(state, SYS)["placements"]}["Gone"] == 2


def _sector_view(placements: list[dict], players: list[str] | None = None) -> dict:
    view = RULESET.view(world(group("A", 1)), None)
    view["players"] = [{"seat": i, "name": n} for i, n in
                       enumerate(players or ["Terran Union", "Kravak Horde"], start=1)]
    view["sector"] = {"hex": SYS, "label": f"{SYS} (Tau Ceti)", "system_sector": "A-2",
                      "orbits": [["A", 6], ["B", 6], ["C", 12]], "placements": placements}
    return view


def _placed(group_name: str, sector: str, owner: int, static_: bool = False) -> dict:
    return {"group": group_name, "sector": sector, "owner": owner, "static": static_}


def test_long_names_are_whole_in_their_segment_and_in_the_list() -> None:
    names = ["Barnard Outpost Extended Defence Platform", "Pickets", "Survey Flotilla Seven"]
    view = _sector_view([_placed(names[0], "B-4", 2, True), _placed(names[1], "B-4", 2),
                         _placed(names[2], "C-7", 1)])
    canvas = layout(view)
    assert_clean(canvas)
    in_rings = joined(canvas, "name")
    listed = joined(canvas, "group", "more")
    for name in names:
        assert name in in_rings and name in listed
    assert "B-4: Barnard Outpost Extended Defence Platform, static" in listed


def test_owners_in_a_sector_carry_their_initials() -> None:
    view = _sector_view([_placed("Home Guard", "A-2", 1), _placed("Raiders", "A-2", 2)])
    marks = texts(layout(view), "marker")
    # the two players in the list, their two groups in the list and in the segment
    assert marks.count("T") == 3 and marks.count("K") == 3


def test_a_crowded_segment_shows_markers_and_the_list_names_every_group() -> None:
    crowd = [_placed(f"Squadron of the Line {i}", "A-1", 1 + i % 3) for i in range(7)]
    view = _sector_view(crowd, ["Terran Union", "Kravak Horde", "Zho Clans"])
    canvas = layout(view)
    assert_clean(canvas)
    assert not any(lb.text.startswith("Squadron") for lb in canvas.labels if lb.kind == "name")
    assert texts(canvas, "marker").count("Z") == 1 + 2 + 2  # list of players, groups, segment
    listed = joined(canvas, "group", "more")
    for i in range(7):
        assert f"A-1: Squadron of the Line {i}" in listed


def test_a_long_list_grows_the_picture_instead_of_being_cut() -> None:
    many = [_placed(f"Group {i:02d}", f"C-{1 + i % 12}", 1 + i % 2) for i in range(60)]
    canvas = layout(_sector_view(many))
    assert canvas.height > 900
    assert_clean(canvas)
    listed = joined(canvas, "group", "more")
    assert all(f"Group {i:02d}" in listed for i in range(60))


def test_a_name_is_never_broken_inside_a_word_in_its_segment() -> None:
    view = _sector_view([_placed("Vanguard", "A-1", 1), _placed("Hunters", "D-3", 2)])
    view["sector"]["orbits"] = [["A", 6], ["B", 6], ["C", 12], ["D", 12]]
    canvas = layout(view)
    assert_clean(canvas)
    assert "Vanguard" in texts(canvas, "name") + texts(canvas, "group")
    assert not [t for t in texts(canvas, "name") if t in ("Vangua", "Vang", "rd")]
    names = texts(canvas, "name")
    assert all(t in ("Vanguard", "Hunters") for t in names), names
