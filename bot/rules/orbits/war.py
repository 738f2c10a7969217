"""An Orbits battle fought in an HRFT thread (O-D17 to O-D20).

Pure: which battles of the turn may be fought there and with what forces (``link_spec``),
marking one as fought there (``link``), turning the HRFT result into the O-15 report
(``propose``), and the GM's request for a linked battle (``gm_request``/``resolve_gm``),
which replaces the players' reports (O-D18). The discards then follow through the normal
path (``battles._accept``).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from bot.errors import InvalidInput, InvalidState, RulesError
from bot.rules.actions import ActionValue
from bot.rules.base import BY_DEFAULT, GM_SEAT, ActionSpec, Event, Request
from bot.rules.orbits import battles as B
from bot.rules.orbits import cards as C
from bot.rules.orbits import result_embeds as shown_embeds
from bot.rules.orbits.actions import AnyAction, Cancel, Confirm
from bot.rules.orbits.battle import battle_force
from bot.rules.orbits.events import public, to_gm
from bot.rules.orbits.forces import MAX_CLASS, budget_of, budget_problem
from bot.rules.orbits.state import Battle, BattleResult, OrbitsState
from bot.rules.war_models import BattleSpec, ForceSpec, as_data

_TURN = re.compile(r"^(.*?)[\s,;]*\bturn\s*(\d{1,6})$")


class HrftCraft(BaseModel):
    """What the Orbits side reads of one craft of an HRFT result (O-D19)."""

    side: str = ""
    fate: str = "intact"
    mass: int = Field(default=0, ge=0)
    hull_total: int = Field(default=0, ge=0)
    hull_lost: int = Field(default=0, ge=0)


class HrftResult(BaseModel):
    craft: list[HrftCraft] = Field(default_factory=list)
    defeated: list[str] = Field(default_factory=list)
    hand_entered: bool = False  # P-22: damage entered by hand in the thread
    gm_ended: bool = False  # P-22: the thread's GM ended the battle


def gm_confirms(raw: Any) -> str:
    """P-22: why the GM, not a deadline default, confirms this result ("" = it may)."""
    try:
        result = HrftResult.model_validate(as_data(raw))
    except ValidationError:
        return ""
    why = [w for w, yes in (("damage was entered by hand", result.hand_entered),
                            ("the battle's GM ended it", result.gm_ended)) if yes]
    return " and ".join(why)


# --- which battle a reference names -------------------------------------------------------


def _key(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


def ref_of(state: OrbitsState, b: Battle) -> str:
    """The reference a linked battle keeps: its area and turn ("Orbit 2, turn 3"), so a
    battle in the same area next turn is another one."""
    return f"{state.area_label(b.area)}, turn {state.turn}"


def find(state: OrbitsState, ref: str) -> tuple[int, Battle] | None:
    """The battle of this turn that ``ref`` names: its area as shown ("Orbit 2", "Home of
    Bob", any case) or its id ("orbit:2"), optionally with ", turn N" (another turn: None)."""
    key = _key(ref)
    m = _TURN.match(key)
    if m is not None:
        if int(m.group(2)) != state.turn:
            return None
        key = m.group(1).strip()
    for i, b in enumerate(state.battles):
        if key in (_key(state.area_label(b.area)), b.area.lower()):
            return i, b
    return None


def looks_like_area(ref: str) -> bool:
    key = _key(ref)
    return key.startswith(("orbit", "home"))


def waiting(state: OrbitsState, i: int) -> bool:
    """O-16: a battle of this turn's list that has no result and was not cancelled."""
    b = state.battles[i]
    return (state.phase.startswith("battle_") and i >= state.battle_index
            and b.result is None and not b.cancelled)


def refs(state: OrbitsState) -> list[str]:
    """The battles the GM may open in HRFT now (for autocomplete): waiting, not linked."""
    return [ref_of(state, b) for i, b in enumerate(state.battles)
            if waiting(state, i) and b.linked is None]


# --- opening: the forces of each side (O-D17) -------------------------------------------


def link_spec(state: OrbitsState, ref: str) -> BattleSpec | None:
    """What an HRFT battle for ``ref`` gets (O-D17): one force per side (the Orbits seat as
    its side key, its budget in MASS and its size-class cap) and preview lines. None when
    ``ref`` is a free description rather than an area; a refusal when it names no battle
    that waits, one already fought in a thread, or a budget too small."""
    found = find(state, ref)
    if found is None:
        if not looks_like_area(ref):
            return None
        known = ", ".join(refs(state)) or "none now"
        raise InvalidInput(f"'{ref.strip()[:60]}' names no battle of this turn that can be "
                           f"fought in a thread. Battles waiting: {known}.")
    i, b = found
    where = state.area_label(b.area)
    if not waiting(state, i):
        raise InvalidState(f"The battle at {where} no longer waits for a result (it has one, "
                           "or the GM cancelled it); there is nothing to fight.")
    if b.linked is not None:
        raise InvalidState(f"The battle at {where} is already fought in its own thread "
                           f"({b.linked}).")
    o = state.options
    forces: list[ForceSpec] = []
    lines = [f"battle at {where}, turn {state.turn}: each side picks ships within its budget "
             "(MASS) and largest size class."]
    for s in b.sides:
        total, size = battle_force(b.forces[s], o.size_class_cap)
        budget = budget_of(state, total)
        why = budget_problem(state, s, total, budget)
        if why:
            raise InvalidState(why)
        label = f"{state.name(s)}'s fleet at {where}"[:80]
        forces.append(ForceSpec(owner=s, side=str(s), label=label, budget=budget,
                                max_class=max(1, min(size, MAX_CLASS))))
        lines.append(f"{label}: {C.show_all(b.forces[s])}, budget {budget} MASS, largest "
                     f"size class {max(1, min(size, MAX_CLASS))}")
    return BattleSpec(ref=ref_of(state, b), owners=list(b.sides), forces=forces,
                      lines=lines, name=f"Battle at {where}, turn {state.turn}")


def link(state: OrbitsState, ref: str, name: str) -> tuple[OrbitsState, list[Event]]:
    """Marks the battle as fought in the HRFT battle ``name`` (O-D18): its report step asks
    the GM instead of the players. ``state`` is a copy the caller may change."""
    found = find(state, ref)
    if found is None or not waiting(state, found[0]) or found[1].linked is not None:
        raise InvalidState("That battle can no longer be fought in a thread.")
    b = found[1]
    b.linked = name[:80]
    where = state.area_label(b.area)
    return state, [public("battle_linked", f"The battle at {where} is fought in its own "
                          f"thread, **{b.linked}**; the GM confirms its result here when it "
                          "ends.", area=b.area)]


# --- the result comes back (O-D19, O-D20) -----------------------------------------------


def _lost_mass(c: HrftCraft) -> int:
    """A destroyed ship or hulk counts its whole MASS; a damaged one its share of hull
    boxes lost, rounded down (O-D19)."""
    if c.fate in ("destroyed", "hulk"):
        return c.mass
    if c.hull_total <= 0:
        return 0
    return c.mass * min(c.hull_lost, c.hull_total) // c.hull_total


def report_of(state: OrbitsState, b: Battle, raw: Any) -> BattleResult:
    """O-D19: each side's losses = MASS lost ÷ points_per_value rounded up, at most its
    total; the defeated from the result (all sides of a two-sided battle: nobody)."""
    try:
        result = HrftResult.model_validate(as_data(raw))
    except ValidationError as exc:
        raise InvalidInput(f"That is not a battle result ({exc.error_count()} problem(s)).",
                           ) from None
    ppv = state.options.points_per_value
    losses: dict[int, int] = {}
    for s in b.sides:
        total = battle_force(b.forces[s], state.options.size_class_cap)[0]
        lost = sum(_lost_mass(c) for c in result.craft if c.side == str(s))
        losses[s] = min(total, -(-lost // ppv))
    defeated = sorted({int(d) for d in result.defeated if d.isdigit() and int(d) in b.sides})
    if len(b.sides) == 2 and len(defeated) == 2:
        defeated = []  # O-D10: one side at most; the GM may edit
    return BattleResult(losses=losses, defeated=defeated)


def propose(state: OrbitsState, ref: str, raw: Any) -> tuple[OrbitsState, list[Event]] | None:
    """Stores the report an HRFT battle gives (O-D19); kept until that battle's step comes
    when it is not the current one (O-D20). None when ``ref`` no longer waits (resolved,
    cancelled, another turn): then nothing changes."""
    found = find(state, ref)
    if found is None or not waiting(state, found[0]):
        return None
    new = state.clone()
    i, b = found[0], new.battles[found[0]]
    b.proposal = report_of(new, b, raw)
    b.gm_confirms = gm_confirms(raw)
    b.linked = b.linked or "its thread"
    where = new.area_label(b.area)
    text = f"Proposed result of the battle at {where}: {B.describe(new, b.proposal)}."
    if i != new.battle_index:
        text += " It is kept until that battle's turn comes."
    # O-D22: the parent's ONE post of a thread's result, for everyone: the proposal
    shown = shown_embeds.battle_result(new, b, b.proposal, "proposed")
    shown.title = f"Battle at {where}, turn {new.turn}: result proposed"
    shown.description = f"Fought in its thread, **{b.linked}**."
    shown.footer = ("The GM confirms it here (or edits it)"
                    + (", when that battle's turn comes." if i != new.battle_index else "."))
    proposed = public("battle_proposed", f"**{shown.title}**: {B.describe(new, b.proposal)}.",
                      area=b.area, embed=shown).model_copy(update={"post": True})  # P-15
    return new, [proposed,
                 to_gm("battle_proposed", text, area=b.area)]


# --- the GM's request for a linked battle (O-D18) ---------------------------------------


def asks_gm(state: OrbitsState) -> bool:
    """The current battle is fought in a thread and has no result yet."""
    return (state.phase in ("battle_report", "battle_gm")
            and state.battle_index < len(state.battles)
            and B.current(state).linked is not None)


def in_threads(state: OrbitsState) -> list[str]:
    """P-18: the current battle is being fought in its thread, no result proposed yet: the
    step waits for it with no deadline of its own."""
    if not asks_gm(state):
        return []
    b = B.current(state)
    return [ref_of(state, b)] if b.proposal is None else []


def _proposed_action(b: Battle) -> dict[str, ActionValue]:
    assert b.proposal is not None
    d = b.proposal.defeated
    losses: dict[str, ActionValue] = {f"losses_{s}": str(k) for s, k in b.proposal.losses.items()}
    defeated: ActionValue = (("none" if not d else str(d[0])) if len(b.sides) == 2
                             else ([str(x) for x in d] or ["none"]))
    return {"type": "report", **losses, "defeated": defeated}


def gm_request(state: OrbitsState) -> Request:
    b = B.current(state)
    where = state.area_label(b.area)
    n = state.battle_index + 1
    cancel = ActionSpec(type="cancel", label="Cancel the battle", destructive=True,
                        confirm="Cancel the battle: nothing is lost and nobody is defeated.")
    if b.proposal is None:
        return Request(
            seat=GM_SEAT, kind="sealed", step=f"battle{n}_linked", default=None,
            actions=[B.report_spec(state, b, "report", "Enter the result"), cancel],
            prompt=f"The battle at {where} is being fought in its own thread ({b.linked}); "
                   "its result will be proposed here when it ends. You may also enter the "
                   "result yourself, or cancel the battle.")
    # P-22: a result with hand-entered damage or a GM's end waits for the GM's own word
    held = (f" It is not confirmed at the deadline ({b.gm_confirms}): only you confirm it."
            if b.gm_confirms else "")
    return Request(
        seat=GM_SEAT, kind="sealed", step=f"battle{n}_confirm",
        default=None if b.gm_confirms else _proposed_action(b),
        actions=[ActionSpec(type="confirm", label="Confirm this result",
                            confirm=f"{B.describe(state, b.proposal)}. The discards follow."),
                 B.report_spec(state, b, "report", "Edit the result"), cancel],
        prompt=f"The battle at {where} was fought in its thread ({b.linked}). Proposed "
               f"result: {B.describe(state, b.proposal)}. Confirm it, edit it, or cancel the "
               f"battle.{held}")


def check_gm(state: OrbitsState, seat: int, action: AnyAction) -> None:
    if seat != GM_SEAT:
        raise InvalidState("Nothing is asked of you in this step: the GM settles this "
                           "battle.")
    if isinstance(action, Confirm):
        if B.current(state).proposal is None:
            raise RulesError("No result is proposed yet: enter the result, or cancel.",
                             ruling="O-D18")
    elif not isinstance(action, Cancel):
        B.read_report(state, B.current(state), action)


def resolve_gm(state: OrbitsState, actions: dict[int, AnyAction],
               events: list[Event], by_default: bool = False) -> None:
    """The GM's answer for a linked battle: the proposal confirmed, a result entered (or the
    proposal edited), or the battle cancelled; then the discards as for any result.
    ``by_default``: the GM missed the deadline and the service took the default (the
    proposal), which the result line says instead of "entered by the GM"."""
    action = actions.get(GM_SEAT)
    if action is None:
        raise InvalidState("The GM must confirm or enter the result, or cancel the battle.")
    check_gm(state, GM_SEAT, action)
    b = B.current(state)
    if isinstance(action, Cancel):
        B.cancel(state, b, events)
    elif isinstance(action, Confirm):
        assert b.proposal is not None
        B.accept(state, b, b.proposal, events, how="fought in its thread, confirmed by the GM")
    else:
        how = (f"fought in its thread, the proposed result {BY_DEFAULT}" if by_default
               else "entered by the GM")
        B.accept(state, b, B.read_report(state, b, action), events, how=how)
