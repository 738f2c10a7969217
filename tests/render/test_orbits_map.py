"""The Orbits map renderer: valid PNGs of a sensible size, secrets only on the owner's map."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.orbits_map import PAD, WIDTH, layout, render
from bot.render.registry import get
from bot.rules.base import Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.orbits import RULESET, OrbitsOptions
from bot.rules.orbits.selfplay import play_game
from bot.rules.orbits.state import TableCard
from tests.render.label_checks import assert_clean


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_registry_finds_the_renderer() -> None:
    assert get("orbits", "map") is render


def test_map_of_a_game_in_progress_fits_a_discord_preview() -> None:
    rec = play_game(2, SeededDice(5, "selfplay"), max_decisions=150)
    public = _png(render(RULESET.view(rec.state, None)))
    own = _png(render(RULESET.view(rec.state, 1)))
    assert public.width == 960 and 400 < public.height < 2400
    assert own.size[0] == 960
    assert public.tobytes() != own.tobytes()  # the owner sees their hidden cards


def test_public_map_does_not_depend_on_hidden_cards() -> None:
    seats = [Seat(number=1, name="Alice"), Seat(number=2, name="Bob")]
    state = RULESET.start(OrbitsOptions(), seats, ScriptedDice()).state
    hidden = next(c for c in state.table if c.owner == 1 and not c.face_up)
    other = state.model_copy(deep=True)
    swap = other.decks[1][0]
    other.decks[1][0] = hidden.code
    other.table = [c if c.code != hidden.code or c.owner != 1 else
                   TableCard(owner=1, code=swap, area=c.area) for c in other.table]
    assert render(RULESET.view(state, None)) == render(RULESET.view(other, None))
    assert render(RULESET.view(state, 1)) != render(RULESET.view(other, 1))


def test_crowded_table_six_players_eight_orbits() -> None:
    seats = [Seat(number=n, name=name) for n, name in
             enumerate(["Ann", "Abe", "Cy", "Di", "Ed", "Flo"], start=1)]
    state = RULESET.start(OrbitsOptions(orbits=8), seats, ScriptedDice()).state
    for seat in (1, 2, 3):
        for code in state.decks[seat][:20]:
            state.table.append(TableCard(owner=seat, code=code, area="orbit:8", face_up=True))
        state.stances[f"{seat}|orbit:8"] = "attack"
        state.decks[seat] = state.decks[seat][20:]
    img = _png(render(RULESET.view(state, 2)))
    assert img.width == 960 and img.height < 4000


LONG = ["Alexandrina", "Bartholomew", "Constantine", "Dorotheus", "Evangeline", "Fitzwilliam"]


def _late_six(viewer: int | None) -> dict:
    """A 6-player game played to its end, with long names on every seat."""
    rec = play_game(6, SeededDice(7, "selfplay"), max_decisions=900)
    view = RULESET.view(rec.state, viewer)
    for seat in view["seats"]:
        seat["name"] = LONG[seat["number"] - 1]
    for area in view["areas"]:
        if area["id"].startswith("home:"):
            area["label"] = f"Home of {LONG[int(area['id'].split(':')[1]) - 1]}"
    return view


def test_six_players_late_game_no_label_overprints_another() -> None:
    for viewer in (None, 6):
        view = _late_six(viewer)
        assert sum(1 for a in view["areas"] for s in a["stacks"] if s["stance"]) >= 2
        canvas = layout(view)
        assert_clean(canvas)
        assert canvas.image.tobytes() == _png(render(view)).convert("RGB").tobytes()


def test_six_stances_in_one_orbit_are_stacked_within_their_columns() -> None:
    seats = [Seat(number=n, name=name) for n, name in enumerate(LONG, start=1)]
    state = RULESET.start(OrbitsOptions(), seats, ScriptedDice()).state
    for seat in range(1, 7):
        for code in state.decks[seat][:9]:
            state.table.append(TableCard(owner=seat, code=code, area="orbit:1", face_up=True))
        state.stances[f"{seat}|orbit:1"] = "attack" if seat % 2 else "blockade"
        state.decks[seat] = state.decks[seat][9:]
    canvas = layout(RULESET.view(state, None))
    assert_clean(canvas)
    stance = [lb for lb in canvas.labels if lb.kind == "stance"]
    words = [lb.text for lb in stance]
    assert words.count("ATTACK") == 3 and words.count("BLOCKADE") == 3  # on lines of their own
    col_w = (WIDTH - 2 * PAD) / 6
    for lb in stance:  # each stays in its player's column
        column = int((lb.box[0] - PAD) // col_w)
        assert lb.box[2] <= PAD + (column + 1) * col_w


def test_every_player_is_marked_by_initial_as_well_as_colour() -> None:
    view = _late_six(None)
    canvas = layout(view)
    marks = [lb.text for lb in canvas.labels if lb.kind == "marker"]
    for initial in "ABCDEF":
        assert marks.count(initial) >= 2  # the header and the player's home at least
