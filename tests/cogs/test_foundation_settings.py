"""/campaign settings: long values are listed by size; a key alone shows its full value."""

from __future__ import annotations

import pytest

from bot.rules.base import Ruleset
from tests.cogs.simworld import World
from tests.support import mixed

MEDIUM = "x" * 300  # too long for the list, fits a message
HUGE = "".join(f"line {i:04d} of a scenario; " for i in range(120))  # > 2000 characters


@pytest.fixture(autouse=True)
def mixed_rules(guess_rules: Ruleset) -> Ruleset:
    mixed.register()
    return mixed.RULESET


async def open_with_notes(w: World, notes: str) -> None:
    await w.gm.slash(w.chan, "campaign create", ruleset="mixed", name="Hide")
    result = await w.gm.slash(w.chan, "campaign settings", key="notes", value=notes)
    assert result.ephemeral
    assert "Changed `notes` to" in result.response.content


async def test_list_shows_a_long_value_by_its_size(world: World) -> None:
    await open_with_notes(world, HUGE)
    shown = await world.alice.slash(world.chan, "campaign settings")
    assert shown.ephemeral
    content = shown.response.content
    assert f"`notes` = ({len(HUGE)} characters; `/campaign settings key:notes` shows it)" in (
        content
    )
    assert "line 0000" not in content
    assert "`rounds` = 1" in content and "`step_hours` = 48" in content  # short ones inline
    assert len(content) < 1000


async def test_the_change_reply_does_not_echo_a_long_value(world: World) -> None:
    await world.gm.slash(world.chan, "campaign create", ruleset="mixed", name="Hide")
    result = await world.gm.slash(world.chan, "campaign settings", key="notes", value=HUGE)
    assert f"Changed `notes` to ({len(HUGE)} characters;" in result.response.content
    assert "line 0000" not in result.response.content


async def test_a_key_alone_shows_a_short_value_inline(world: World) -> None:
    await open_with_notes(world, "bring dice")
    shown = await world.bob.slash(world.chan, "campaign settings", key="notes")
    assert shown.ephemeral
    assert shown.response.content == "`notes` = bring dice"
    assert not shown.response.attachments


async def test_a_key_alone_shows_a_medium_value_in_full_in_the_message(world: World) -> None:
    await open_with_notes(world, MEDIUM)
    shown = await world.gm.slash(world.chan, "campaign settings", key="notes")
    assert MEDIUM in shown.response.content
    assert not shown.response.attachments


async def test_a_key_alone_attaches_a_value_over_the_message_limit(world: World) -> None:
    await open_with_notes(world, HUGE)
    shown = await world.gm.slash(world.chan, "campaign settings", key="notes")
    assert shown.ephemeral
    assert f"`notes` ({len(HUGE)} characters) is attached" in shown.response.content
    [attachment] = shown.response.attachments
    assert attachment.filename == "notes.txt"
    assert (await attachment.read()).decode("utf-8") == HUGE


async def test_a_key_alone_that_is_unknown_lists_the_settings(world: World) -> None:
    await open_with_notes(world, "x")
    refused = await world.gm.slash(world.chan, "campaign settings", key="colour")
    assert refused.ephemeral
    assert "Unknown setting colour" in refused.response.content
    assert "notes" in refused.response.content and "step_hours" in refused.response.content


async def test_a_value_without_a_key_is_refused(world: World) -> None:
    await open_with_notes(world, "x")
    refused = await world.gm.slash(world.chan, "campaign settings", value="5")
    assert refused.ephemeral and "Name the setting" in refused.response.content


async def test_key_autocomplete_keeps_long_values_short(world: World) -> None:
    await open_with_notes(world, HUGE)
    choices = await world.gm.autocomplete(world.chan, "campaign settings", "key", "no")
    assert [c["value"] for c in choices] == ["notes"]
    assert choices[0]["name"].startswith(f"notes (now ({len(HUGE)} characters;")
