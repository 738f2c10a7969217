"""Refusals: ephemeral, clear, and nothing changed."""

from __future__ import annotations

import pytest
from simcord.backend.errors import SetupError

from tests.cogs.simworld import World, fresh, last_panel, select_id, texts
from tests.cogs.test_cog_lifecycle import guess, open_campaign, start


async def test_joining_twice_is_refused(world: World) -> None:
    await open_campaign(world, ("alice",))
    again = await world.alice.slash(world.chan, "campaign join")
    assert again.ephemeral
    assert "already" in again.response.content.lower()
    assert sum("alice joins" in t for t in texts(world.chan)) == 1


async def test_joining_after_the_start_is_refused(world: World) -> None:
    await start(world)
    late = await world.carol.slash(world.chan, "campaign join")
    assert late.ephemeral


async def test_create_twice_in_one_channel_is_refused(world: World) -> None:
    await open_campaign(world, ())
    again = await world.carol.slash(world.chan, "campaign create", ruleset="guess", name="X")
    assert again.ephemeral


async def test_create_is_not_offered_in_a_dm(world: World) -> None:
    """P-37: /campaign works in servers only, so Discord does not even offer it in a DM."""
    assert not any(c.startswith("campaign") for c in world.alice.user.available_commands())
    with pytest.raises(SetupError, match="not visible to this user here"):
        await world.alice.user.slash("campaign create", ruleset="guess", name="X")


async def test_create_is_refused_outside_a_text_channel(world: World) -> None:
    voice = world.guild.create_voice_channel("bridge")
    result = await world.alice.slash(voice, "campaign create", ruleset="guess", name="X")
    assert result.ephemeral
    assert "text channel" in result.response.content


async def test_unknown_ruleset_lists_the_available_ones(world: World) -> None:
    result = await world.gm.slash(world.chan, "campaign create", ruleset="chess", name="X")
    assert result.ephemeral
    assert "guess" in result.response.content


async def test_a_panel_of_a_step_that_is_over_says_so(world: World) -> None:
    await start(world)
    original = last_panel(world.bob)
    reopened = (await world.bob.user.slash("orders")).response  # a second copy of his panel
    sid = select_id(reopened)
    await guess(world, "alice", "2")
    await world.bob.user.select(original, ["6"], custom_id=select_id(original))
    await world.bob.user.click(fresh(world.bob, original), label="Submit")
    # Bob is not on turn in the bank step; the copy of his guess panel cannot act any more.
    stale = await world.bob.user.select(reopened, ["3"], custom_id=sid)
    assert stale.ephemeral or stale.followups
    answer = stale.response if stale.response is not None else stale.followups[0]
    assert "step that is over" in answer.content
    assert sum("Guesses" in t for t in texts(world.chan)) == 1


async def test_panels_of_two_campaigns_do_not_mix(world: World) -> None:
    await start(world)
    await world.carol.slash(world.other_chan, "campaign create", ruleset="guess", name="Cup B")
    await world.alice.slash(world.other_chan, "campaign join")
    await world.carol.slash(world.other_chan, "campaign join")
    await world.carol.slash(world.other_chan, "campaign start")
    panel_b = last_panel(world.alice)
    assert "Guess the roll" in panel_b.content
    await world.alice.user.select(panel_b, ["5"], custom_id=select_id(panel_b))
    await world.alice.user.click(panel_b, label="Submit")
    status_a = await world.alice.slash(world.chan, "campaign status")
    status_b = await world.alice.slash(world.other_chan, "campaign status")
    assert "alice" in waiting_line(status_a.response.content)
    assert "alice" not in waiting_line(status_b.response.content)
    assert "carol" in waiting_line(status_b.response.content)


def waiting_line(status: str) -> str:
    return next(line for line in status.splitlines() if line.startswith("Waiting for"))


async def test_a_bug_in_a_command_gets_an_apology_and_is_logged(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await start(world)

    async def broken(*args: object) -> None:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(world.env.bot.service, "status", broken)
    world.expect_bug("database on fire")
    result = await world.alice.slash(world.chan, "campaign status")
    assert result.ephemeral
    assert "Sorry, something went wrong" in result.response.content
    assert "database on fire" not in result.response.content
    assert any("database on fire" in str(r.exc_info) for r in caplog.records if r.exc_info)


async def test_a_bug_behind_a_panel_gets_an_apology(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await start(world)

    async def broken(*args: object) -> None:
        raise RuntimeError("panel store on fire")

    monkeypatch.setattr(world.env.bot.service, "panel", broken)
    world.expect_bug("panel store on fire")
    panel = last_panel(world.alice)
    result = await world.alice.user.select(panel, ["2"], custom_id=select_id(panel))
    answer = result.response if result.response is not None else result.followups[0]
    assert answer.ephemeral
    assert "Sorry, something went wrong" in answer.content
    assert any("panel store on fire" in str(r.exc_info) for r in caplog.records if r.exc_info)
