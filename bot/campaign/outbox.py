"""The outbox API for the dispatcher (the Discord side sends; this side records).

Also the ONE retry policy (config ``[outbox]``): how long to wait after a failed send, when
to give up, and whom to tell then. Pictures are drawn here, after commit and off the event
loop, once per message (kept in memory until the message is sent or has failed; keyed by the
outbox id, which is never reused, so a newer row never gets an older row's pictures)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.campaign import pictures
from bot.campaign.cache import LruCache
from bot.campaign.core import Clock
from bot.campaign.models import OutboxMessage, PanelRef
from storage import campaigns, players
from storage import outbox as repo
from storage.db import Database, Tx
from storage.outbox import NewMessage, OutboxRow
from storage.status import OutboxStatus

log = logging.getLogger(__name__)

# Messages whose pictures are kept drawn between a failed try and the next: only the oldest
# message of each destination is ever tried, so this bounds memory without redrawing.
DRAWN_MESSAGES = 32


@dataclass(frozen=True)
class RetryPolicy:
    """``[outbox]``: the wait after the n-th failed try is ``base_seconds * 2**(n-1)``, at
    most ``max_seconds``; after ``max_attempts`` tries the message has failed."""

    max_attempts: int = 8
    base_seconds: float = 10.0
    max_seconds: float = 1800.0

    def delay(self, failures: int) -> float:
        return min(self.max_seconds, self.base_seconds * 2.0 ** max(0, failures - 1))


class Outbox:
    """The dispatcher's side of the outbox: what is due, how it went, who hears of a failure.

    ``cache``: the service's campaigns as of their last commit (a closed DM changes seats, so
    those campaigns are dropped from it); ``wake``: tells the dispatcher to look again."""

    def __init__(self, db: Database, clock: Clock, wake: Callable[[], None] | None,
                 cache: LruCache[Any], policy: RetryPolicy | None = None) -> None:
        self.db = db
        self.clock = clock
        self._wake = wake
        self._cache = cache
        self.policy = policy or RetryPolicy()
        self._drawn: LruCache[list[tuple[str, bytes]]] = LruCache(DRAWN_MESSAGES)

    def _now(self) -> float:
        return self.clock().timestamp()

    async def outbox_pending(self, limit: int = 50) -> list[OutboxMessage]:
        """Messages due for (another) attempt, oldest first; per destination only the oldest
        unsent one, so nothing overtakes a message that waits for its retry."""
        rows = await repo.due(self.db, self._now(), limit)
        return [
            OutboxMessage(
                id=r.id, campaign_id=r.campaign_id, kind=r.kind,  # type: ignore[arg-type]
                channel_id=r.channel_id, user_id=r.user_id, content=r.content,
                pictures=tuple(r.pictures),
                panel=PanelRef(*r.panel) if r.panel else None, attempts=r.attempts,
                edit_of=r.edit_of, target_message_id=r.target_message_id,
                embeds=tuple(r.embeds), nonce=r.nonce, pieces_sent=r.pieces_sent,
                mentions=tuple(r.mentions), started=r.started,
            )
            for r in rows
        ]

    async def outbox_files(self, message: OutboxMessage) -> list[tuple[str, bytes]]:
        """The message's pictures as ``(file name, PNG bytes)``, drawn in a worker thread the
        first time and kept until the message is sent or has failed (a retry sends the
        same bytes without drawing again)."""
        drawn = self._drawn.get(message.id)
        if drawn is not None:
            return drawn
        files: list[tuple[str, bytes]] = []
        for pic in message.pictures:
            if pic.data is not None:
                files.append((pic.name, pic.data))
                continue
            try:
                files.append((pic.name, await pictures.draw(pic.ruleset, pic.renderer, pic.view)))
            except Exception:  # a renderer bug must not hold the message back for good
                log.exception("outbox %s: drawing %s failed; sent without it", message.id,
                              pic.name)
        self._drawn.put(message.id, files)
        return files

    async def outbox_started(self, outbox_id: int) -> None:
        """A panel DM's post begins (P-33): a later try looks for a copy it left."""
        async with self.db.transaction() as tx:
            await repo.mark_started(tx, outbox_id)

    async def outbox_known_dm(self, user_id: int, message_id: int) -> bool:
        """Some outbox row recorded that Discord message as its DM to the user."""
        return await repo.known_dm(self.db, user_id, message_id)

    async def outbox_next_attempt(self) -> float | None:
        """Epoch seconds when the next message may go (for the dispatcher's sleep)."""
        return await repo.next_attempt(self.db)

    async def outbox_sent(self, outbox_id: int, discord_message_id: int | None,
                          edit_of: int | None = None) -> bool:
        """Marks that row sent (and only it: ids are never reused, P-33); False when it was
        superseded while it was being sent (the newer row goes out in its turn)."""
        async with self.db.transaction() as tx:
            marked = await repo.mark_sent(tx, outbox_id, discord_message_id, edit_of)
        self._drawn.pop(outbox_id, None)
        return marked

    async def outbox_piece_sent(self, outbox_id: int, pieces_sent: int) -> None:
        """Stored, so a retry after a failure or a restart posts only the pieces after it."""
        async with self.db.transaction() as tx:
            await repo.mark_pieces(tx, outbox_id, pieces_sent)

    async def outbox_retry_later(self, outbox_id: int, error: str) -> float | None:
        """A transient failure (rate limit, server error): tried again after the configured
        backoff; returns when, or None when that was the last try (then it has failed and
        the GM is told, as by ``outbox_failed``)."""
        now = self._now()
        async with self.db.transaction() as tx:
            row = await repo.get(tx, outbox_id)
            if row is None or row.status != OutboxStatus.PENDING:
                return None
            failures = row.attempts + 1
            if failures < self.policy.max_attempts:
                at = now + self.policy.delay(failures)
                await repo.mark_retry(tx, outbox_id, error, at)
                return at
            await self._fail(tx, row, f"{error} (after {failures} tries)", gave_up=True)
        self._after_failure(outbox_id)
        return None

    async def outbox_failed(self, outbox_id: int, error: str) -> None:
        """A permanent failure (no access, no such channel): never tried again; the GM is
        told (never the content of a DM)."""
        async with self.db.transaction() as tx:
            row = await repo.get(tx, outbox_id)
            if row is None:
                return
            await self._fail(tx, row, error, gave_up=False)
        self._after_failure(outbox_id)

    def _after_failure(self, outbox_id: int) -> None:
        self._drawn.pop(outbox_id, None)
        if self._wake is not None:
            self._wake()

    async def _fail(self, tx: Tx, row: OutboxRow, error: str, *, gave_up: bool) -> None:
        if not await repo.mark_failed(tx, row.id, error):
            return  # already failed (closed DMs fail a user's pending DMs at once)
        if row.notice or row.campaign_id is None:
            return  # a failed notice tells nobody: no chain of notices about notices
        notes = await self._undelivered(tx, row, gave_up)
        await repo.enqueue(tx, notes, self._now())

    async def _undelivered(self, tx: Tx, row: OutboxRow, gave_up: bool) -> list[NewMessage]:
        """Who hears of a message that could not be delivered: the GM by DM (a channel
        message's failure, or a player's DM: only that it failed, never what it said), and
        the channel when a DM failed, so its reader knows to use /orders."""
        campaign = await campaigns.get(tx, row.campaign_id or 0)
        if campaign is None:
            return []
        why = ("Discord kept refusing it, so I stopped trying" if gave_up
               else "Discord refused it")
        game = f"**{campaign.name}**"
        if row.kind == "channel":
            return [NewMessage(
                campaign.id, "dm", f"I could not post a message of {game} in "
                f"<#{row.channel_id}>: {why}. Check that I can see that channel and send "
                "messages and files there; /campaign status there shows where the game stands.",
                user_id=campaign.gm_user_id, notice=True,
            )]
        who = "the GM" if row.user_id == campaign.gm_user_id else next(
            (p.name for p in await players.of_campaign(tx, campaign.id)
             if p.user_id == row.user_id and p.active), "a player")
        notes = [NewMessage(
            campaign.id, "channel", f"I could not deliver a direct message to {who}: {why}. "
            "Use /orders here to see and give your orders, and /campaign status for the game.",
            channel_id=campaign.channel_id, notice=True,
        )]
        if row.user_id != campaign.gm_user_id:
            notes.append(NewMessage(
                campaign.id, "dm", f"A direct message of {game} to {who} could not be "
                f"delivered: {why}. They can use /orders in the campaign channel.",
                user_id=campaign.gm_user_id, notice=True,
            ))
        return notes

    async def dm_closed(self, user_id: int) -> None:
        """The user cannot get DMs: their seats stop getting them, and each campaign's
        channel is told once to use /orders (never why a DM was being sent)."""
        now = self._now()
        async with self.db.transaction() as tx:
            touched = await players.close_dms(tx, user_id)
            notices: list[NewMessage] = []
            for campaign_id in touched:
                row = await campaigns.get(tx, campaign_id)
                if row is None:
                    continue
                name = next(
                    (p.name for p in await players.of_campaign(tx, campaign_id)
                     if p.user_id == user_id and p.active), "A player",
                )
                await repo.drop_pending_panels(tx, campaign_id, user_id)
                await campaigns.bump(tx, campaign_id, now)
                notices.append(NewMessage(
                    campaign_id, "channel",
                    f"{name}: I cannot send you direct messages. Use /orders here to see "
                    "and give your orders.",
                    channel_id=row.channel_id,
                ))
            await repo.enqueue(tx, notices, now)
        for campaign_id in touched:
            self._cache.pop(campaign_id, None)
        if touched and self._wake is not None:
            self._wake()
