"""Two background loops: the outbox dispatcher and the deadline scheduler.

The service writes every outgoing message into the outbox in the same transaction as the
game state; the dispatcher sends the rows and marks them. What it guarantees (P-33):

- Nothing is lost: a crash between commit and send sends the row after the restart.
- A sent-mark marks the row that was sent and no other: outbox ids are never reused, so a
  row superseded while it was being sent (a newer tracker edit) marks nothing, and the newer
  row still goes out.
- A crash between Discord's reply and the sent-mark sends the row again with the SAME nonce
  (``enforce_nonce``); Discord then answers with the message it already made, so nothing is
  posted twice when the bot is back within Discord's nonce window (a few minutes). After a
  longer outage that one interrupted post can appear twice; for a panel DM the retry then
  takes the buttons off the copy the first try left (``_strip_copies``). Edits are whole
  texts: repeating one changes nothing.
- An overlong message's progress through its pieces is stored, so a retry (also after a
  restart) posts only the pieces not yet on Discord.
- Each post pings only the users its row names (P-34); text from users, roles and
  @everyone never ping.

The scheduler sleeps until the next deadline or reminder (``asyncio`` time, which simcord's
virtual clock drives) and runs what is due. Both wake early when the service says something
changed. How long a failed message waits and when it is given up is the service's one retry
policy (config ``[outbox]``); this loop only sleeps until the next message may go. Pictures
are drawn by the service after commit, off the event loop, once per message
(``outbox_files``). The waits are discord.py ``wait_for`` listeners with a timeout: simcord
recognises those as parked (an ``asyncio.Event`` wait is not), and a "dirty" flag covers a
wake that arrives while a loop is busy rather than waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.campaign.models import OutboxMessage
from bot.errors import InvalidState, PermissionDenied
from cogs.battle_open import open_view
from cogs.common import split_content
from cogs.panel_items import render

if TYPE_CHECKING:
    from datetime import datetime

    from bot.campaign import CampaignService

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
DM_CLOSED_CODE = 50007
UNKNOWN_MESSAGE_CODE = 10008
BATCH = 20
IDLE_POLL = 6 * 3600.0  # a safety net: look at the outbox now and then without a wake
MAX_SLEEP = 86_400.0  # re-check the schedule at least daily
RESTART_DELAY = 30.0  # seconds before a crashed loop starts again
OUTBOX_EVENT = "admiralty_outbox"  # dispatched as on_admiralty_outbox; nobody listens to it
SCHEDULE_EVENT = "admiralty_schedule"
DISPATCHER, SCHEDULER = "admiralty-outbox", "admiralty-scheduler"  # the loops' task names
EMBED_COLOUR = discord.Colour(0x3B6EA5)  # one quiet colour for every result
COPY_LOOKBACK = 10  # DMs above a re-posted panel looked at for the copy an earlier try left
EXTRA_COPY = "This was an extra copy of your panel; your panel is the message below."


class Loops(commands.Cog):
    """Owns the dispatcher and scheduler tasks; ``wake()`` nudges both."""

    def __init__(self, bot: commands.Bot, service: CampaignService,
                 clock: Callable[[], datetime],
                 at_rest: Callable[[int], object] | None = None) -> None:
        self.bot = bot  # the gateway: its events, channels and DMs
        self.service = service
        self.clock = clock
        # called with the intents under way once the outbox is sent: the bot's full garbage
        # collections go there, where they delay nobody (bot.gc_pacing)
        self.at_rest = at_rest
        self._dirty = {OUTBOX_EVENT: False, SCHEDULE_EVENT: False}
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self._ending: set[str] = set()  # loops asked to end after the work under way (P-38)

    def wake(self) -> None:
        for event in self._dirty:
            self._dirty[event] = True
            self.bot.dispatch(event)

    async def cog_load(self) -> None:
        self._stopping = False
        self._ending.clear()
        self._launch(DISPATCHER, self._dispatch_forever)
        self._launch(SCHEDULER, self._schedule_forever)

    def _launch(self, name: str, body: Callable[[], Awaitable[None]]) -> None:
        task = asyncio.create_task(body(), name=name)
        self._tasks = [t for t in self._tasks if not t.done()] + [task]

        def crashed(done: asyncio.Task[None]) -> None:
            # A bug in one pass must not stop deadlines or messages for good: log it and
            # start the loop again after a pause (no catch-all inside the loop itself).
            if done.cancelled() or done.exception() is None or self._stopping:
                return
            log.error("%s stopped; restarting in %.0fs", name, RESTART_DELAY,
                      exc_info=done.exception())
            self._tasks.append(asyncio.create_task(self._relaunch(name, body)))

        task.add_done_callback(crashed)

    async def _relaunch(self, name: str, body: Callable[[], Awaitable[None]]) -> None:
        await asyncio.sleep(RESTART_DELAY)
        if not self._stopping:
            self._launch(name, body)

    async def cog_unload(self) -> None:
        await self.stop()

    async def end_scheduler(self, grace: float) -> None:
        """Graceful stop, first stage: the scheduler finishes the pass under way (every
        deadline and reminder due now) and starts no other."""
        await self._end(SCHEDULER, SCHEDULE_EVENT, grace)

    async def flush_outbox(self, grace: float) -> None:
        """Graceful stop, last stage (no intent runs any more): the dispatcher sends every
        message already due, then ends. One that waits for a retry stays for the next start."""
        await self._end(DISPATCHER, OUTBOX_EVENT, grace)

    async def _end(self, name: str, event: str, grace: float) -> None:
        self._ending.add(event)
        tasks = [t for t in self._tasks if t.get_name() == name and not t.done()]
        if not tasks or not self.bot.is_ready():
            return  # never started work (the bot did not connect): stop() cancels it
        self._dirty[event] = True
        self.bot.dispatch(event)
        _, late = await asyncio.wait(tasks, timeout=grace)
        if late:
            log.warning("%s still busy after %.0fs; stopping it", name, grace)

    async def stop(self) -> None:
        self._stopping = True
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ scheduler

    async def _schedule_forever(self) -> None:
        await self.bot.wait_until_ready()
        service = self.service
        while SCHEDULE_EVENT not in self._ending:
            self._dirty[SCHEDULE_EVENT] = False
            await service.run_due()
            if SCHEDULE_EVENT in self._ending:
                return
            when = await service.next_wakeup()
            delay = MAX_SLEEP
            if when is not None:
                delay = min(MAX_SLEEP, max(0.0, (when - self.clock()).total_seconds()))
            await self._wait(SCHEDULE_EVENT, delay)

    # ------------------------------------------------------------------ dispatcher

    async def _dispatch_forever(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            self._dirty[OUTBOX_EVENT] = False
            service = self.service
            # Only the oldest unsent message of each destination comes back, so a message
            # that waits for its retry holds back only the ones after it to the same place.
            rows = await service.outbox_pending(BATCH)
            for row in rows:
                await self.deliver(row)
            if rows:
                continue  # sent ones make room for the next of their destination
            if OUTBOX_EVENT in self._ending:
                return  # nothing due is left: the graceful stop goes on
            if self.at_rest is not None:
                self.at_rest(service.intents.running)
            when = await service.outbox_next_attempt()
            timeout = IDLE_POLL
            if when is not None:
                timeout = min(IDLE_POLL, max(1.0, when - self.clock().timestamp()))
            await self._wait(OUTBOX_EVENT, timeout)

    async def deliver(self, row: OutboxMessage) -> bool:
        """Sends one row and records the outcome; False when it should be tried again later."""
        service = self.service
        try:
            message = await self._send(row)
        except discord.HTTPException as error:
            if error.status in RETRY_STATUSES:
                at = await service.outbox_retry_later(row.id, f"HTTP {error.status}")
                log.warning("outbox %s: HTTP %s, %s", row.id, error.status,
                            "will retry" if at is not None else "gave up")
                return at is None
            if row.kind == "dm" and error.code == DM_CLOSED_CODE and row.user_id is not None:
                log.info("outbox %s: user %s does not accept DMs", row.id, row.user_id)
                await service.dm_closed(row.user_id)
            else:
                log.warning("outbox %s: HTTP %s code %s", row.id, error.status, error.code)
            await service.outbox_failed(row.id, f"HTTP {error.status} code {error.code}")
            return True
        if not await service.outbox_sent(row.id, message.id, row.edit_of):
            log.info("outbox %s: superseded while it was being sent", row.id)
        return True

    async def _send(self, row: OutboxMessage) -> discord.Message:
        destination = await self._destination(row)
        if row.edit_of is not None:
            edited = await self._edit(destination, row)
            if edited is not None:
                return edited
            # the message is gone (or was never posted): post the content anew; its id is
            # recorded for the later edits of the same message
        pieces = split_content(row.content)
        view = await self._panel_view(row)
        if view is None and row.kind == "channel" and row.campaign_id and row.embeds:
            view = open_view(row.campaign_id, row.embeds)  # P-17: the GM's open buttons
        drawn = await self.service.outbox_files(row)  # in a worker thread, once
        files = [discord.File(io.BytesIO(data), filename=name) for name, data in drawn]
        panel_dm = row.kind == "dm" and row.panel is not None
        if panel_dm and not row.started:
            await self.service.outbox_started(row.id)
        last: discord.Message | None = None
        for i, piece in enumerate(pieces):
            if i < row.pieces_sent and i < len(pieces) - 1:
                continue  # posted by an earlier try of this message (stored, P-33)
            extra: dict[str, Any] = {"allowed_mentions": allowed_mentions(row)}
            if row.nonce:
                # the same nonce on every try: Discord answers a repeat with the first post
                # (discord.py 2.7 sends enforce_nonce with every nonce, discord/http.py)
                extra["nonce"] = f"{row.nonce}.{i}"
            if i == len(pieces) - 1:
                # Files, embeds and the panel go with the last piece, under the text they
                # belong to (an embed's picture must be a file of the same message).
                if files:
                    extra["files"] = files
                if row.embeds:
                    extra["embeds"] = [to_discord(e) for e in row.embeds]
                if view is not None:
                    extra["view"] = view
            last = await destination.send(piece or None, **extra)
            if i < len(pieces) - 1:
                await self.service.outbox_piece_sent(row.id, i + 1)
        assert last is not None
        if panel_dm and row.started:
            await self._strip_copies(destination, row, last)
        return last

    async def _strip_copies(self, destination: discord.abc.Messageable, row: OutboxMessage,
                            posted: discord.Message) -> None:
        """An earlier try of this panel DM may have posted it and died before its sent-mark,
        beyond Discord's nonce window (P-33): a copy of the same panel just above that no
        outbox row knows loses its buttons and says where the panel is. A failure here
        leaves the copy as it is (its buttons act for the same seat and step)."""
        assert row.panel is not None and row.user_id is not None
        ref = row.panel
        prefix = f"adm:{ref.campaign_id}:{ref.step_no}:{ref.seat}:"
        me = self.bot.user
        try:
            async for m in destination.history(limit=COPY_LOOKBACK, before=posted):
                ids = [c.custom_id or "" for r in m.components
                       if isinstance(r, discord.ActionRow) for c in r.children
                       if isinstance(c, discord.Button | discord.SelectMenu)]
                if (me is None or m.author.id != me.id
                        or m.interaction_metadata is not None  # an /orders reply
                        or not any(i.startswith(prefix) for i in ids)
                        or await self.service.outbox_known_dm(row.user_id, m.id)):
                    continue
                log.info("outbox %s: DM %s was an extra copy of it; buttons removed",
                         row.id, m.id)
                await m.edit(content=EXTRA_COPY, view=None,
                             allowed_mentions=allowed_mentions(row))
        except discord.HTTPException as error:
            log.warning("outbox %s: extra copies not checked (HTTP %s)", row.id, error.status)

    async def _edit(
        self, destination: discord.abc.Messageable, row: OutboxMessage
    ) -> discord.Message | None:
        """Edits the message in place (a tracker; a DM panel, or the news or short line a
        panel message becomes); None when there is nothing to edit (its first post failed,
        or Discord answers 404 / Unknown Message because it was deleted). An edit is one
        message (the service keeps what it edits within Discord's limit)."""
        if row.target_message_id is None:
            return None
        get = getattr(destination, "get_partial_message", None)
        if get is None:
            return None
        extra: dict[str, Any] = {"allowed_mentions": allowed_mentions(row)}
        if row.kind == "dm":
            # a DM's new version brings its own buttons (None: a panel message that became
            # news or a short line loses them)
            extra["view"] = await self._panel_view(row)
        elif row.embeds:
            # a step's post with the results riding on it (H-D46): every version carries
            # them all, so the newest edit is the whole message
            extra["embeds"] = [to_discord(e) for e in row.embeds]
        drawn = await self.service.outbox_files(row)
        if drawn:  # the pictures of this version replace the message's files
            extra["attachments"] = [discord.File(io.BytesIO(data), filename=name)
                                    for name, data in drawn]
        try:
            return await get(row.target_message_id).edit(content=row.content[:2000], **extra)
        except discord.NotFound as error:
            if error.code not in (UNKNOWN_MESSAGE_CODE, 0):
                raise
            log.info("outbox %s: message %s is gone; posting it anew", row.id,
                     row.target_message_id)
            return None

    async def _destination(self, row: OutboxMessage) -> discord.abc.Messageable:
        if row.kind == "dm":
            if row.user_id is None:
                raise ValueError(f"outbox row {row.id} is a DM without a user")
            return await self.bot.create_dm(discord.Object(id=row.user_id))
        if row.channel_id is None:
            raise ValueError(f"outbox row {row.id} is a channel message without a channel")
        channel = self.bot.get_channel(row.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(row.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _panel_view(self, row: OutboxMessage) -> discord.ui.View | None:
        ref = row.panel
        if ref is None:
            return None
        try:
            # drawn for the DM's reader only: a seat handed over meanwhile shows no buttons
            # (and none of the new holder's choices) to the old holder
            panel = await self.service.panel(ref.campaign_id, ref.step_no, ref.seat,
                                             user_id=row.user_id)
        except (InvalidState, PermissionDenied):
            return None  # the step ended before the message went out; /orders has the new one
        _content, view = render(panel)
        return view

    async def _wait(self, event: str, timeout: float) -> None:
        """Sleep until ``timeout`` or a wake; returns at once if a wake came meanwhile."""
        if self._dirty[event]:
            return
        with contextlib.suppress(TimeoutError):
            await self.bot.wait_for(event, timeout=timeout)


def allowed_mentions(row: OutboxMessage) -> discord.AllowedMentions:
    """Only the users the row names may be pinged (P-34): a ``<@id>`` or ``@everyone`` in
    text that came from a user (a name, a note, a battle's end reason) pings nobody."""
    users: list[discord.abc.Snowflake] | bool = (
        [discord.Object(id=u) for u in row.mentions] if row.mentions else False)
    return discord.AllowedMentions(everyone=False, users=users, roles=False,
                                   replied_user=False)


def to_discord(stored: dict[str, Any]) -> discord.Embed:
    """A stored embed (already within Discord's limits, bot.rules.embed_limits) as a discord.Embed;
    its picture is the message's file of that name."""
    embed = discord.Embed(title=stored.get("title") or None,
                          description=stored.get("description") or None,
                          colour=EMBED_COLOUR)
    for f in stored.get("fields", []):
        embed.add_field(name=f["name"], value=f["value"], inline=bool(f.get("inline")))
    if stored.get("footer"):
        embed.set_footer(text=stored["footer"])
    if stored.get("image"):
        embed.set_image(url=f"attachment://{stored['image']}")
    return embed
