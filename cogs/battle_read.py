"""Reading an HRFT battle for the /battle commands: the caller's view and open requests,
autocomplete choices and ship texts.

Everything comes from ``CampaignService.seat_view`` (what the caller may see); the cog never
holds the battle's state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.campaign.models import ActionSpec, Actor, SeatView, Status
from bot.errors import InvalidInput, InvalidState, NotFound

if TYPE_CHECKING:
    from bot.campaign import CampaignService

RULESET = "hrft"
NO_BATTLE = ("No battle is running here (it may be over). `/battle start` in a text channel "
             "opens one in a new thread.")


@dataclass(frozen=True)
class Battle(SeatView):
    """One HRFT battle as the caller may see it: the caller's ``SeatView`` of it (seat, GM
    flag, view, open requests and GM actions, with ``spec``/``gm_spec``), plus its ships."""

    @property
    def campaign_id(self) -> int:
        return self.info.id

    @property
    def step_no(self) -> int:
        return self.info.step_no

    @property
    def status(self) -> str:  # setup | running | paused | ended
        return self.info.status

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def ships(self) -> dict[str, dict[str, Any]]:
        return dict(self.view.get("ships", {}))

    def ship(self, uid: str) -> dict[str, Any]:
        ships = self.ships
        if uid in ships:
            return ships[uid]
        known = ", ".join(f"{k} ({s['name']})" for k, s in ships.items()) or "none yet"
        raise NotFound(f"No ship '{uid}' in this battle. Ships: {known}.")


async def load_battle(service: CampaignService, channel_id: int, actor: Actor) -> Battle:
    """The battle of this channel (a thread); refuses elsewhere with what to do instead."""
    try:
        seen = await service.seat_view(actor, channel_id)
    except NotFound:
        raise NotFound(NO_BATTLE) from None
    info = seen.info
    if info.ruleset != RULESET:
        raise InvalidState(
            f"This channel's campaign plays {info.ruleset}, not HRFT. Open a battle with "
            "`/battle start` in a text channel: it gets its own thread."
        )
    return Battle(info=info, seat=seen.seat, is_gm=seen.is_gm, view=seen.view,
                  requests=seen.requests, gm_actions=seen.gm_actions)


def require_started(battle: Battle) -> None:
    if battle.status == Status.SETUP:
        raise InvalidState("The battle has not begun: players join (`/battle join`), then "
                           "the GM runs `/battle begin`.")
    if battle.status == Status.ENDED:
        raise InvalidState("This battle is over.")


def require_begun(battle: Battle) -> None:
    """For reads (sheets, ship details): a battle that is over still shows its ships."""
    if battle.status == Status.SETUP:
        require_started(battle)


def require_spec(battle: Battle, action_type: str, what: str) -> ActionSpec:
    """The offered spec, or a refusal saying why it is not possible now."""
    require_started(battle)
    spec = battle.spec(action_type)
    if spec is not None:
        return spec
    if battle.seat is None and not battle.is_gm:
        raise InvalidState("You hold no seat in this battle.")
    if battle.view.get("finished"):
        raise InvalidState("The battle is over.")
    where = battle.view.get("step_title") or battle.view.get("step", "")
    raise InvalidState(f"You cannot {what} now ({where}).")


def option_values(spec: ActionSpec, field: str) -> list[tuple[str, str]]:
    """(value, label) of one field's legal options."""
    for f in spec.fields:
        if f.name == field:
            return [(o.value, o.label) for o in f.options]
    return []


def round_range(spec: ActionSpec, mu: int) -> str:
    """The range option to send: the shortest offered range at least ``mu`` MU. Offered
    ranges are even numbers, and every band in the tables is a multiple of 2 MU, so rounding
    up to the next even number never changes the band."""
    offered = sorted(int(v) for v, _ in option_values(spec, "range"))
    if mu < 0:
        raise InvalidInput("The range is a distance in MU, 0 or more.")
    for value in offered:
        if value >= mu:
            return str(value)
    raise InvalidInput(f"{mu} MU is beyond every fire table (longest: {offered[-1]} MU)."
                       if offered else "No range can be chosen now.")


def maneuver_action(spec: ActionSpec, ship: str, kinds: str, thrust: int,
                    evasive: int) -> dict[str, Any]:
    """The ``maneuver`` action of ``/battle maneuver`` (H-D32); the rules check the numbers."""
    allowed = [v for v, _ in option_values(spec, "kinds")]
    picked = []
    for token in kinds.split(","):
        key = token.strip().lower().replace(" ", "_").replace("-", "_")
        if not key:
            continue
        if key not in allowed:
            raise InvalidInput(f"'{token.strip()}' is not a manoeuvre the bot records; choose "
                               f"from {', '.join(allowed)} (commas between).")
        if key not in picked:
            picked.append(key)
    if not picked:
        raise InvalidInput(f"Name the manoeuvre(s): {', '.join(allowed)}.")
    top = max((int(v) for v, _ in option_values(spec, "thrust")), default=0)
    if thrust > top:
        raise InvalidInput(f"Thrust {thrust} is more than any of your ships has left "
                           f"un-allocated now ({top}).")
    action: dict[str, Any] = {"type": "maneuver", "ship": ship.strip(), "kinds": picked,
                              "thrust": str(thrust)}
    if evasive:
        if not option_values(spec, "evasive"):
            raise InvalidInput("Evasive points only count with VTIF targeting; this "
                               "battle does not use it.", ruling="H-16")
        action["evasive"] = str(evasive)
    return action


def parse_weapons(raw: str, ship: str, offered: list[str]) -> list[str]:
    """'all' or a comma list of system ids (``s1,s2`` or ``1a:s1``) -> 'ship:system' values."""
    own = [v for v in offered if v.split(":", 1)[0] == ship]
    if not own:
        raise InvalidState(f"Ship {ship} has no weapon that can fire now.")
    tokens = [t.strip() for t in raw.replace(" ", ",").split(",") if t.strip()]
    if not tokens:
        raise InvalidInput("Name the weapons to fire: 'all' or system ids such as 's1,s2'.")
    if [t.lower() for t in tokens] == ["all"]:
        return own
    picked = []
    for token in tokens:
        value = token if ":" in token else f"{ship}:{token}"
        if value not in own:
            allowed = ", ".join(v.split(":", 1)[1] for v in own)
            raise InvalidInput(f"'{token}' cannot fire now from {ship}. Ready to fire: "
                               f"{allowed} (or 'all').")
        if value not in picked:
            picked.append(value)
    return picked


def ship_text(ship: dict[str, Any]) -> str:
    """A ship's full state as lines: blocks, systems out, damage control, orders."""
    lines = [f"**{ship['name']}** ({ship['uid']}, {ship['owner']}): {ship['status']}, "
             f"hull {ship['hull_left']}/{ship['hull_boxes']}, armour "
             f"{ship['armour_left']}/{ship['armour_boxes']}, thrust "
             f"{ship['current_thrust']}/{ship['thrust']}"]
    for block in ship["blocks"]:
        mark = " stripped" if block["stripped"] else ""
        lines.append(f"- block {block['name']}: hull {block['hull'] - block['hull_lost']}/"
                     f"{block['hull']}, armour {block['armour'] - block['armour_lost']}/"
                     f"{block['armour']}{mark}")
    out = [s["label"] for s in ship["systems"] if s["hits"]]
    lines.append("Systems out: " + (", ".join(out) if out else "none"))
    lines.append(f"DCPs free this turn: {ship['dcps_free']} of {ship['dcps_working']}")
    if ship.get("not_used"):  # H-D52: carried from the Fleet Manager design
        lines.append("Not used in HRFT: " + ", ".join(ship["not_used"]))
    if ship.get("screens"):
        lines.append(f"Screens: {ship['screens']}")
    moved = ship.get("maneuver")
    if moved:
        lines.append(f"After mid-turn: {', '.join(moved['kinds'])}, thrust {moved['thrust']}"
                     + (f", evasive {moved['evasive']}" if moved["evasive"] else ""))
    return "\n".join(lines)


def ship_choices(battle: Battle, typed: str, *, own: bool = False,
                 enemy: bool = False) -> list[tuple[str, str]]:
    """(label, value) of ships for autocomplete."""
    out = []
    for uid, ship in battle.ships.items():
        if own and ship["seat"] != battle.seat:
            continue
        if enemy and (ship["seat"] == battle.seat or ship["status"] != "fighting"):
            continue
        label = f"{uid}: {ship['name']} ({ship['owner']}, {ship['status']})"
        if typed.lower() in label.lower():
            out.append((label[:100], uid))
    return out[:25]


def weapon_choices(battle: Battle, ship: str, typed: str) -> list[tuple[str, str]]:
    """Autocomplete for a comma list of weapons: completes the last item."""
    spec = battle.spec("fire")
    if spec is None:
        return []
    labels = {v.split(":", 1)[1]: label for v, label in option_values(spec, "weapons")
              if not ship or v.split(":", 1)[0] == ship}
    done, _, last = typed.rpartition(",")
    prefix = f"{done}," if done else ""
    chosen = {t.strip() for t in done.split(",") if t.strip()}
    out = [] if done else [("all: every weapon ready to fire", "all")]
    for sid, label in labels.items():
        if sid in chosen or last.strip().lower() not in f"{sid} {label}".lower():
            continue
        out.append(((prefix + sid + f"  ({label})")[:100], (prefix + sid)[:100]))
    return out[:25]
