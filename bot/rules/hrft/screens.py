"""Screen settings per arc (H-12): 6 points per screen level; an arc at level 1 costs 1,
level 2 costs 2, level 3 costs 6."""

from __future__ import annotations

from bot.errors import RulesError
from bot.rules.hrft.arcs import ARCS, adjacent, check_arc

ARC_COST = {0: 0, 1: 1, 2: 2, 3: 6}
POINTS_PER_LEVEL = 6


def cost(setting: dict[str, int]) -> int:
    return sum(ARC_COST[level] for level in setting.values())


def parse(text: str, ship_level: int) -> dict[str, int]:
    """A setting like ``all:1``, ``off`` or ``F2 FS2 FP1`` checked against the ship's screen
    level (no arc above it, total cost within 6 points per level)."""
    text = (text or "").strip()
    if ship_level <= 0:
        if text.lower() not in ("", "off", "none"):
            raise RulesError("This ship has no working screens; the setting must be 'off'.",
                             ruling="H-12")
        return {}
    if text.lower() in ("", "off", "none"):
        return {}
    setting: dict[str, int] = {}
    if text.lower().startswith("all:"):
        level = _level(text[4:])
        setting = {a: level for a in ARCS}
    else:
        for token in text.replace(",", " ").split():
            arc = check_arc(token.rstrip("0123456789"))
            setting[arc] = _level(token[len(arc):] or "1")
    setting = {a: lvl for a, lvl in setting.items() if lvl}
    if any(lvl > ship_level for lvl in setting.values()):
        raise RulesError(f"Screen level {max(setting.values())} is above the ship's screen "
                         f"level {ship_level}.", ruling="H-12")
    points = POINTS_PER_LEVEL * ship_level
    if cost(setting) > points:
        raise RulesError(f"Screen setting '{text}' costs {cost(setting)} points; the ship has "
                         f"{points} (6 per level; an arc costs 1 at level 1, 2 at level 2, "
                         "6 at level 3).", ruling="H-12")
    return setting


def _level(raw: str) -> int:
    if raw.strip() not in ("0", "1", "2", "3"):
        raise RulesError(f"Screen level '{raw}' must be 0 to 3.", ruling="H-12")
    return int(raw)


def presets(ship_level: int) -> list[tuple[str, str]]:
    """Legal settings to offer in a Select: (value, label)."""
    out = [("off", "Screens off")]
    for level in range(1, min(ship_level, 2) + 1):
        out.append((f"all:{level}", f"All arcs at level {level}"))
    if ship_level >= 3:
        for arc in ARCS:
            cw, ccw = adjacent(arc)
            value = f"{ccw}3 {arc}3 {cw}3"
            out.append((value, f"Level 3 on {ccw}/{arc}/{cw}"))
    return out


def describe(setting: dict[str, int]) -> str:
    if not setting:
        return "off"
    if len(setting) == 6 and len(set(setting.values())) == 1:
        return f"all arcs {next(iter(setting.values()))}"
    return " ".join(f"{a}{setting[a]}" for a in ARCS if a in setting)
