"""The war hooks of FTCamp (H-D28, E-D36): which battle of the latest battle lists a
reference names, the craft an HRFT battle brings in for it, and the preview the GM sees.

A battle opens in a thread only when each of its craft comes in as a design (E-D38): a craft
that names no design gets one from ``/battle start designs:`` (a design per craft, or
``auto``: the sample nearest its mass), else the start is refused with what would come in, so
the GM chooses, or closes the battle as fought at the table.

Pure; the designs a battle can field come from bot/rules/war_models.py (no rule set imports
another, issue 17)."""

from __future__ import annotations

import re

from bot.errors import InvalidInput, InvalidState
from bot.rules.ftcamp import war
from bot.rules.ftcamp.link import battle_ids, find_battle, linked_craft, looks_like_battle
from bot.rules.ftcamp.model import State
from bot.rules.war_models import BattleSpec, RosterCraft, design_problem, nearest_sample

MAX_DESIGNS = 1000  # characters of the designs option
_PAIR = re.compile(r"\s*([^=;,]+?)\s*=\s*([^=;,]+?)\s*(?:[;,]|$)")


def battle_refs(state: State) -> list[str]:
    """The battles that wait to be fought in this round (autocomplete): no result, not
    being fought in a thread already (E-D37)."""
    return [w.ref for w in war.open_battles(state) if w.status == "waiting" and not w.linked]


def parse_designs(text: str) -> dict[str, str] | str:
    """``designs:`` of /battle start: 'auto', or 'Craft=design; Craft=design' (case of the
    craft's name ignored). Returns 'auto', a craft -> design map, or {} for none."""
    text = text.strip()
    if not text:
        return {}
    if len(text) > MAX_DESIGNS:
        raise InvalidInput(f"designs: at most {MAX_DESIGNS} characters.")
    if text.lower() == "auto":
        return "auto"
    pairs = _PAIR.findall(text)
    rebuilt = "".join(f"{a}={b}" for a, b in pairs)
    if not pairs or len(rebuilt) != len(re.sub(r"[\s;,]", "", text)):
        raise InvalidInput("designs: write 'auto' (the sample nearest each craft's mass), "
                           "or a design per craft, e.g. 'Pathfinder=lynx; Spire=vanguard'.")
    return {a.strip().lower(): b.strip() for a, b in pairs}


def battle_link(state: State, ref: str, designs: str = "") -> BattleSpec | None:
    """The battle ``ref`` names, its roster (``owner`` = FTCamp seat), the owners in roster
    order and the preview; None for a free description (no battle id in it)."""
    found = find_battle(state, ref)
    if found is None:
        if not looks_like_battle(ref):
            return None
        known = ", ".join(battle_ids(state)) or "none yet"
        raise InvalidInput(f"The campaign has no battle '{ref.strip()}'. Battles of its "
                           f"latest battle lists (hex/sector): {known}.")
    round_no, battle = found
    if war.settled(state, battle.id):
        raise InvalidState(f"Battle {battle.id} no longer waits for a result (it has one, or "
                           "the GM closed it); there is nothing to fight.")
    entry = next((w for w in war.open_battles(state) if w.ref == battle.id), None)
    if entry is not None and entry.linked:  # E-D37: opened once
        raise InvalidState(f"Battle {battle.id} is already being fought in its own thread, "
                           f"**{entry.linked}**.")
    chosen = parse_designs(designs)
    mass = {(g.name, c.name): c.mass for g in state.groups.values() for c in g.craft}
    roster = []
    for c in linked_craft(state, battle):
        design = c.design
        if not design and chosen == "auto":
            design = nearest_sample(mass.get((c.group, c.craft), 0))
        elif not design and isinstance(chosen, dict):
            design = chosen.get(c.craft.lower()) or None
        roster.append({"craft": c.craft, "group": c.group, "seat": 0, "player": c.owner_name,
                       "design": design, "owner": c.owner,
                       "mass": mass.get((c.group, c.craft), 0)})
    if not roster:  # E-D38: nothing of the campaign would fight: not opened silently
        raise InvalidState(f"Battle {battle.id} would bring in no craft of the campaign (its "
                           "groups are gone): close it in your panel, as fought at the table.")
    coming, not_in, nameless = [], [], []
    for e in roster:
        why = design_problem(e["design"])
        if not e["design"]:
            nameless.append(e)
        elif why:
            not_in.append(f"waits for its design: {e['craft']} ({why})")
        else:
            coming.append(f"{e['craft']} ({e['design']}, {e['player']})")
    if nameless:  # E-D38: the GM chooses a design for each, or fights it at the table
        shown = "; ".join(f"{e['craft']} ({e['player']}, mass {e['mass']}, nearest sample "
                          f"{nearest_sample(e['mass'])})" for e in nameless)
        raise InvalidState(
            f"Battle {battle.id}: " + (f"{', '.join(coming)} would come in; " if coming else "")
            + f"these craft name no design: {shown}. Choose one for each with the designs "
            "option of /battle start (e.g. `designs:auto` for the nearest "
            "samples, or "
            f"`designs:{nameless[0]['craft']}=kestrel`; an uploaded catalog's design names "
            "work too), or close the battle in your panel and fight it at the table.")
    lines = [f"battle {battle.id} (round {round_no}): "
             + (", ".join(coming) + " come in at the start." if coming
                else "no craft names a sample design yet.")] + not_in
    return BattleSpec(ref=battle.id, owners=list(dict.fromkeys(e["owner"] for e in roster)),
                      roster=[RosterCraft(**e) for e in roster], lines=lines,
                      name=f"Battle {battle.id}, round {round_no}")
