"""The automatic parts of a turn (O-6, O-7, O-8, O-9 arrivals, O-16) and the alternation
machinery shared by the Transit and Deployment phases (O-1, O-9, O-10)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rules.base import Embed, Event, ImageRef, Seat
from bot.rules.orbits import cards as C
from bot.rules.orbits import result_embeds as shown
from bot.rules.orbits.events import plural, public, to_seat
from bot.rules.orbits.geometry import home
from bot.rules.orbits.options import OrbitsOptions
from bot.rules.orbits.state import OrbitsState, TableCard
from bot.rules.orbits.views import build_views

OpenBattles = Callable[[OrbitsState, list[Event]], None]

# O-D8: a campaign in which nobody can act and nobody gains RP for this many turns in a row
# can never end; it stops as a draw instead of looping forever.
STALEMATE_TURNS = 3


def new_game(options: OrbitsOptions, seats: list[Seat],
             shuffle: Callable[[list[Any]], list[Any]]) -> OrbitsState:
    """Setup (O-4): J, Q, K of the agreed suit face up at each home, then each deck shuffled.

    ``shuffle`` is the injected dice's shuffle; decks are shuffled in seat order."""
    decks: dict[int, list[str]] = {}
    table: list[TableCard] = []
    faces = {f"{r}{options.suit}" for r in C.FACE_RANKS}
    for seat in seats:
        deck = [c for c in C.full_deck() if c not in faces]
        decks[seat.number] = list(shuffle(deck))
        for code in sorted(faces, key=C.sort_key):
            table.append(
                TableCard(owner=seat.number, code=code, area=home(seat.number),
                          face_up=True, known=True)
            )
    nums = [s.number for s in seats]
    return OrbitsState(
        options=options, seats=seats, decks=decks, table=table,
        discards={n: [] for n in nums}, rp={n: 0 for n in nums},
        battles_won={n: 0 for n in nums},
    )


def begin_turn(state: OrbitsState, events: list[Event]) -> None:
    """Development, Resource, victory check, then the Transit phase opens (O-16)."""
    events.append(public("turn", f"**Turn {state.turn}** begins.", turn=state.turn))
    development(state, events)
    gained = resources(state, events)
    if check_victory(state, events):
        return
    state.idle_turns = state.idle_turns + 1 if gained == 0 and not state.acted else 0
    state.acted = False
    if state.idle_turns >= STALEMATE_TURNS:
        finish(state, events, [], "nobody can act or gain RP any more: the campaign is a draw")
        return
    arrivals(state, events)
    open_alternation(state, "transit")


def development(state: OrbitsState, events: list[Event]) -> None:
    """O-6: one draw per area holding a full J-Q-K of one suit face up, placed face down."""
    for seat in state.seat_numbers():
        for area in state.areas():
            if not _has_full_suit(state, seat, area):
                continue
            deck = state.decks[seat]
            where = state.area_label(area)
            if not deck:
                events.append(to_seat(seat, "draw_empty",
                                      f"Your deck is empty: no draw at {where}."))
                continue
            code = deck.pop(0)
            state.table.append(TableCard(owner=seat, code=code, area=area))
            events.append(to_seat(seat, "draw", f"You draw {C.show(code)} at {where}; "
                                  "it lies face down there.", card=code, area=area))
            events.append(public("draw_count", f"{state.name(seat)} draws 1 card at {where}.",
                                 seat=seat, area=area))


def _has_full_suit(state: OrbitsState, seat: int, area: str) -> bool:
    faces = {c.code for c in state.face_up_faces(seat, area)}
    return any(all(f"{r}{s}" in faces for r in C.FACE_RANKS) for s in C.SUITS)


def resources(state: OrbitsState, events: list[Event]) -> int:
    """O-7: 1 RP per own face-up face card, except where an opponent shows fleet cards."""
    parts: list[str] = []
    gained_total = 0
    for seat in state.seat_numbers():
        gained = sum(
            1 for c in state.table
            if c.owner == seat and c.face_up and C.is_face(c.code)
            and not state.opponent_fleet_up(seat, c.area)
        )
        state.rp[seat] += gained
        gained_total += gained
        parts.append(f"{state.name(seat)} +{gained} → {state.rp[seat]}")
    events.append(public("resources", "Resources: " + "; ".join(parts) + " RP.",
                         rp=dict(state.rp)))
    return gained_total


def check_victory(state: OrbitsState, events: list[Event]) -> bool:
    """O-8: anyone at or above the target wins; highest balance; a tie is shared."""
    target = state.options.target_rp
    reached = [s for s in state.seat_numbers() if state.rp[s] >= target]
    if not reached:
        return False
    top = max(state.rp[s] for s in reached)
    winners = [s for s in reached if state.rp[s] == top]
    finish(state, events, winners, f"reached {target} RP")
    return True


def finish(state: OrbitsState, events: list[Event], winners: list[int], why: str) -> None:
    """Ends the game with the final summary (O-8): RP, cards left, battles won."""
    state.phase = "finished"
    state.winners = winners
    if winners:
        who = " and ".join(state.name(w) for w in winners)
        head = f"**{who} win{'s' if len(winners) == 1 else ''}**: {why}."
    else:
        head = f"**The campaign ends**: {why}."
    lines = [head]
    for seat in state.seat_numbers():
        left = len(state.decks[seat]) + sum(1 for c in state.table if c.owner == seat)
        lines.append(
            f"{state.name(seat)}: {state.rp[seat]} RP, {plural(left, 'card')} left, "
            f"{plural(state.battles_won[seat], 'battle')} won"
        )
    events.append(public("victory", "\n".join(lines), winners=winners, rp=dict(state.rp),
                         ruling="O-8",
                         battles_won=dict(state.battles_won),
                         embed=shown.standings(state, head.replace("**", ""))))


def arrivals(state: OrbitsState, events: list[Event]) -> None:
    """O-9: every group loses one token; at 0 it arrives (face down, no longer in transit)."""
    for g in list(state.groups):
        g.tokens -= 1
        if g.tokens <= 0:
            arrive(state, g.id, events)


def arrive(state: OrbitsState, gid: int, events: list[Event]) -> None:
    g = state.group(gid)
    assert g is not None
    moved = state.group_cards(gid)
    for c in moved:
        c.group = None
    state.groups = [x for x in state.groups if x.id != gid]
    events.append(public(
        "arrival",
        f"{state.name(g.owner)}'s {plural(len(moved), 'face-down card')} "
        f"{'arrives' if len(moved) == 1 else 'arrive'} at "
        f"{state.area_label(g.destination)}.",
        seat=g.owner, area=g.destination, count=len(moved),
    ))


# --- alternation (O-1, O-9, O-10) -----------------------------------------------------------


def open_alternation(state: OrbitsState, phase: str) -> None:
    """Starts an alternation; the first actor rotates by one seat each time (O-1).

    O-D1: each Transit and each Deployment phase is one alternation; Development draws are
    automatic and take no turns."""
    seats = state.seat_numbers()
    state.phase = phase  # type: ignore[assignment]
    state.actor = seats[state.alternations % len(seats)]
    state.alternations += 1
    state.passes = 0


def next_actor(state: OrbitsState) -> None:
    seats = state.seat_numbers()
    state.actor = seats[(seats.index(state.actor) + 1) % len(seats)]


def can_act_publicly(state: OrbitsState, seat: int) -> bool:
    """O-D2: may this seat have anything but pass, judged from public facts only?

    A seat for which the public can already see that only "pass" is possible passes
    automatically; everyone else is asked, so an automatic pass never leaks a secret."""
    resting = bool(state.resting_face_down(seat))
    if state.phase == "transit":
        rush = state.options.rush_transit and state.rp[seat] >= 1 and any(
            g.owner == seat and g.rushed_turn != state.turn for g in state.groups
        )
        return resting or rush
    fleet_up = any(c.owner == seat and c.face_up and C.is_fleet(c.code) for c in state.table)
    return (resting and state.rp[seat] >= 1) or fleet_up


def settle(state: OrbitsState, events: list[Event], open_battles: OpenBattles) -> None:
    """Runs the state forward until somebody must decide (or the game is over).

    ``open_battles`` (``battles.open_battles``) is passed in rather than imported: battles
    calls ``next_turn`` here, and the two modules must not import each other."""
    n = len(state.seats)
    while state.phase in ("transit", "deployment"):
        if state.passes >= n:
            if state.phase == "transit":
                open_alternation(state, "deployment")
                continue
            post_maps(state, events)
            open_battles(state, events)
            return
        if can_act_publicly(state, state.actor):
            return
        events.append(public("pass", f"{state.name(state.actor)} passes (nothing to do).",
                             seat=state.actor, automatic=True))
        state.passes += 1
        next_actor(state)


def post_maps(state: OrbitsState, events: list[Event]) -> None:
    """After deployment: one public map, and each player's own map by DM. Each picture is the
    view taken now and its caption is read from that view (P-31, O-D30): the resolution goes on
    (battles, the next turn), and a view taken later would show a later step."""
    seats = state.seat_numbers()
    public_view, *own_views = build_views(state, [None, *seats])  # one pass for all (issue 9)
    caption = map_caption(public_view)
    events.append(public("map", f"{caption}.",
                         image=ImageRef(name="map", viewer=None, view=public_view),
                         turn=state.turn, embed=Embed(title=caption)))
    for seat, own in zip(seats, own_views, strict=True):
        text = map_caption(own)
        events.append(to_seat(seat, "map", f"Your {text[0].lower()}{text[1:]}.",
                              image=ImageRef(name="map", viewer=seat, view=own),
                              turn=state.turn))


def map_caption(view: dict[str, Any]) -> str:
    """What a map picture shows, from the view it is drawn from: its turn and phase."""
    phase = str(view["phase"])
    if phase == "deployment":
        return f"Map after the Deployment phase of turn {view['turn']}"
    return f"Map of turn {view['turn']}, {phase.replace('battle_', 'battle: ')}"


def next_turn(state: OrbitsState, events: list[Event], open_battles: OpenBattles) -> None:
    """All battles done (O-16): the next turn runs up to its Transit phase."""
    state.battles = []
    state.battle_index = 0
    state.turn += 1
    begin_turn(state, events)
    settle(state, events, open_battles)
