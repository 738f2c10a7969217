"""The Orbits map renderer: valid PNGs of a sensible size, secrets only on the owner's map."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.orbits_map import render
from bot.render.registry import get
from bot.rules.base import Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.orbits import RULESET, OrbitsOptions
from bot.rules.orbits.selfplay import play_game
from bot.rules.orbits.state import TableCard


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
