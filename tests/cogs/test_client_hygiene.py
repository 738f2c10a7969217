"""Discord hygiene on the client (issue 16.3): nothing the bot sends pings anyone unless that
send names its users (P-36); each command says where it may be used (P-37)."""

from __future__ import annotations

import asyncio

from simcord.backend import permissions

from bot.client import COGS, AdmiraltyBot
from tests.cogs.simworld import World
from tests.cogs.test_battle_campaign import ftcamp_parent
from tests.cogs.test_battle_thread import thread_of
from tests.cogs.test_mentions import hostile


def may_ping_everyone(w: World) -> None:
    """The bot may ping everyone in the server: only allowed_mentions stops it."""
    everyone_role = w.env.backend.guilds[w.guild.id].roles[w.guild.id]
    everyone_role.permissions |= permissions.flag("mention_everyone")


async def test_p36_a_reply_that_echoes_user_text_pings_nobody(world: World) -> None:
    w = world
    may_ping_everyone(w)
    text, role_id = hostile(w)
    created = await w.gm.slash(w.chan, "campaign create", ruleset="guess",
                               name=f"Cup {text}"[:60])
    assert not created.ephemeral
    sent = w.env.backend.get_message(w.chan.id, created.response.id)
    assert f"<@{w.carol.id}>" in sent.content and "@everyone" in sent.content
    assert sent.ping_user_ids == [] and sent.ping_role_ids == []
    assert not sent.mention_everyone


async def test_p36_a_battle_opening_post_pings_its_sides_only(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    w = world
    may_ping_everyone(w)
    await ftcamp_parent(w, simcord_bot)
    text, role_id = hostile(w)
    await w.gm.slash(w.chan, "battle start", name=f"Vega {text}"[:60], parent="1",
                     ref="0202/A-3", designs="auto")  # E-D38: Valiant names no design
    thread = thread_of(w)
    await w.env.settle()
    opening = next(m for m in thread.history() if "Sides:" in m.content)
    sent = w.env.backend.get_message(thread.id, opening.id)
    assert f"<@{w.carol.id}>" in sent.content
    assert sorted(sent.ping_user_ids) == sorted([w.alice.id, w.bob.id])
    assert sent.ping_role_ids == [] and not sent.mention_everyone


# P-37: where each command may be used. Discord's context types: 0 a server, 1 the bot's DM,
# 2 a group DM or another user's DM; installation types: 0 a server, 1 a user's account.
DM_COMMANDS = {"orders", "help", "roll", "orbits"}
GUILD, BOT_DM = 0, 1


def test_p37_every_command_says_where_it_may_be_used(simcord_bot: AdmiraltyBot) -> None:
    async def commands() -> list[dict]:
        await simcord_bot.open_service()  # the cogs are built with it
        try:
            for name in COGS:
                await simcord_bot.load_extension(name)
            return [c.to_dict(simcord_bot.tree) for c in simcord_bot.tree.get_commands()]
        finally:
            await simcord_bot.db.close()

    payload = asyncio.run(commands())
    names = {c["name"] for c in payload}
    assert names > DM_COMMANDS and {"campaign", "gm", "battle", "ftcamp"} < names
    for command in payload:
        wanted = [GUILD, BOT_DM] if command["name"] in DM_COMMANDS else [GUILD]
        assert command["contexts"] == wanted, command["name"]
        assert command["integration_types"] == [GUILD], command["name"]


async def test_p37_a_dm_offers_only_the_dm_commands(world: World) -> None:
    w = world
    offered = {c.split()[0] for c in w.alice.user.available_commands()}
    assert offered == DM_COMMANDS
    rolled = await w.alice.user.slash("roll", expression="2d6")
    assert "rolls" in rolled.response.content
    # /orbits works in a DM for the hand; its map belongs to a campaign's channel
    mapped = await w.alice.user.slash("orbits map")
    assert mapped.ephemeral, mapped.response.content
    assert mapped.response.content.endswith(
        "In a DM you can use /orders, /roll, /help and /orbits hand.")
    in_server = {c.split()[0] for c in w.alice.available_commands(w.chan)}
    assert in_server > DM_COMMANDS | {"campaign", "gm"}
