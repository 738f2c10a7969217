"""Who a message pings (issue 16.3, P-34): each outbox post names the users it may ping;
text that came from a user (a campaign name, a player's name, a battle's end reason) never
pings anyone, ``@everyone`` and roles never ping, and a tracker pings only the players it is
waiting for. Read from simcord's own record of the pings of each message."""

from __future__ import annotations

from typing import Any

from simcord.backend import permissions

from bot.client import AdmiraltyBot
from storage import outbox as outbox_repo
from tests.cogs.simworld import World
from tests.cogs.test_battle_campaign import ftcamp_parent
from tests.cogs.test_cog_lifecycle import guess


async def outbox_posts(w: World, *channels: Any) -> list[Any]:
    """The messages the dispatcher posted in those channels (the campaign channel by
    default), as simcord keeps them: with the users and roles they pinged and whether they
    pinged everyone. Replies to commands, and the cogs' own posts, are not the outbox's."""
    recorded = {r.discord_message_id for r in await outbox_repo.all_rows(w.env.bot.service.db)}
    found = []
    for channel in channels or (w.chan,):
        for m in channel.history():
            if m.id in recorded:
                found.append(w.env.backend.get_message(channel.id, m.id))
    return found


def hostile(w: World) -> tuple[str, int]:
    """Text a user might type to ping people: a user, a role anyone may ping, everyone."""
    role = w.guild.create_role("Fleet", mentionable=True)
    return f"<@{w.carol.id}> <@&{role.id}> @everyone @here", role.id


async def test_user_text_never_pings_and_the_tracker_pings_only_the_owed(world: World) -> None:
    w = world
    text, role_id = hostile(w)
    # the bot may ping everyone in this channel: only allowed_mentions stops it
    everyone_role = w.env.backend.guilds[w.guild.id].roles[w.guild.id]
    everyone_role.permissions |= permissions.flag("mention_everyone")
    perms = w.env.backend.compute_permissions(w.guild.id, w.env.bot.user.id, w.chan.id)
    assert perms & permissions.flag("mention_everyone")

    await w.gm.slash(w.chan, "campaign create", ruleset="guess", name=f"Cup {text}"[:60])
    for member in (w.alice, w.bob):
        await member.slash(w.chan, "campaign join")
    await w.gm.slash(w.chan, "campaign start")
    await w.env.settle()
    posts = await outbox_posts(w)
    tracker = next(p for p in posts if "Waiting for" in p.content)
    assert f"<@{w.carol.id}>" in tracker.content  # the name is shown, mention and all
    assert sorted(tracker.ping_user_ids) == sorted([w.alice.id, w.bob.id])
    assert tracker.ping_role_ids == [] and not tracker.mention_everyone
    for p in posts:
        assert w.carol.id not in p.ping_user_ids, p.content
        assert role_id not in p.ping_role_ids and not p.mention_everyone, p.content

    await guess(w, "alice", "3")
    await guess(w, "bob", "4")
    await w.env.settle()
    bank = next(p for p in await outbox_posts(w)
                if p.content.startswith("**Cup") and "Bank" in p.content)
    assert bank.ping_user_ids == [w.alice.id]  # only the player now owed

    await w.gm.slash(w.chan, "campaign end", reason=text)
    await w.env.settle()
    ended = [p for p in await outbox_posts(w) if "@everyone" in p.content]
    assert ended
    for p in await outbox_posts(w):
        assert w.carol.id not in p.ping_user_ids and p.ping_role_ids == [], p.content
        assert not p.mention_everyone, p.content


async def test_a_players_name_never_pings(world: World) -> None:
    w = world
    sly = w.guild.add_member(w.env.create_user("sly"), nick=f"<@{w.carol.id}> @everyone")
    await w.env.settle()
    await w.gm.slash(w.chan, "campaign create", ruleset="guess", name="Dice Cup")
    await sly.slash(w.chan, "campaign join")
    await w.env.settle()
    joined = [p for p in await outbox_posts(w) if "joins" in p.content]
    assert joined and f"<@{w.carol.id}>" in joined[0].content
    assert joined[0].ping_user_ids == [] and not joined[0].mention_everyone


async def test_a_battle_end_reason_pings_nobody_in_the_thread_or_the_parent(
    world: World, simcord_bot: AdmiraltyBot,
) -> None:
    w = world
    text, role_id = hostile(w)
    everyone_role = w.env.backend.guilds[w.guild.id].roles[w.guild.id]
    everyone_role.permissions |= permissions.flag("mention_everyone")
    # P-20: a parent hears only a battle its rules list (an FTCamp battle of the round)
    await ftcamp_parent(w, simcord_bot)
    await w.gm.slash(w.chan, "battle start", name="Vega", parent="1", ref="0202/A-3",
                     designs="auto")  # E-D38: Valiant names no design
    (thread,) = w.chan.threads
    await w.gm.slash(thread, "battle end", reason=text)
    await w.env.settle()
    posts = await outbox_posts(w, thread, w.other_chan)
    told = [p for p in posts if "@everyone" in p.content]
    # the reason is said in the thread; P-15: nothing of it reaches the parent's channel
    assert {p.channel_id for p in told} == {thread.id}
    for p in told:  # (a step tracker's first post pings the seats it waits for: P-34)
        assert p.ping_user_ids == [] and p.ping_role_ids == [], p.content
        assert not p.mention_everyone and role_id not in p.ping_role_ids, p.content
