"""Captions name the turn and step the picture shows (P-31, issue 15 item 6): the Orbits
maps were drawn from the state at the end of the resolution, one step later than their
caption ("Map after the Deployment phase of turn 1" over a map headed "turn 2 · transit";
"Your map, turn 11" over turn 12)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.campaign.models import OutboxMessage
from bot.rules.orbits.flow import map_caption
from tests.support.demos import Demos

CAPTION = re.compile(r"[Mm]ap after the Deployment phase of turn (\d+)")


def maps(sent: list[OutboxMessage]) -> list[tuple[str, dict[str, Any]]]:
    """(text, drawn view) of every message of a demo that carries an Orbits map."""
    seen: list[tuple[str, dict[str, Any]]] = []
    for message in sent:
        text = message.content + "".join(
            str(e.get("title", "")) + str(e.get("description", "")) for e in message.embeds)
        for p in message.pictures:
            if p.renderer != "map":
                continue
            # a message may carry several maps (H-D46): each goes with the embed showing it
            shown = [e for e in message.embeds if e.get("image") == p.name]
            seen.append((str(shown[0].get("title", "")) + str(shown[0].get("description", ""))
                         if shown else text, p.view))
    return seen


@pytest.mark.slow
async def test_every_orbits_map_is_drawn_at_the_turn_and_phase_its_caption_names(
        demos: Demos) -> None:
    drawn = maps((await demos.play("orbits", players=3, seed=7)).sent)
    assert len(drawn) > 20
    public = private = 0
    for text, view in drawn:
        named = CAPTION.findall(text)
        assert named, text[:200]
        # the caption is the last map line of its message: the one its picture goes with
        assert int(named[-1]) == view["turn"] and view["phase"] == "deployment", (
            named, view["turn"], view["phase"])
        if view["viewer"] is None:
            public += 1
        else:
            private += 1
            assert "Your map after the Deployment phase" in text
    assert public and private


def test_the_caption_is_read_from_the_view() -> None:
    assert map_caption({"turn": 11, "phase": "deployment"}) == (
        "Map after the Deployment phase of turn 11")
    assert map_caption({"turn": 12, "phase": "transit"}) == "Map of turn 12, transit"


@pytest.mark.slow
async def test_ftcamp_pictures_show_the_round_and_hex_their_post_names(demos: Demos) -> None:
    shown: list[tuple[str, str, dict[str, Any]]] = []
    for message in (await demos.play("ftcamp", seed=7, options={"rounds": "3"})).sent:
        text = "".join(str(e.get("title", "")) for e in message.embeds) or message.content
        shown.extend((p.renderer, text, p.view) for p in message.pictures
                     if p.renderer in ("hexmap", "sector"))
    assert {r for r, _, _ in shown} == {"hexmap", "sector"}
    for renderer, text, view in shown:
        if renderer == "hexmap" and "Fleet orders revealed" in text:
            assert f"round {view['round']}" in text and view["step"] != "setup"
        if renderer == "sector" and text.startswith("Allocation, hex "):
            assert view["sector"] is not None and view["sector"]["hex"] in text
