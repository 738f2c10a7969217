"""Reading an FTCamp campaign for the /ftcamp commands: the caller's view and the autocomplete
names drawn from it.

Everything comes from ``CampaignService.seat_view``: a player's view (own and allied groups,
groups named in public), the public view for a member without a seat, the GM's view (every
group) for the GM or an admin. The cog never holds the campaign's state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.campaign.models import Actor
from bot.errors import InvalidState, PermissionDenied

if TYPE_CHECKING:
    from bot.campaign import CampaignService

NAME = "ftcamp"
MAX_FILE = 200_000  # bytes; a scenario is a few kB, this is far beyond any real one


@dataclass(frozen=True)
class Campaign:
    """The FTCamp campaign of a channel as the caller may see it."""

    campaign_id: int
    status: str  # setup | running | paused | ended
    name: str
    is_gm: bool
    seat: int | None
    view: dict[str, Any]  # {} before the start

    def started(self) -> dict[str, Any]:
        if not self.view:
            raise InvalidState("The campaign has not started yet (the GM starts it with "
                               "/campaign start).")
        return self.view

    def require_gm(self) -> None:
        if not self.is_gm:
            raise PermissionDenied("Only the GM of this campaign (or a server admin) may do "
                                   "that.")


async def load(service: CampaignService, channel_id: int, actor: Actor) -> Campaign:
    """The channel's campaign; refuses when it plays another rule set."""
    seen = await service.seat_view(actor, channel_id)
    info = seen.info
    if info.ruleset != NAME:
        raise InvalidState(f"This channel's campaign plays {info.ruleset}, not FTCamp; "
                           "/ftcamp commands work in an FTCamp campaign's channel.")
    return Campaign(campaign_id=info.id, status=info.status, name=info.name, is_gm=seen.is_gm,
                    seat=seen.seat, view=seen.view)


# ---------------------------------------------------------------- names from a view


def hex_title(view: dict[str, Any], hex_name: str) -> str:
    """'0305 (Tau Ceti)' for a system hex, else the hex."""
    hex_name = hex_name.strip().upper()
    for system in view.get("map", {}).get("systems", []):
        if system["hex"] == hex_name:
            return f"{hex_name} ({system['name']})"
    return hex_name


def group_names(view: dict[str, Any], *, statics: bool = True) -> list[str]:
    return sorted(g["name"] for g in view.get("groups", []) if statics or not g["static"])


def craft_names(view: dict[str, Any], group: str) -> list[str]:
    return next((list(g.get("craft", [])) for g in view.get("groups", [])
                 if g["name"] == group), [])


def known_hexes(view: dict[str, Any]) -> list[str]:
    """Hexes worth offering: systems, contested hexes and the hexes of the groups this viewer
    sees (never a hex known only from a group hidden from them)."""
    hexes = {s["hex"] for s in view.get("map", {}).get("systems", [])}
    hexes |= {g["hex"] for g in view.get("groups", [])}
    return sorted(hexes | set(view.get("contested", [])))


def picture_hexes(view: dict[str, Any]) -> list[str]:
    """Hexes with a public orbit-sector picture: contested hexes, the hex of the running
    allocation and those of the latest battle lists in the view."""
    hexes = list(view.get("contested", []))
    if view.get("sector"):
        hexes.append(view["sector"]["hex"])
    battles = view.get("battles", [])
    if battles:
        last = max(b["round"] for b in battles)
        hexes += [b["hex"] for b in battles if b["round"] == last]
    return list(dict.fromkeys(hexes))


def matching(names: list[str], typed: str, limit: int = 25) -> list[str]:
    low = typed.strip().lower()
    return [n for n in names if low in n.lower()][:limit]
