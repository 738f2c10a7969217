"""Issue 11 item 5 for FTCamp (E-D36): ``demo ftcamp --set rounds=3`` plays three different
rounds, fights a battle in HRFT with scripted players and applies its result before the next
round opens."""

from __future__ import annotations

import re

import pytest

from tests.support.demos import Demos


def parent_posts(channel: str) -> list[str]:
    """The posts of the campaign's own channel (the transcript marks a thread's)."""
    posts = [p.strip() for p in channel.split("\n---\n")]
    return [p for p in posts if p and not p.startswith("*(in channel") and not p.startswith("#")]


@pytest.mark.slow
async def test_e_d34_three_round_demo_fights_a_battle_in_hrft(demos: Demos) -> None:
    played = await demos.play("ftcamp", seed=1, options={"rounds": "3"})
    assert played.result.finished
    channel = (played.folder / "channel.md").read_text("utf-8")
    gm = (played.folder / "gm.md").read_text("utf-8")
    # a battle of round 1 opens in its own campaign (its round in its name, P-16) and is
    # fought to its end
    assert "**Battle 0602/B-4, round 1** begins (High Resolution Full Thrust)." in channel
    assert "**The battle is over" in channel
    # its result goes to the GM, is confirmed and applied before round 2 opens
    assert "Proposed change to the campaign" in gm
    applied = channel.index("round 1: confirmed by the GM**")
    assert channel.index("waits for its battles") < applied < channel.index("**Round 2**")
    # P-15: the parent channel gets the proposal and the confirmation, not the thread's
    # closing words; "the campaign is over" only at its end; nothing fought in a thread is
    # called fought at the table
    parent = parent_posts(channel)
    assert sum("round 1: result proposed**" in p for p in parent) == 1
    assert sum("round 1: confirmed by the GM**" in p for p in parent) == 1
    assert not any("ships fighting" in p or "battle is over" in p.lower() for p in parent)
    assert [i for i, p in enumerate(parent) if "The campaign is over" in p] == [len(parent) - 1]
    assert "fought at the table" not in channel
    # E-D37: each battle is fought once (the demo opens one thread per battle of a round)
    assert channel.count("begins (High Resolution Full Thrust).") == 1
    # three rounds, not the same one three times: the contested hexes differ
    contested = re.findall(r"__Contested hexes__\n> (.*)", channel)  # the reveal's field
    assert len(contested) == 3 and len(set(contested)) > 1
    assert "The campaign's 3 rounds are played" in channel


@pytest.mark.slow
async def test_od19_orbits_demo_fights_a_battle_in_hrft_and_its_losses_come_back(
    demos: Demos,
) -> None:
    """``demo orbits --set points_per_value=10`` (O-D17 to O-D20): a battle whose sides can
    afford a ship is fought in HRFT by scripted sides (muster included); its losses come back
    as the report the GM confirms, and the discards follow before the next turn."""
    played = await demos.play("orbits", seed=1, options={"points_per_value": "10"})
    assert played.result.finished
    channel = (played.folder / "channel.md").read_text("utf-8")
    gm = (played.folder / "gm.md").read_text("utf-8")
    assert "`/battle start parent:<this campaign> ref:Orbit 1`" in gm
    linked = channel.index("The battle at Orbit 1 is fought in its own thread")
    chosen = channel.index("**The sides have chosen their ships**")
    confirmed = channel.index("result (fought in its thread, confirmed by the GM)")
    discard = channel.index(" discards ", confirmed)
    assert linked < chosen < confirmed < discard < channel.index("**Turn 7** begins")
    assert "Proposed result of the battle at Orbit 1" in gm
    # P-15, O-D22: the parent gets ONE post of the proposal (each side's losses, who was
    # defeated, the GM confirms it) and one of the confirmation; the thread's closing words,
    # its ship report and "the campaign is over" stay in the thread; names are not doubled
    parent = parent_posts(channel)
    proposed = [p for p in parent if "Battle at Orbit 1, turn 6: result proposed" in p]
    assert len(proposed) == 1
    assert all(w in proposed[0] for w in ("lost", "Defeated", "The GM confirms it"))
    assert sum("confirmed by the GM" in p for p in parent) == 1
    assert not any("ships fighting" in p or "battle is over" in p.lower() for p in parent)
    assert [i for i, p in enumerate(parent) if "The campaign is over" in p] == [len(parent) - 1]
    assert "Battle **Battle" not in channel and "battle **Battle" not in channel
    assert channel.count("begins (High Resolution Full Thrust).") == 1
