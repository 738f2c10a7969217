"""The war hooks of FTCamp (H-D28, E-D36): which battle of the latest battle lists a
reference names, the craft an HRFT battle brings in for it, and the preview the GM sees.

Pure; the HRFT side (which battle ids exist, which designs it can fight) is read from
``bot.rules.hrft``, imported when asked (HRFT's link module reads FTCamp's model)."""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidInput, InvalidState
from bot.rules.ftcamp import war
from bot.rules.ftcamp.model import State


def battle_refs(state: State) -> list[str]:
    """The battles that wait for a result in this round (autocomplete)."""
    return [w.ref for w in war.open_battles(state) if w.status == "waiting"]


def battle_link(state: State, ref: str) -> dict[str, Any] | None:
    """The battle ``ref`` names, its roster (``owner`` = FTCamp seat), the owners in roster
    order and the preview; None for a free description (no battle id in it)."""
    from bot.rules.hrft.gm import design_problem
    from bot.rules.hrft.link import battle_ids, find_battle, linked_craft, looks_like_battle

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
    roster = [{"craft": c.craft, "group": c.group, "seat": 0, "player": c.owner_name,
               "design": c.design, "owner": c.owner}
              for c in linked_craft(state, battle)]
    coming, not_in = [], []
    for e in roster:
        why = design_problem(e["design"])
        if why:
            not_in.append(f"not brought in: {e['craft']} ({why})")
        else:
            coming.append(f"{e['craft']} ({e['design']}, {e['player']})")
    lines = [f"battle {battle.id} (round {round_no}): "
             + (", ".join(coming) + " come in at `/battle begin`." if coming
                else "no craft names a sample design.")] + not_in
    return {"ref": battle.id, "owners": list(dict.fromkeys(e["owner"] for e in roster)),
            "roster": roster, "lines": lines}
