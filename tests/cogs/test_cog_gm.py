"""/gm: every tool, as the GM and as an admin; refused to other players."""

from __future__ import annotations

from datetime import timedelta

from tests.cogs.simworld import World, custom_ids, dm_texts, fresh, last_dm, texts
from tests.cogs.test_cog_lifecycle import guess, start

HOUR = 3600.0


async def test_extend_moves_the_deadline(world: World) -> None:
    started = world.env.now()
    await start(world)
    result = await world.gm.slash(world.chan, "gm extend", hours=24.0)
    assert result.ephemeral and "24" in result.response.content
    status = await world.alice.slash(world.chan, "campaign status")
    expected = int((started + timedelta(hours=72)).timestamp())
    assert f"<t:{expected}:R>" in status.response.content
    # At the old deadline nothing happens.
    await world.env.advance_time(48 * HOUR + 60)
    assert not any("Guesses" in t for t in texts(world.chan))
    await world.env.advance_time(24 * HOUR)
    assert sum("Guesses" in t for t in texts(world.chan)) == 1


async def test_pause_stops_the_clock_and_resume_starts_it(world: World) -> None:
    await start(world)
    result = await world.gm.slash(world.chan, "gm pause")
    assert result.ephemeral
    status = await world.alice.slash(world.chan, "campaign status")
    assert "Paused" in status.response.content
    await world.env.advance_time(100 * HOUR)
    assert not any("Guesses" in t for t in texts(world.chan))
    result = await world.gm.slash(world.chan, "gm resume")
    assert result.ephemeral
    await world.env.advance_time(49 * HOUR)
    assert sum("Guesses" in t for t in texts(world.chan)) == 1


async def test_advance_resolves_now_with_defaults(world: World) -> None:
    await start(world)
    await guess(world, "alice", "4")
    result = await world.gm.slash(world.chan, "gm advance")
    assert result.ephemeral
    reveal = [t for t in texts(world.chan) if "Guesses" in t]
    assert len(reveal) == 1
    assert "alice 4" in reveal[0] and "bob 1" in reveal[0]  # bob took the default


async def test_undo_restores_the_step_and_the_submissions(world: World) -> None:
    await start(world)
    await guess(world, "alice", "4")
    await guess(world, "bob", "5")
    assert any("Guesses" in t for t in texts(world.chan))
    result = await world.gm.slash(world.chan, "gm undo")
    assert result.ephemeral
    orders = await world.alice.user.slash("orders")
    assert "Guess the roll" in orders.response.content
    assert "Your orders are in" in orders.response.content  # her guess came back


async def test_log_shows_public_events_but_no_private_ones(world: World) -> None:
    await start(world)
    await guess(world, "alice", "4")
    await guess(world, "bob", "5")
    result = await world.gm.slash(world.chan, "gm log", limit=20)
    assert result.ephemeral
    assert "the die shows" in result.response.content
    assert "locked" not in result.response.content  # seat events stay with the seat


async def test_kick_removes_the_player(world: World) -> None:
    await start(world)
    result = await world.gm.slash(world.chan, "gm kick", player=world.bob)
    assert result.ephemeral and "bob" in result.response.content
    orders = await world.bob.slash(world.chan, "orders")
    assert orders.ephemeral
    assert "no seat" in orders.response.content


async def test_replace_hands_the_seat_over_and_the_old_panel_stops_working(world: World) -> None:
    await start(world)
    old_panel = last_dm(world.bob)
    result = await world.gm.slash(world.chan, "gm replace", old=world.bob, new=world.carol)
    assert result.ephemeral and "carol" in result.response.content
    orders = await world.carol.slash(world.chan, "orders")
    assert orders.ephemeral
    assert "Guess the roll" in last_dm(world.carol).content
    # Bob's panel from before is not his any more: it says so and has no buttons left (a
    # forged copy of them is refused: test_panel_trust)
    now = fresh(world.bob, old_panel)
    assert "handed to another player" in now.content and not custom_ids(now)
    assert "Guesses" not in "\n".join(texts(world.chan))


async def test_an_admin_acts_as_gm(world: World) -> None:
    await start(world)
    result = await world.admin.slash(world.chan, "gm pause")
    assert result.ephemeral and "paused" in result.response.content.lower()


async def test_gm_tools_are_refused_to_players(world: World) -> None:
    await start(world)
    for command in ("gm pause", "gm advance", "gm undo", "gm log"):
        result = await world.alice.slash(world.chan, command)
        assert result.ephemeral, command
        assert "GM" in result.response.content, (command, result.response.content)
    assert not any("Guesses" in t for t in texts(world.chan))
    assert "Guess the roll" in "\n".join(dm_texts(world.alice))
