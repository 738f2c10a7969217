"""The service layer: async, no discord. Cogs talk to the game only through this package."""

from __future__ import annotations

from bot.campaign.models import (
    Actor,
    CampaignInfo,
    CampaignStatus,
    LogEntry,
    OutboxMessage,
    Panel,
    PanelRef,
    SeatInfo,
    SeatView,
    SubmitResult,
    ViewPicture,
)
from bot.campaign.service import CampaignService

__all__ = [
    "Actor", "CampaignInfo", "CampaignService", "CampaignStatus", "LogEntry", "OutboxMessage",
    "Panel", "PanelRef", "ViewPicture", "SeatInfo", "SeatView", "SubmitResult",
]
