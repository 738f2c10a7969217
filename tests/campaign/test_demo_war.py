"""Issue 11 item 5 for FTCamp (E-D36): ``demo ftcamp --set rounds=3`` plays three different
rounds, fights a battle in HRFT with scripted players and applies its result before the next
round opens."""

from __future__ import annotations

import re
from pathlib import Path

from bot.campaign.demo import run_demo


async def test_e_d34_three_round_demo_fights_a_battle_in_hrft(tmp_path: Path) -> None:
    result = await run_demo("ftcamp", tmp_path, seed=1, options={"rounds": "3"})
    assert result.finished
    channel = (tmp_path / "channel.md").read_text("utf-8")
    gm = (tmp_path / "gm.md").read_text("utf-8")
    # a battle of round 1 opens in its own campaign and is fought to its end
    assert "**Battle 0602/B-4** begins (High Resolution Full Thrust)." in channel
    assert "**The battle is over**" in channel
    # its result goes to the GM, is confirmed and applied before round 2 opens
    assert "Proposed change to the campaign" in gm
    applied = channel.index("its result is applied to the campaign")
    assert channel.index("waits for its battles") < applied < channel.index("**Round 2**")
    # three rounds, not the same one three times: the contested hexes differ
    contested = re.findall(r"__Contested hexes__\n> (.*)", channel)  # the reveal's field
    assert len(contested) == 3 and len(set(contested)) > 1
    assert "The campaign's 3 rounds are played" in channel


async def test_od19_orbits_demo_fights_a_battle_in_hrft_and_its_losses_come_back(
    tmp_path: Path,
) -> None:
    """``demo orbits --set points_per_value=10`` (O-D17 to O-D20): a battle whose sides can
    afford a ship is fought in HRFT by scripted sides (muster included); its losses come back
    as the report the GM confirms, and the discards follow before the next turn."""
    result = await run_demo("orbits", tmp_path, seed=1, options={"points_per_value": "10"})
    assert result.finished
    channel = (tmp_path / "channel.md").read_text("utf-8")
    gm = (tmp_path / "gm.md").read_text("utf-8")
    assert "`/battle start parent:<this campaign> ref:Orbit 1`" in gm
    linked = channel.index("The battle at Orbit 1 is fought in its own thread")
    chosen = channel.index("**The sides have chosen their ships**")
    confirmed = channel.index("result (fought in its thread, confirmed by the GM)")
    discard = channel.index(" discards ", confirmed)
    assert linked < chosen < confirmed < discard < channel.index("**Turn 7** begins")
    assert "Proposed result of the battle at Orbit 1" in gm
