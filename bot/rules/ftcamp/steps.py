"""The inputs of every sealed step, packed into pages of at most four Selects (E-D17)."""

from __future__ import annotations

from typing import Any

from bot.errors import RulesError
from bot.rules.base import InputField, Option
from bot.rules.ftcamp import engage, fleet, index, special
from bot.rules.ftcamp.actions import STEP_ANSWERS, AnyAction
from bot.rules.ftcamp.model import Group, State
from bot.rules.ftcamp.scan import groups_in

FIELDS_PER_PAGE = 4
# E-D33: in these steps every seat with groups in the hex is asked, on every page, so that
# the waiting list shows nothing of who carries which kit or which group may join.
UNIFORM = ("special", "engage", "reserves", "patrol")
IDLE = "idle"
# the stored type of each step's answers (bot/rules/ftcamp/actions.py)
ACTION_TYPES: dict[str, str] = {step: model.model_fields["type"].default
                                for step, model in STEP_ANSWERS.items()}
Answers = dict[str, str | list[str]]


def bundles(state: State, seat: int) -> list[list[InputField]]:
    """All inputs of the current sealed step for a seat; a bundle stays on one page."""
    run = state.run
    if state.step == "orders":
        return _order_bundles(state, fleet.orderable(state, seat))
    if run is None:
        return []
    if state.step == "special":
        return special.special_bundles(state, seat, run, set(state.dispatched))
    if state.step == "engage":
        return engage.engage_bundles(state, seat, run.hex)
    if state.step == "chase":
        from bot.rules.ftcamp.conflicts import chasers
        return [[InputField(name=f"chase:{s}", label=f"Attack the retreating groups in {s}?",
                            options=[Option(value="attack", label="attack (chase)"),
                                     Option(value="hold", label="let them go")])]
                for s in run.chase_sectors if seat in chasers(state, run, s)]
    if state.step == "reserves":
        assert run.result is not None
        targets = [Option(value=b.sector, label=f"join the battle in {b.sector} (late)")
                   for b in run.result.battles]
        return [[InputField(name=f"reserve:{n}", label=f"{n}: join a battle as reserve?"[:45],
                            options=[Option(value="stay", label="stay"), *targets][:25])]
                for n in run.reserve_groups if state.groups[n].owner == seat]
    if state.step == "patrol":
        return [[InputField(name=f"patrol:{n}", label=f"{n}: join as patrol reserve?"[:45],
                            options=[Option(value="join", label="join the battle"),
                                     Option(value="stay", label="stay")])]
                for n in run.patrol_groups if state.groups[n].owner == seat]
    return []


def idle_field() -> InputField:
    """The one input of a seat with nothing to do in a uniform step (E-D33)."""
    return InputField(name=IDLE, label="Nothing for you to do in this step",
                      options=[Option(value="none", label="nothing to do (submit to go on)")])


def asked(state: State) -> list[int]:
    """Seats asked in a uniform step: every owner of a group in the hex (public, E-D16)."""
    if state.run is None:
        return []
    return sorted({g.owner for g in groups_in(state, state.run.hex)})


def _order_bundles(state: State, groups: list[Group]) -> list[list[InputField]]:
    out = []
    for g in groups:
        legal = fleet.legal_orders(state, g)
        if legal:
            out.append([InputField(name=f"group:{g.name}", label=f"{g.name} ({g.hex})"[:45],
                                   options=fleet.options_for(state, g, legal))])
    return out


def page_count(state: State, seat: int) -> int:
    if state.step == "orders":  # one Select per group: no need to build the other pages
        return -(-len(fleet.orderable(state, seat)) // FIELDS_PER_PAGE)
    return len(pages(state, seat))


def page_fields(state: State, seat: int, page: int) -> list[InputField] | None:
    """The inputs of one page, or None when the seat has no such page. Fleet orders build
    only that page (issue 9): every group has a legal order, hold or a move (E-3, E-13)."""
    if state.step == "orders":
        groups = fleet.orderable(state, seat)
        if not 1 <= page <= -(-len(groups) // FIELDS_PER_PAGE):
            return None
        chunk = groups[(page - 1) * FIELDS_PER_PAGE:page * FIELDS_PER_PAGE]
        return index.memo(state, ("page", seat, page), lambda: [
            f for bundle in _order_bundles(state, chunk) for f in bundle])
    mine = pages(state, seat)
    return mine[page - 1] if 1 <= page <= len(mine) else None


def pages(state: State, seat: int) -> list[list[InputField]]:
    """The seat's pages; computed once per seat while an index of the state is active."""
    return index.memo(state, ("pages", seat), lambda: _pages(state, seat))


def _packed(state: State, seat: int) -> list[list[InputField]]:
    return index.memo(state, ("packed", seat), lambda: _pack(bundles(state, seat)))


def _pages(state: State, seat: int) -> list[list[InputField]]:
    if state.step not in UNIFORM or state.run is None:
        return _packed(state, seat)
    seats = asked(state)
    if seat not in seats:
        return []
    packed = {s: _packed(state, s) for s in seats}
    total = max(1, *(len(p) for p in packed.values()))
    mine = packed[seat]
    return mine + [[idle_field()] for _ in range(total - len(mine))]


def _pack(items: list[list[InputField]]) -> list[list[InputField]]:
    out: list[list[InputField]] = []
    for bundle in items:
        if out and len(out[-1]) + len(bundle) <= FIELDS_PER_PAGE:
            out[-1].extend(bundle)
        else:
            out.append(list(bundle))
    return out


def default_for(state: State, fields: list[InputField]) -> dict[str, Any]:
    """The deadline default: hold (E-D22) / no special act / SF without split (E-10) / no
    chase (E-D23) / stay."""
    action: dict[str, Any] = {"type": ACTION_TYPES[state.step]}
    for f in fields:
        values = [o.value for o in f.options]
        if f.min_values == 0:
            continue
        kind = f.name.split(":")[0]
        if kind == "order":
            action[f.name] = "SF"
        elif kind == "group":
            action[f.name] = "hold" if "hold" in values else values[0]
        else:
            prefer = ("none", "0", "stay", "hold")
            action[f.name] = next((p for p in prefer if p in values), values[0])
    return action


def read(state: State, fields: list[InputField], action: AnyAction) -> Answers:
    """Check an action against the page's fields; free-form splits are checked later."""
    want = ACTION_TYPES[state.step]
    if not isinstance(action, STEP_ANSWERS[state.step]):
        raise RulesError(f"This step expects a {want!r} action, not {action.type!r}.",
                         ruling="P-32")
    answers: Answers = {}
    for f in fields:
        value = action.given(f.name)
        allowed = {o.value for o in f.options}
        if value is None or value == []:
            if f.min_values > 0:
                raise RulesError(f"{f.label}: a choice is needed.", ruling="P-32")
            continue
        if f.max_values == 1:
            if isinstance(value, list) and len(value) == 1:
                value = value[0]
            if not isinstance(value, str):
                raise RulesError(f"{f.label}: choose one value.", ruling="P-32")
            if value not in allowed and not f.name.startswith(("split:", "order:")):
                raise RulesError(f"{f.label}: {value!r} is not allowed. Allowed: "
                                 f"{', '.join(sorted(allowed))}.", ruling="P-32")
            answers[f.name] = value
            continue
        values = [value] if isinstance(value, str) else list(value)
        bad = [v for v in values if v not in allowed]
        if bad or not f.min_values <= len(values) <= f.max_values or len(set(values)) < len(
                values):
            raise RulesError(f"{f.label}: choose {f.min_values} to {f.max_values} of "
                             f"{', '.join(sorted(allowed))}.", ruling="P-32")
        answers[f.name] = values
    _semantic(state, answers)
    return answers


def _semantic(state: State, answers: Answers) -> None:
    sent = [n for k, v in answers.items() if k.startswith("dispatch:")
            for n in ([v] if isinstance(v, str) else v)]
    twice = sorted({n for n in sent if sent.count(n) > 1})
    if twice:
        raise RulesError(f"{', '.join(twice)}: a group may be dispatched to one interception "
                         "only.", ruling="E-12")
    for key, value in answers.items():
        kind, _, name = key.partition(":")
        if kind == "group" and isinstance(value, str):
            fleet.check_order(state, state.groups[name], value)
        elif kind == "order" and isinstance(value, str):
            split = answers.get(f"split:{name}")
            engage.check_choice(state, state.groups[name], value,
                                split if isinstance(split, str) else None)
