"""Transit and Deployment phases: the turn requests and their actions (O-9 to O-12, O-18).

Select limits (O-D3): a Select holds at most 25 options. When a player's cards for one
Select would be more, the action is offered once per area, and an area that still has more
than 25 is offered once per suit (no suit of one deck has more than 13 cards)."""

from __future__ import annotations

from bot.errors import InvalidState, RulesError
from bot.rules.actions import ActionValue
from bot.rules.base import ActionSpec, Event, InputField, Option, Request
from bot.rules.orbits import cards as C
from bot.rules.orbits.actions import (
    AnyAction,
    Depart,
    Deploy,
    Pass,
    Retreat,
    Rush,
    TurnAction,
)
from bot.rules.orbits.events import plural, public
from bot.rules.orbits.flow import arrive, next_actor
from bot.rules.orbits.geometry import distance
from bot.rules.orbits.state import OrbitsState, TableCard, TransitGroup, stance_key

MAX_OPTIONS = 25
PASS = Pass().stored()
# what each phase takes, in the order the refusal names them (O-9, O-10)
TURN_ACTIONS: dict[str, tuple[type[TurnAction], ...]] = {
    "transit": (Depart, Rush, Pass), "deployment": (Deploy, Retreat, Pass)}


def _chunks(cards: list[TableCard], by_area: bool,
            names: dict[str, str] | None = None) -> list[tuple[str, list[TableCard]]]:
    """Splits cards into Select-sized chunks with a label suffix (O-D3)."""
    cards = sorted(cards, key=lambda c: C.sort_key(c.code))
    if not cards:
        return []
    if len(cards) <= MAX_OPTIONS:
        return [("", cards)]
    if by_area:
        areas = sorted({c.area for c in cards})
        out: list[tuple[str, list[TableCard]]] = []
        for a in areas:
            where = (names or {}).get(a, a)
            out.extend((f" ({where}{s})", part) for s, part in _chunks(
                [c for c in cards if c.area == a], by_area=False))
        return out
    groups: dict[str, list[TableCard]] = {}
    for c in cards:
        key = "Jokers" if C.is_joker(c.code) else C.SUIT_SYMBOL[C.suit(c.code)]
        groups.setdefault(key, []).append(c)
    return [(f" {k}", v) for k, v in groups.items()]


def _card_option(state: OrbitsState, c: TableCard, with_area: bool) -> Option:
    text = C.show(c.code) + (f" at {state.area_label(c.area)}" if with_area else "")
    return Option(value=c.code, label=text)


# --- requests --------------------------------------------------------------------------------


def transit_request(state: OrbitsState) -> Request:
    seat = state.actor
    specs: list[ActionSpec] = []
    for area in state.areas():
        resting = state.resting_face_down(seat, area)
        if resting:
            specs.extend(_depart_specs(state, area, resting))
    if state.options.rush_transit and state.rp[seat] >= 1:
        rushable = [g for g in state.groups if g.owner == seat and g.rushed_turn != state.turn]
        for start in range(0, len(rushable), MAX_OPTIONS):  # O-D3: 25 groups per Select
            part = rushable[start:start + MAX_OPTIONS]
            specs.append(ActionSpec(
                type="rush", label="Rush a group" + (f" ({start // MAX_OPTIONS + 1})"
                                                     if len(rushable) > MAX_OPTIONS else ""),
                fields=[InputField(name="group", label="Group in transit", options=[
                    Option(value=str(g.id), label=_group_label(state, g)) for g in part])],
                confirm="Costs 1 RP: removes one extra transit token from that group; once per "
                        "group per turn.",
            ))
    specs.append(ActionSpec(type="pass", label="Pass"))
    return Request(
        seat=seat, kind="turn", step="transit",
        prompt=f"Transit phase, turn {state.turn}: send face-down cards to another area, or "
               "pass.",
        actions=specs, default=dict(PASS),
    )


def _group_label(state: OrbitsState, g: TransitGroup) -> str:
    n = len(state.group_cards(g.id))
    return (f"#{g.id}: {plural(n, 'card')} {state.area_label(g.origin)} → "
            f"{state.area_label(g.destination)}, {plural(g.tokens, 'token')} left")


def _depart_specs(state: OrbitsState, area: str, resting: list[TableCard]) -> list[ActionSpec]:
    o = state.options
    dests = [a for a in state.areas() if a != area]
    dist = {a: distance(o.orbits, area, a, o.home_to_home) for a in dests}
    dest_field = InputField(name="destination", label="Destination", options=[
        Option(value=a, label=f"{state.area_label(a)} ({plural(dist[a], 'token')})")
        for a in dests])
    here = state.area_label(area)
    confirm = (
        f"The cards leave {here} face down. Tokens = distance, shown with each "
        "destination; one token comes off at the start of each Transit phase and the group "
        "arrives when the last one is removed (distance 1 = arrives next turn)."
    )
    specs = []
    for suffix, chunk in _chunks(resting, by_area=False):
        specs.append(ActionSpec(
            type="depart", label=f"Depart from {here}{suffix}", confirm=confirm,
            fields=[
                InputField(name="origin", label="From", options=[Option(value=area, label=here)]),
                InputField(name="cards", label="Cards", min_values=1, max_values=len(chunk),
                           options=[_card_option(state, c, False) for c in chunk]),
                dest_field,
            ],
        ))
    return specs


def deployment_request(state: OrbitsState) -> Request:
    seat = state.actor
    specs: list[ActionSpec] = []
    if state.rp[seat] >= 1:
        resting = state.resting_face_down(seat)
        fleet = [c for c in resting if C.is_fleet(c.code)]
        faces = [c for c in resting if C.is_face(c.code) and face_deploy_error(state, c) is None]
        labels = {a: state.area_label(a) for a in state.areas()}
        for suffix, chunk in _chunks(fleet, by_area=True, names=labels):
            specs.append(ActionSpec(
                type="deploy", label=f"Deploy a fleet card{suffix}",
                confirm="Costs 1 RP. All your face-up fleet cards in that area take the stance "
                        "you declare.",
                fields=[
                    InputField(name="card", label="Fleet card", options=[
                        _card_option(state, c, True) for c in chunk]),
                    InputField(name="stance", label="Stance", options=[
                        Option(value="attack", label="Attack"),
                        Option(value="blockade", label="Blockade")]),
                ],
            ))
        for suffix, chunk in _chunks(faces, by_area=True, names=labels):
            specs.append(ActionSpec(
                type="deploy", label=f"Deploy a face card{suffix}",
                confirm="Costs 1 RP. The card earns 1 RP each Resource phase.",
                fields=[InputField(name="card", label="Face card", options=[
                    _card_option(state, c, True) for c in chunk])],
            ))
    retreat_areas = [a for a in state.areas() if state.face_up_fleet(seat, a)]
    if retreat_areas:
        specs.append(ActionSpec(
            type="retreat", label="Retreat",
            confirm="Free: all your face-up fleet cards there flip face down.",
            fields=[InputField(name="area", label="Area", options=[
                Option(value=a, label=state.area_label(a)) for a in retreat_areas])],
        ))
    specs.append(ActionSpec(type="pass", label="Pass"))
    return Request(
        seat=seat, kind="turn", step="deployment",
        prompt=f"Deployment phase, turn {state.turn}: deploy one card (1 RP), retreat, or pass."
               f" You have {state.rp[seat]} RP.",
        actions=specs, default=dict(PASS),
    )


def face_deploy_error(state: OrbitsState, card: TableCard) -> str | None:
    """Why this face card may not be deployed where it lies (O-11), or None."""
    where = state.area_label(card.area)
    if state.opponent_fleet_up(card.owner, card.area):
        return (f"You can't deploy {C.show(card.code)} at {where}: another player has face-up "
                "fleet cards there.")
    suits = {C.suit(c.code) for c in state.cards_at(card.area)
             if c.face_up and C.is_face(c.code)}
    if suits and suits != {C.suit(card.code)}:
        shown = "".join(C.SUIT_SYMBOL[s] for s in sorted(suits))
        return (f"You can't deploy {C.show(card.code)} at {where}: face cards there are "
                f"{shown}.")
    return None


# --- actions ---------------------------------------------------------------------------------


def act_turn(state: OrbitsState, seat: int, action: AnyAction, events: list[Event]) -> None:
    """Applies one Transit/Deployment action by the seat whose turn it is."""
    if seat != state.actor:
        raise InvalidState(f"It is {state.name(state.actor)}'s turn in the {state.phase} phase.")
    allowed = tuple(m for m in TURN_ACTIONS[state.phase]
                    if m is not Rush or state.options.rush_transit)
    if not isinstance(action, allowed):
        names = [m.model_fields["type"].default for m in allowed]
        raise RulesError(f"In the {state.phase} phase you may: {', '.join(names)}.",
                         ruling="O-9" if state.phase == "transit" else "O-10")
    match action:
        case Pass():
            state.passes += 1
            events.append(public("pass", f"{state.name(seat)} passes.", seat=seat))
        case Depart():
            _depart(state, seat, action, events)
        case Rush():
            _rush(state, seat, action, events)
        case Deploy():
            _deploy(state, seat, action, events)
        case Retreat():
            _retreat(state, seat, action, events)
    if not isinstance(action, Pass):
        state.passes = 0
        state.acted = True
    next_actor(state)


def _one(value: ActionValue, name: str) -> str:
    if isinstance(value, list):
        if len(value) != 1:
            raise RulesError(f"Choose exactly one {name}.", ruling="O-D3")
        value = value[0]
    if not isinstance(value, str) or not value:
        raise RulesError(f"Choose a {name}.", ruling="O-D3")
    return value


def _many(value: ActionValue, name: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulesError(f"Choose one or more {name}.", ruling="O-D3")
    return value  # type: ignore[return-value]


def _own_resting(state: OrbitsState, seat: int, code: str) -> TableCard:
    code = C.parse(code)
    card = next((c for c in state.table if c.owner == seat and c.code == code), None)
    if card is None:
        raise RulesError(f"{C.show(code)} is not on the table among your cards.", ruling="O-10")
    if card.face_up:
        raise RulesError(f"{C.show(code)} is face up; face-up cards never move or redeploy.",
                         ruling="O-9")
    if card.group is not None:
        raise RulesError(f"{C.show(code)} is in transit and can't be used until it arrives.",
                         ruling="O-9")
    return card


def _depart(state: OrbitsState, seat: int, action: Depart, events: list[Event]) -> None:
    areas = state.areas()  # O-D14: any area, other players' homes included
    origin, dest = _one(action.origin, "origin"), _one(action.destination, "destination")
    for a in (origin, dest):
        if a not in areas:
            raise RulesError(f"'{a}' is not an area of this table: {', '.join(areas)}.",
                             ruling="O-2")
    if origin == dest:
        raise RulesError("A departure goes to another area.", ruling="O-9")
    codes = _many(action.cards, "cards")
    if not codes:
        raise RulesError("A departure sends one or more cards.", ruling="O-9")
    moving = [_own_resting(state, seat, code) for code in codes]
    if len({c.code for c in moving}) != len(moving):
        raise RulesError("Each card can be sent only once.", ruling="O-9")
    strays = [c for c in moving if c.area != origin]
    if strays:
        raise RulesError(f"{C.show(strays[0].code)} is at {state.area_label(strays[0].area)}, "
                         f"not at {state.area_label(origin)}: a group departs from one area.",
                         ruling="O-9")
    o = state.options
    tokens = distance(o.orbits, origin, dest, o.home_to_home)
    gid = state.next_group
    state.next_group += 1
    state.groups.append(TransitGroup(id=gid, owner=seat, origin=origin, destination=dest,
                                     tokens=tokens))
    for c in moving:
        c.area = dest
        c.group = gid
    # O-D11: everyone watches which physical cards are picked up, so known cards stay known
    known = [c.code for c in moving if c.known] if o.mark_known_cards else []
    extra = f" (known among them: {C.show_all(known)})" if known else ""
    events.append(public(
        "depart",
        f"{state.name(seat)} sends {plural(len(moving), 'face-down card')} from "
        f"{state.area_label(origin)} to {state.area_label(dest)}, arriving in "
        f"{plural(tokens, 'turn')} ({plural(tokens, 'token')}){extra}.",
        seat=seat, origin=origin, destination=dest, count=len(moving), tokens=tokens, group=gid,
    ))


def _rush(state: OrbitsState, seat: int, action: Rush, events: list[Event]) -> None:
    raw = _one(action.group, "group")
    g = state.group(int(raw)) if raw.isdigit() else None
    if g is None or g.owner != seat:
        raise RulesError("Choose one of your own groups in transit.", ruling="O-18")
    if g.rushed_turn == state.turn:
        raise RulesError("That group was already rushed this turn: once per group per turn.",
                         ruling="O-18")
    if state.rp[seat] < 1:
        raise RulesError("Rushing costs 1 RP and you have none.", ruling="O-18")
    state.rp[seat] -= 1
    g.rushed_turn = state.turn
    g.tokens -= 1
    events.append(public(
        "rush", f"{state.name(seat)} pays 1 RP (now {state.rp[seat]}) to rush group #{g.id} "
                f"to {state.area_label(g.destination)}: {plural(g.tokens, 'token')} left.",
        seat=seat, group=g.id, tokens=g.tokens))
    if g.tokens <= 0:  # O-D15: arrives at once, in time for this turn's Deployment
        arrive(state, g.id, events)


def _deploy(state: OrbitsState, seat: int, action: Deploy, events: list[Event]) -> None:
    card = _own_resting(state, seat, _one(action.card, "card"))
    where = state.area_label(card.area)
    if state.rp[seat] < 1:
        raise RulesError(f"Deploying costs 1 RP and you have {state.rp[seat]}.", ruling="O-10")
    if C.is_face(card.code):
        err = face_deploy_error(state, card)
        if err:
            raise RulesError(err, ruling="O-11")
        tail = ""  # O-D13: a face card has no stance and leaves the fleet's stance alone
    else:
        stance = action.stance
        if isinstance(stance, list) and len(stance) == 1:
            stance = stance[0]
        if stance not in ("attack", "blockade"):
            raise RulesError("Deploying a fleet card needs a stance: attack or blockade.",
                             ruling="O-12")
        state.stances[stance_key(seat, card.area)] = stance
        tail = f" and declares {stance.upper()}"
    state.rp[seat] -= 1
    card.face_up = True
    card.known = True
    fleet_here = len(state.face_up_fleet(seat, card.area)) if C.is_fleet(card.code) else 0
    stance_now = state.stance(seat, card.area) if fleet_here else None
    note = (f"; all {fleet_here} of their fleet cards there now {stance_now}"
            if fleet_here > 1 else "")
    events.append(public(
        "deploy",
        f"{state.name(seat)} deploys {C.show(card.code)} at {where}{tail} (1 RP, now "
        f"{state.rp[seat]}){note}.",
        seat=seat, card=card.code, area=card.area, stance=stance_now))


def _retreat(state: OrbitsState, seat: int, action: Retreat, events: list[Event]) -> None:
    area = _one(action.area, "area")
    fleet = state.face_up_fleet(seat, area)
    if not fleet:
        raise RulesError(f"You have no face-up fleet cards at {area}: nothing to retreat.",
                         ruling="O-10")
    for c in fleet:
        c.face_up = False
    state.stances.pop(stance_key(seat, area), None)
    events.append(public(
        "retreat",
        f"{state.name(seat)} retreats at {state.area_label(area)}: "
        f"{C.show_all(sorted((c.code for c in fleet), key=C.sort_key))} flip face down.",
        seat=seat, area=area, cards=[c.code for c in fleet]))
