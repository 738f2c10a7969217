"""The outbox API for the dispatcher (the Discord side sends; this side records)."""

from __future__ import annotations

from bot.campaign.core import ServiceCore
from bot.campaign.models import OutboxMessage, PanelRef
from storage import campaigns, players
from storage import outbox as repo
from storage.outbox import NewMessage


class OutboxApi(ServiceCore):
    async def outbox_pending(self, limit: int = 50) -> list[OutboxMessage]:
        """Messages due for (another) attempt, oldest first."""
        rows = await repo.due(self.db, self._now(), limit)
        return [
            OutboxMessage(
                id=r.id, campaign_id=r.campaign_id, kind=r.kind,  # type: ignore[arg-type]
                channel_id=r.channel_id, user_id=r.user_id, content=r.content, files=r.files,
                panel=PanelRef(*r.panel) if r.panel else None, attempts=r.attempts,
            )
            for r in rows
        ]

    async def outbox_next_attempt(self) -> float | None:
        """Epoch seconds of the earliest pending message (for the dispatcher's sleep)."""
        return await repo.next_attempt(self.db)

    async def outbox_sent(self, outbox_id: int, discord_message_id: int | None) -> None:
        async with self.db.transaction() as tx:
            await repo.mark_sent(tx, outbox_id, discord_message_id)

    async def outbox_retry_later(self, outbox_id: int, error: str) -> None:
        """A transient failure: tried again after a growing delay."""
        async with self.db.transaction() as tx:
            await repo.mark_retry(tx, outbox_id, error, self._now())

    async def outbox_failed(self, outbox_id: int, error: str) -> None:
        """A permanent failure: never tried again."""
        async with self.db.transaction() as tx:
            await repo.mark_failed(tx, outbox_id, error)

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
