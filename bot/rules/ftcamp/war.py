"""The round waits for its battles (E-D36): each battle of the round's battle lists gets a
result from its HRFT battle (proposed to the GM, who confirms or edits it) or is closed by the
GM as fought at the table; then the next round opens.

Pure: ``propose`` stores a battle's result, ``apply_battle_result`` changes the craft,
``requests``/``resolve`` are the GM's step. The GM is the one asked (no step asks nobody).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from pydantic import ValidationError

from bot.errors import InvalidInput, InvalidState, RulesError
from bot.rules.base import (
    GM_SEAT,
    ActionSpec,
    Audience,
    Embed,
    Event,
    InputField,
    Option,
    Request,
)
from bot.rules.ftcamp.actions import AnyAction, CloseBattle, ConfirmBattle, EditFate
from bot.rules.ftcamp.core import forget_group
from bot.rules.ftcamp.geometry import system_label
from bot.rules.ftcamp.model import Craft, State
from bot.rules.ftcamp.warmodel import FATES, BattleResult, CraftFate, Fate, WarBattle
from bot.rules.war_models import as_data

_SEPARATORS = re.compile(r"[\s,;:/]+")
MAX_CRAFT_OPTIONS = 25  # one Select
MAX_PROMPT = 1800  # a panel's text is one message (2000) with its deadline line


def normalise_ref(ref: str) -> str:
    """'0305 a-3' -> '0305/A-3', as H-D28 reads a battle reference."""
    return _SEPARATORS.sub("/", ref.strip().upper()).strip("/")


def fate_of(c: CraftFate) -> Fate:
    """The worst of what happened: destroyed, hulk, FTL, drive, hull, nothing."""
    if c.fate in ("destroyed", "hulk") or c.edited:
        return c.fate
    if c.ftl_lost:
        return "ftl"
    if c.thrust_left < c.thrust:
        return "drive"
    return "damaged" if c.hull_lost else "intact"


def parse_result(raw: Any) -> BattleResult:
    try:
        return BattleResult.model_validate(as_data(raw))
    except ValidationError as exc:
        raise InvalidInput(f"That is not a battle result ({exc.error_count()} problem(s)).",
                           ) from None


# --- the battles of a round ---------------------------------------------------------------


def add_round_battles(state: State, round_no: int, refs: list[str]) -> None:
    """The battle list of a hex is made: its battles wait for results. A new list object:
    the state may share its lists with an earlier state (copying.py)."""
    known = {w.ref for w in state.war if w.round == round_no}
    state.war = [*state.war, *(WarBattle(ref=r, round=round_no) for r in refs if r not in known)]


def open_battles(state: State) -> list[WarBattle]:
    return [w for w in state.war if w.round == state.round and w.status in ("waiting", "proposed")]


def _entry(state: State, ref: str) -> tuple[int, WarBattle] | None:
    key = normalise_ref(ref)
    for i, w in enumerate(state.war):
        if w.round == state.round and w.ref.upper() == key:
            return i, w
    return None


def settled(state: State, ref: str) -> bool:
    """Whether the latest battle ``ref`` has its result (or one proposed) or was closed."""
    key = normalise_ref(ref)
    mine = [w for w in state.war if w.ref.upper() == key]
    return bool(mine) and max(mine, key=lambda w: w.round).status != "waiting"


def _replace(state: State, i: int, **changes: Any) -> None:
    war = list(state.war)
    war[i] = war[i].model_copy(update=changes)
    state.war = war


def propose(state: State, ref: str, raw: Any) -> tuple[State, list[Event]] | None:
    """A battle of this round has a result: stored for the GM to confirm or edit. None when
    ``ref`` names no waiting battle of the round (fought in an earlier round, or the GM closed
    it already): then nothing changes."""
    found = _entry(state, ref)
    if found is None or found[1].status != "waiting":
        return None
    result = parse_result(raw)
    new = state.model_copy(update={"war": list(state.war)})
    _replace(new, found[0], status="proposed", result=result)
    w = new.war[found[0]]
    text = (f"Battle {w.ref} is over. Proposed change to the campaign:\n"
            + "\n".join(result_lines(result))
            + "\nConfirm it (or change a craft's fate first) in your panel.")
    # E-D37: the parent's ONE post of a thread's result: the proposal, for everyone
    shown = result_embed(new, w, result, "result proposed",
                         "The GM confirms it here (or changes a craft's fate first).")
    return new, [Event(audience=Audience.public(), kind="battle_proposed",
                       text=_plain(shown), embed=shown, post=True),
                 Event(audience=Audience.gm(), kind="battle_result", text=text,
                       data={"ref": w.ref, "result": result.model_dump()})]


def where(state: State, w: WarBattle) -> str:
    """'Hex 0602 (Barnard), sector B-4.': where the battle was fought."""
    hex_, _, sector = w.ref.partition("/")
    return f"Hex {system_label(state.map, hex_)}" + (f", sector {sector}." if sector else ".")


def result_embed(state: State, w: WarBattle, result: BattleResult, how: str,
                 footer: str, fates: bool = True) -> Embed:
    """E-D37: a thread's result in the parent: where, and (``fates``) each side's craft
    and losses and who was defeated (a side left with no ship fighting)."""
    thread = w.linked or result.name
    embed = Embed(title=f"Battle {w.ref}, round {w.round}: {how}"[:256],
                  description=where(state, w)
                  + (f" Fought in its thread, **{thread}**." if thread else ""),
                  footer=footer)
    if not fates:
        return embed
    sides: dict[str, list[CraftFate]] = {}
    for c in result.craft:
        g = state.groups.get(c.group)
        who = state.player_name(g.owner) if g is not None else c.group
        sides.setdefault(who, []).append(c)
    for who, craft in sides.items():
        embed.field(who, "\n".join(line[2:] for line in result_lines(
            BattleResult(name=result.name, craft=craft))), inline=True)
    out = result.defeated_seats  # its seats with no ship fighting at the end (E-D37)
    beaten = [who for who, craft in sides.items()
              if (all(c.seat in out for c in craft) if out is not None
                  else all(fate_of(c) in ("destroyed", "hulk") for c in craft))]
    embed.field("Defeated", ", ".join(beaten) or "nobody")
    if not result.craft:
        embed.description += " No craft of the campaign fought in it."
    return embed


def _plain(embed: Embed) -> str:
    """The embed's words as one text (the event log, transcripts)."""
    lines = [f"**{embed.title}**", *([embed.description] if embed.description else [])]
    lines += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n".join(lines + ([embed.footer] if embed.footer else []))


def link(state: State, ref: str, name: str) -> tuple[State, list[Event]] | None:
    """E-D37: the battle ``ref`` of this round is fought in the battle (thread) ``name``:
    it is not offered again and the round waits for it with no deadline (P-18). None when
    the round does not wait for its battles yet (a battle list opened early): nothing to
    mark; the service's own record of the thread keeps it opened once (P-17)."""
    found = _entry(state, ref)
    if found is None:
        return None
    if found[1].status != "waiting" or found[1].linked:
        raise InvalidState("That battle can no longer be fought in a thread.")
    new = state.model_copy(update={"war": list(state.war)})
    _replace(new, found[0], linked=name[:80])
    return new, [Event(audience=Audience.public(), kind="battle_linked",
                       text=f"Battle {found[1].ref} is fought in its own thread, **{name[:80]}**;"
                            " the GM confirms its result here when it ends.")]


def in_threads(state: State) -> list[str]:
    """P-18: the battles of the round being fought in their threads, no result yet."""
    if state.step != "battles":
        return []
    return [w.ref for w in open_battles(state) if w.status == "waiting" and w.linked]


def result_lines(result: BattleResult) -> list[str]:
    return [f"- {c.craft} ({c.group}): {FATES[fate_of(c)]}"
            + (f", {c.hull_lost} hull lost" if c.hull_lost and fate_of(c) not in
               ("destroyed", "hulk", "intact") else "")
            for c in result.craft] or ["- no craft of the campaign fought in it"]


# --- applying a result --------------------------------------------------------------------


def _changed(craft: Craft, c: CraftFate, fate: Fate) -> Craft:
    update: dict[str, Any] = {}
    if fate != "intact":
        update["damage"] = craft.damage + c.hull_lost
    if fate == "ftl" or (not c.edited and c.ftl_lost):
        update["ftl"] = "crippled"
    drive = fate == "drive" or (not c.edited and c.thrust_left < c.thrust)
    if drive:
        left = c.thrust_left if c.thrust_left < c.thrust else c.thrust // 2  # GM: one hit
        if left <= 0 or c.thrust <= 0:
            update["drive"] = False  # E-9: a drive out counts thrust 0
        else:  # the same share of its campaign thrust as the battle left it
            update["thrust"] = craft.thrust * left // c.thrust
    return craft.model_copy(update=update)


def apply_battle_result(state: State, ref: str, result: BattleResult) -> tuple[State, list[str]]:
    """E-D36: destroyed craft and hulks leave their group (an emptied group is removed),
    FTL-destroyed craft are crippled, drive damage lowers thrust (0 left: drive out), hull lost
    adds damage points. A craft not found any more (removed by the GM since) is skipped and
    said so. Never creates a craft; only the groups it changes are new objects."""
    new = state.model_copy(update={"groups": dict(state.groups)})
    lines: list[str] = []
    for c in result.craft:
        g = new.groups.get(c.group)
        mine = next((k for k in g.craft if k.name == c.craft), None) if g else None
        if g is None or mine is None:
            lines.append(f"{c.craft} ({c.group}): not in the campaign any more, skipped.")
            continue
        fate = fate_of(c)
        if fate in ("destroyed", "hulk"):
            rest = [k for k in g.craft if k.name != c.craft]
            if any(not k.is_decoy for k in rest):
                new.groups[c.group] = g.model_copy(update={"craft": rest})
            else:
                forget_group(new, c.group)
            lines.append(f"{c.craft} ({c.group}): {FATES[fate]}"
                         + ("" if c.group in new.groups else f"; group {c.group} is gone") + ".")
            continue
        if fate == "intact":
            continue
        craft = [(_changed(k, c, fate) if k.name == c.craft else k) for k in g.craft]
        new.groups[c.group] = g.model_copy(update={"craft": craft})
        lines.append(f"{c.craft} ({c.group}): {FATES[fate]}.")
    found = _entry(new, ref)
    if found is not None:
        _replace(new, found[0], status="applied", result=result)
    return new, lines


# --- the GM's step ------------------------------------------------------------------------


def _step_key(state: State) -> str:
    """Changes with every proposal, edit and close, so the GM's panel is always fresh."""
    blob = json.dumps([w.model_dump() for w in state.war if w.round == state.round],
                      sort_keys=True)
    return f"battles-r{state.round}-{hashlib.sha1(blob.encode()).hexdigest()[:8]}"


def _craft_options(state: State) -> list[Option]:
    out = []
    for i, w in enumerate(state.war):
        if w.round != state.round or w.status != "proposed" or w.result is None:
            continue
        for j, c in enumerate(w.result.craft):
            out.append(Option(value=f"{i}:{j}", label=f"{w.ref} {c.craft}"[:100],
                              description=f"{c.group}: {FATES[fate_of(c)]}"[:100]))
    return out[:MAX_CRAFT_OPTIONS]


def requests(state: State) -> list[Request]:
    """The GM, while a battle of the round has no result (E-D36)."""
    battles = open_battles(state)
    if not battles:
        return []
    proposed = [w for w in battles if w.status == "proposed"]
    refs = [Option(value=w.ref, label=w.ref) for w in proposed]
    specs: list[ActionSpec] = []
    craft_options = _craft_options(state)
    if proposed:
        specs.append(ActionSpec(type="confirm", label="Confirm a battle's result", fields=[
            InputField(name="battle", label="Battle", options=refs)],
            confirm="The craft change as listed; /gm undo takes it back."))
    if craft_options:  # a result naming no craft has nothing to edit (no empty Select)
        specs.append(ActionSpec(type="edit", label="Change a craft's fate", fields=[
            InputField(name="craft", label="Craft", options=craft_options),
            InputField(name="fate", label="Fate", options=[
                Option(value=k, label=v) for k, v in FATES.items()])]))
    # E-D37: a battle being fought in its thread is closed too, but never "at the table"
    at_table = not any(w.linked for w in battles)
    specs.append(ActionSpec(type="close", label="Close a battle: fought at the table"
                            if at_table else "Close a battle: losses entered by hand", fields=[
        InputField(name="battle", label="Battle",
                   options=[Option(value=w.ref, label=w.ref) for w in battles])],
        confirm="Its result is not applied: report losses with /ftcamp craft remove or damage."))
    lines = [f"Round {state.round} waits for its battles:"]
    for w in battles:
        if w.status == "proposed" and w.result is not None:
            lines += [f"{w.ref}, result proposed:"] + result_lines(w.result)
        elif w.linked:
            lines.append(f"{w.ref}: being fought in its thread, **{w.linked}**; its result "
                         "comes here when it ends.")
        else:
            lines.append(f"{w.ref}: no result yet (fight it with /battle start, or close it).")
    prompt = "\n".join(lines)
    if len(prompt) > MAX_PROMPT:  # a big battle: the full list went to the GM's DM
        prompt = prompt[:MAX_PROMPT].rsplit("\n", 1)[0] + "\n... (the full list is in your DMs)"
    return [Request(seat=GM_SEAT, kind="sealed", step=_step_key(state), prompt=prompt,
                    actions=specs, default=None)]


def check(state: State, action: AnyAction) -> None:
    _read(state, action)


def _read(state: State, action: AnyAction) -> tuple[int, tuple[int, str] | None]:
    """(the battle's index in ``state.war``, for an edit the craft's index and new fate);
    RulesError unless the GM's answer is a confirm, close or edit that fits."""
    if isinstance(action, (ConfirmBattle, CloseBattle)):
        kind = action.type  # the verb the refusal repeats
        found = _entry(state, "" if action.battle is None else str(action.battle))
        wanted = (("proposed",) if isinstance(action, ConfirmBattle)
                  else ("waiting", "proposed"))
        if found is None or found[1].status not in wanted:
            offered = [w.ref for w in open_battles(state) if w.status in wanted]
            raise RulesError(f"No battle {action.battle!r} to {kind}; offered: "
                             f"{', '.join(offered) or 'none'}.", ruling="E-D43")
        return found[0], None
    if isinstance(action, EditFate):
        fate = str(action.fate)
        try:
            i, j = (int(x) for x in str(action.craft).split(":"))
            w = state.war[i]
            assert w.result is not None and w.status == "proposed" and w.round == state.round
            w.result.craft[j]
        except (ValueError, IndexError, AssertionError):
            raise RulesError("Pick a craft of a proposed result.", ruling="E-D43") from None
        if fate not in FATES:
            raise RulesError(f"Fate is one of: {', '.join(FATES)}.", ruling="E-D43")
        return i, (j, fate)
    raise RulesError("Send confirm, edit or close.", ruling="E-D43")


def resolve(state: State, action: AnyAction | None) -> tuple[State, list[Event], bool]:
    """Applies the GM's answer; returns (state, events, whether the round's battles are
    all settled)."""
    if state.step != "battles":
        raise InvalidState("No round is waiting for its battles.")
    if action is None:
        raise InvalidState("The GM has not answered.")
    i, extra = _read(state, action)
    w = state.war[i]
    events: list[Event] = []
    if isinstance(action, ConfirmBattle):
        assert w.result is not None
        before = state
        state, lines = apply_battle_result(state, w.ref, w.result)
        # E-D37: the parent's second post of a thread's result: confirmed (as edited)
        edited = any(c.edited for c in w.result.craft)
        shown = result_embed(before, w, w.result, "confirmed by the GM"
                             + (", with changes" if edited else ""),
                             "Applied to the campaign.", fates=False)
        shown.field("Campaign changes", "\n".join(lines or ["No craft changes."]))
        events.append(Event(audience=Audience.public(), kind="battle_applied",
                            text=f"**Battle {w.ref}**: its result is applied to the campaign.\n"
                                 + "\n".join(lines or ["No craft changes."]), embed=shown))
    elif isinstance(action, CloseBattle):
        state = state.model_copy(update={"war": list(state.war)})
        _replace(state, i, status="closed")
        how = (f"was closed by the GM (it was being fought in its thread, **{w.linked}**); its "
               "result is not applied: the GM enters its losses by hand."
               if w.linked else "was fought at the table; the GM enters its losses by hand.")
        events.append(Event(audience=Audience.public(), kind="battle_closed",
                            text=f"**Battle {w.ref}** {how}"))
    else:
        assert extra is not None  # an edit (_read refuses anything else)
        j, fate = extra
        assert w.result is not None
        craft = list(w.result.craft)
        craft[j] = craft[j].model_copy(update={"fate": fate, "edited": True})
        state = state.model_copy(update={"war": list(state.war)})
        _replace(state, i, result=w.result.model_copy(update={"craft": craft}))
        events.append(Event(audience=Audience.gm(), kind="battle_edit",
                            text=f"{craft[j].craft} in {w.ref}: now {FATES[fate]}."))
    return state, events, not open_battles(state)
