"""/gm replace is a server command: not offered in a DM (P-37; issue 8, part 5 refused it there)."""

from __future__ import annotations

import pytest
from simcord.backend.errors import SetupError

from tests.cogs.simworld import World, texts
from tests.cogs.test_cog_lifecycle import start


async def test_gm_replace_is_not_offered_in_a_dm(world: World) -> None:
    """P-37: /gm works in servers only, so Discord does not offer it in a DM at all (it
    was a refusal there before)."""
    await start(world)
    before = texts(world.chan)
    assert not any(c.startswith("gm") for c in world.gm.user.available_commands())
    with pytest.raises(SetupError, match="not visible to this user here"):
        await world.gm.user.slash("gm replace", old=world.alice, new=world.carol)
    assert texts(world.chan) == before  # nobody took a seat


async def test_gm_replace_in_the_channel_still_works(world: World) -> None:
    await start(world)
    result = await world.gm.slash(world.chan, "gm replace", old=world.alice, new=world.carol)
    assert result.ephemeral and "carol takes over alice's seat" in result.response.content
    assert any("carol takes over seat 1 from alice" in t for t in texts(world.chan))


async def test_gm_replace_with_someone_outside_the_server_is_refused(world: World) -> None:
    await start(world)
    other = world.env.create_guild("Elsewhere")
    eve = other.add_member(world.env.create_user("eve"))
    await world.env.settle()
    result = await world.gm.slash(world.chan, "gm replace", old=world.alice, new=eve.user)
    assert result.ephemeral
    assert "eve is not a member of this server" in result.response.content
