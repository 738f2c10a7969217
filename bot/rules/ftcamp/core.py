"""Pure formulas: group size (E-8), subdivisions (E-7), engage value (E-9), signature (E-4)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.errors import InvalidInput
from bot.rules.ftcamp.model import Craft, Group, State

GROUP_SIZES: tuple[str, ...] = ("Task Force", "Combat Group", "Battle Group", "War Group", "Armada")
DEFAULT_SIZE_LIMITS: tuple[int, ...] = (3, 6, 10, 15)
EE_PARTS: dict[str, int] = {
    "Task Force": 2, "Combat Group": 3, "Battle Group": 4, "War Group": 5, "Armada": 6,
}
RT_MAX_PARTS = 3
RT_BONUS: tuple[int, ...] = (0, 0, 1, 2)
STATIC_VALUE = {"military": -1, "civilian": -3}


def group_size(craft_count: int, limits: Sequence[int] = DEFAULT_SIZE_LIMITS) -> str:
    """The size name for a number of non-decoy craft (E-8). A group of decoys only (0 craft)
    counts as a Task Force (E-D5)."""
    if craft_count < 0:
        raise InvalidInput(f"craft count must be 0 or more, not {craft_count}")
    for name, upper in zip(GROUP_SIZES, limits, strict=False):
        if craft_count <= upper:
            return name
    return GROUP_SIZES[-1]


def max_subdivisions(order: str, craft_count: int,
                     limits: Sequence[int] = DEFAULT_SIZE_LIMITS) -> int:
    """Most parts a group of ``craft_count`` craft may split into (E-7): RT 3, EE by group
    size (E-8), SF 1; never more parts than craft."""
    if order not in ("RT", "SF", "EE"):
        raise InvalidInput(f"order must be RT, SF or EE, not {order!r}")
    return parts_cap(order, craft_count, craft_count, limits)


def subdivision_bonus(order: str, parts: int) -> int:
    """+0/+1/+2 for RT in 1/2/3 parts; +1 per extra part on EE; nothing on SF (E-7)."""
    if order == "RT":
        return RT_BONUS[min(parts, RT_MAX_PARTS)]
    if order == "EE":
        return max(parts - 1, 0)
    return 0


def engage_value(dice: tuple[int, int], bonus: int, min_thrust: int) -> int:
    """Highest of the two dice plus the subdivision bonus plus the minimum thrust (E-9)."""
    for d in dice:
        if not 1 <= d <= 6:
            raise InvalidInput(f"a d6 shows 1 to 6, not {d}")
    return max(dice) + bonus + min_thrust


def signature_class(mass: int, limits: Sequence[int]) -> int:
    """Signature class by MASS (E-4): 1 up to the first limit ... 5 above the last."""
    for i, upper in enumerate(limits, start=1):
        if mass <= upper:
            return i
    return len(limits) + 1


def real_craft_count(group: Group) -> int:
    return sum(1 for c in group.craft if not c.is_decoy)


def tug_group(state: State, group: Group) -> Group | None:
    """The group holding ``group``'s tug, when it is in the same hex with a working tug craft;
    None when the group is not tugged or its tug is destroyed, crippled or elsewhere (E-D29)."""
    if group.tugged_by is None:
        return None
    tug = state.groups.get(group.tugged_by)
    if tug is None or tug.hex != group.hex:
        return None
    if not any(tows(c) for c in tug.craft):
        return None
    return tug


def tows(c: Craft) -> bool:
    """A tug craft that can take others out: not a decoy, FTL working (seed 5.3.2)."""
    return c.tug > 0 and not c.is_decoy and not c.crippled


def towed_by_other(state: State, group: Group) -> Group | None:
    """The tug's group when the tug is present and in ANOTHER group (seed 3.1.2): only then
    does the tugged group go where its tug goes (E-D29)."""
    tug = tug_group(state, group)
    return tug if tug is not None and tug.name != group.name else None


def min_thrust(state: State, group: Group) -> int:
    """The group's minimum main-drive thrust, 0 when a drive is out; a tugged group uses the
    thrust of its tug when the tug is with it (E-9, E-D29)."""
    tug = towed_by_other(state, group)
    if tug is not None:
        tugs = [c for c in tug.craft if tows(c) and c.drive]
        return max((c.thrust for c in tugs), default=0)
    if not group.craft:
        return 0
    return min(c.thrust if c.drive else 0 for c in group.craft)


def static_value(group: Group) -> int:
    """Statics do not roll: military −1, others −3 (E-9)."""
    return STATIC_VALUE.get(group.static or "civilian", -3)


def is_armed(group: Group) -> bool:
    return any(c.armed for c in group.craft)


def crippled_craft(group: Group) -> list[str]:
    return [c.name for c in group.craft if c.crippled and not c.is_decoy]


def stranded(state: State, group: Group) -> bool:
    """FTL-crippled craft and no tug with the group: it cannot leave the hex (E-D4). A group
    whose tug is destroyed or elsewhere is crippled again (E-D29)."""
    return bool(crippled_craft(group)) and tug_group(state, group) is None


def forget_group(state: State, name: str) -> None:
    """Remove a group; groups it tugged lose their tug (E-D29) so the state stays loadable."""
    del state.groups[name]
    for n, g in list(state.groups.items()):
        if g.tugged_by == name:  # a changed copy: the group may be shared (copying.py)
            state.groups[n] = g.model_copy(update={"tugged_by": None})


def parts_cap(order: str, non_decoy: int, total: int,
              limits: Sequence[int] = DEFAULT_SIZE_LIMITS) -> int:
    """Parts allowed for a group of ``total`` craft of which ``non_decoy`` are real (E-7, E-8):
    the size comes from real craft, the cap from all craft."""
    if order == "SF" or total < 1:
        return 1
    cap = RT_MAX_PARTS if order == "RT" else EE_PARTS[group_size(non_decoy, limits)]
    return min(cap, total)
