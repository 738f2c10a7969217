"""A battle thread and its parent campaign: how the battle is named to the parent's players
(P-16), and whether the parent's rules could have linked it (P-20)."""

from __future__ import annotations

from bot.rules import registry
from storage.campaigns import CampaignRow


def war_title(name: str, ref: str | None) -> str:
    """P-16: 'Battle **Battle 0602/B-4, round 2**' reads doubled: a battle's name that
    starts with 'battle' is its own title, and its reference is said only when the name
    does not carry it already."""
    key = " ".join(name.lower().replace(",", " ").split())
    where = (f" ({ref})" if ref and " ".join(ref.lower().replace(",", " ").split()) not in key
             else "")
    return (f"**{name}**" if key.startswith("battle") else f"Battle **{name}**") + where


def linked_by_rules(parent: CampaignRow, child: CampaignRow) -> bool:
    """P-20: a thread speaks to its parent only when the parent's rules could have linked
    it: the parent is no battle itself, on the same server, its rules fight battles in
    threads, and the thread names one of its battles (what ``open_battle`` alone makes)."""
    return (parent.parent_id is None and parent.guild_id == child.guild_id
            and bool(child.parent_ref) and child.parent_id == parent.id
            and takes_battles(parent.ruleset))


def takes_battles(ruleset: str) -> bool:
    """The rule set fights battles in threads (a rule set no longer installed: no)."""
    return ruleset in registry.names() and registry.get(ruleset).takes_battle_results
