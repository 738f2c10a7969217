"""``CampaignService``: one method per user intent (docs/dev/service-contract.md).

Each concept lives in its own module; this class only puts them together."""

from __future__ import annotations

from bot.campaign.absence import Absence
from bot.campaign.gm import GmTools
from bot.campaign.lifecycle import Lifecycle
from bot.campaign.outbox import OutboxApi
from bot.campaign.reads import Reads
from bot.campaign.scheduler import Scheduler
from bot.campaign.submissions import Submissions
from bot.campaign.war import War


class CampaignService(Lifecycle, Submissions, GmTools, Reads, War, Absence, Scheduler,
                      OutboxApi):
    """``CampaignService(db, clock=utcnow, wake=None, *, seed_source=..., dice_factory=...)``.

    ``seed_source`` gives each new campaign its dice seed (default ``secrets.randbits(63)``);
    ``dice_factory(seed, stream)`` builds the dice of one resolution (default SeededDice);
    ``outbox_policy`` (a ``RetryPolicy`` from config ``[outbox]``) how failed sends are retried;
    ``undo_depth`` (10) and ``cache_campaigns`` (200) are the config's ``[service]`` bounds."""
