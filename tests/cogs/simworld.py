"""Helpers for the simcord tests: the small server, and reading where messages went."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord
import simcord

from storage import outbox as outbox_repo
from storage.outbox import NewMessage


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    chan: simcord.ChannelHandle
    other_chan: simcord.ChannelHandle
    gm: simcord.MemberActor
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    admin: simcord.MemberActor
    expected_bugs: list[str] = field(default_factory=list)

    def expect_bug(self, text: str) -> None:
        """A test that provokes a bug on purpose names it, so teardown does not fail on it."""
        self.expected_bugs.append(text)


# ---------------------------------------------------------------- reading what happened


def embed_text(embed: discord.Embed) -> str:
    """An embed as text: title, description, "name: value" per field, footer."""
    lines = [embed.title or "", embed.description or ""]
    lines += [f"{f.name}: {f.value}" for f in embed.fields]
    lines.append(embed.footer.text or "")
    return "\n".join(line for line in lines if line)


def shown(message: discord.Message) -> str:
    """What a message shows: its text, then its embeds."""
    return "\n".join([message.content, *(embed_text(e) for e in message.embeds)]).strip()


def texts(channel: simcord.ChannelHandle) -> list[str]:
    return [shown(m) for m in channel.history()]


def dm_texts(member: simcord.MemberActor) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()]


def last_dm(member: simcord.MemberActor) -> discord.Message:
    message = member.user.dm_channel.last_message
    assert message is not None, f"{member.name} has no DM"
    return message


def custom_ids(message: Any) -> list[str]:
    """Every custom id on a message (discord.Message or simcord ResponseMessage)."""
    out: list[str] = []
    if isinstance(message, discord.Message):
        for row in message.components:
            for child in getattr(row, "children", []):
                if getattr(child, "custom_id", None):
                    out.append(child.custom_id)
        return out
    for row in message.components:
        for child in row.get("components", []):
            if child.get("custom_id"):
                out.append(child["custom_id"])
    return out


def select_id(message: Any) -> str:
    ids = [c for c in custom_ids(message) if ":sel:" in c]
    assert ids, f"no Select on {message.content!r}"
    return ids[0]


def last_panel(member: simcord.MemberActor) -> discord.Message:
    """The newest DM that carries panel components."""
    panels = [m for m in member.user.dm_channel.history() if custom_ids(m)]
    assert panels, f"{member.name} has no panel in DM"
    return panels[-1]


def fresh(member: simcord.MemberActor, message: discord.Message) -> discord.Message:
    """The current version of a DM message (after edits)."""
    return next(m for m in member.user.dm_channel.history() if m.id == message.id)


# ---------------------------------------------------------------- faults
async def post_in_two_pieces_failing_the_second(
    world: World, monkeypatch: Any
) -> tuple[str, str]:
    """Queues an overlong channel message of two pieces; Discord takes the first piece and
    refuses the next post to that channel once (HTTP 503). Returns the two pieces; the
    caller settles or advances time to see what the dispatcher does."""
    first, second = "a" * 1900, "b" * 1900
    real_send = discord.abc.Messageable.send

    async def send_then_fail_next(self: Any, content: Any = None, **kwargs: Any) -> Any:
        sent = await real_send(self, content, **kwargs)
        if content == first:  # the next post to this channel (the second piece) fails once
            # (env.inject_error refuses calls from inside the bot; this is the same fault)
            world.env.backend.faults.append({
                "method": "POST", "path": f"/channels/{world.chan.id}/messages",
                "status": 503, "code": 0, "message": "injected", "times": 1})
        return sent

    monkeypatch.setattr(discord.abc.Messageable, "send", send_then_fail_next)
    service = world.env.bot.service
    async with service.db.transaction() as tx:
        await outbox_repo.enqueue(tx, [NewMessage(
            None, "channel", f"{first}\n{second}", channel_id=world.chan.id)],
            world.env.bot.clock().timestamp())
    world.env.bot.wake_loops()
    return first, second
