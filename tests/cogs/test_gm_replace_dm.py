"""/gm replace used in a DM is refused clearly, like every campaign command (issue 8, part 5)."""

from __future__ import annotations

from tests.cogs.simworld import World, texts
from tests.cogs.test_cog_lifecycle import start


async def test_gm_replace_in_a_dm_is_a_refusal_not_an_apology(world: World) -> None:
    await start(world)
    before = texts(world.chan)
    result = await world.gm.user.slash("gm replace", old=world.alice, new=world.carol)
    assert result.ephemeral
    assert "campaign's channel" in result.response.content
    assert "Sorry, something went wrong" not in result.response.content
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
