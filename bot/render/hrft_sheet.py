"""HRFT ship sheet: the six hull blocks around the hull, rows, armour, systems by arc and
the damage marked (``render(view) -> PNG bytes``).

The ship drawn is ``view["ship"]`` when given (one ship's view), else
``view["ships"][view["sheet_ship"]]`` (the ship the last fire/damage/repair event was about),
else the first ship of the view. System names are measured and wrapped, never cut;
``layout(view)`` returns the drawn canvas with every label's box, for tests.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import ImageDraw

from bot.render import png, style
from bot.render.style import Canvas, fit, line_height, text_width

WIDTH, HEIGHT = 1000, 800
CX, CY = 500, 425
RX, RY = 330, 270
PANEL_W, PANEL_H = 250, 190
CENTER_W, CENTER_H = 300, 230
ARC_ANGLE = {"F": 0, "FS": 60, "AS": 120, "A": 180, "AP": 240, "FP": 300}

BG = style.PAPER
INK = style.INK
GREY = style.MUTED
PANEL = style.PANEL
STRIPPED = (250, 222, 222)
HIT = style.ALERT
ARMOUR = (70, 110, 170)
OK_SYS = (30, 100, 50)
TEXT_W = PANEL_W - 16  # a system line inside a block
CENTER_TEXT_W = CENTER_W - 28

Font = style.Font


def _font(size: int) -> Font:
    return style.font(size)


def _pick_ship(view: dict[str, Any]) -> dict[str, Any] | None:
    if isinstance(view.get("ship"), dict):
        return view["ship"]
    ships = view.get("ships") or {}
    uid = view.get("sheet_ship")
    if uid and uid in ships:
        return ships[uid]
    return next(iter(ships.values()), None)


def _block_angle(arcs: list[str]) -> float | None:
    """Circular mean of the block's arcs (None for an all-round block)."""
    if len(arcs) >= 6:
        return None
    x = sum(math.sin(math.radians(ARC_ANGLE[a])) for a in arcs)
    y = sum(math.cos(math.radians(ARC_ANGLE[a])) for a in arcs)
    return math.degrees(math.atan2(x, y)) % 360


def _panel_center(angle: float | None) -> tuple[int, int]:
    if angle is None:
        return CX, CY - RY
    rad = math.radians(angle)
    return int(CX + RX * math.sin(rad)), int(CY - RY * math.cos(rad))


def _home_block(system: dict[str, Any], blocks: list[dict[str, Any]]) -> str | None:
    """The block an arc-bound system is listed under: the one nearest its arcs' middle."""
    arcs = system["arcs"]
    if system["group"] != "arc" or not arcs:
        return None
    if len(blocks) == 1:  # one all-round block (hull 1): everything faces it
        return blocks[0]["name"]
    if len(arcs) >= 6:
        return None
    angle = _block_angle(arcs)
    best, best_d = None, 999.0
    for b in blocks:
        b_angle = _block_angle(b["arcs"])
        if b_angle is None or angle is None:
            continue
        d = abs((b_angle - angle + 180) % 360 - 180)
        if d < best_d:
            best, best_d = b["name"], d
    return best


def _system_text(s: dict[str, Any]) -> tuple[str, tuple[int, int, int]]:
    if s["hits"] >= s["max_hits"]:
        return f"X {s['label']}", HIT
    if s["hits"]:
        return f"/ {s['label']} (damaged)", HIT
    return s["label"], OK_SYS


def _draw_block(canvas: Canvas, block: dict[str, Any], systems: list[dict[str, Any]],
                box: tuple[int, int, int, int]) -> None:
    draw = canvas.draw
    x0, y0, x1, y1 = box
    fill = STRIPPED if block["stripped"] else PANEL
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=INK, width=2)
    title = f"{block['name']}" + ("  STRIPPED" if block["stripped"] else "")
    left = block["hull"] - block["hull_lost"]
    hull = f"hull {left}/{block['hull']}"
    canvas.text((x1 - 8, y0 + 7), hull, 12, GREY, "ra")
    room = PANEL_W - 24 - text_width(hull, _font(12))
    canvas.text((x0 + 8, y0 + 5), title, style.fit_size(title, room, 15),
                HIT if block["stripped"] else INK)
    y = y0 + 26
    longest = max([*block["rows"], block["armour"], 1])
    size = max(6, min(16, (PANEL_W - 44) // longest - 2))
    if block["armour"]:
        for i in range(block["armour"]):
            bx = x0 + 30 + i * (size + 2)
            lost = i < block["armour_lost"]
            draw.ellipse((bx, y, bx + size, y + size), outline=ARMOUR, width=2,
                         fill=ARMOUR if lost else None)
            if lost:
                draw.line((bx, y, bx + size, y + size), fill=BG, width=2)
        canvas.text((x0 + 8, y), "A", 12, ARMOUR)
        y += size + 4
    damaged = block["hull_lost"]
    index = 0
    for number, length in enumerate(block["rows"], start=1):
        canvas.text((x0 + 8, y), str(number), 12, GREY)
        for i in range(length):
            bx = x0 + 30 + i * (size + 2)
            lost = index < damaged
            draw.rectangle((bx, y, bx + size, y + size), outline=INK, width=1,
                           fill=HIT if lost else (255, 255, 255))
            if lost:
                draw.line((bx + 2, y + 2, bx + size - 2, y + size - 2), fill=BG, width=2)
                draw.line((bx + 2, y + size - 2, bx + size - 2, y + 2), fill=BG, width=2)
            index += 1
        y += size + 3
    y += 2
    lines = [(part, size, colour) for text, colour in map(_system_text, systems)
             for parts, size in [fit(text, TEXT_W, 12, 2, 10)] for part in parts]
    _lines(canvas, lines, x0 + 8, y, y1 - 4)


def _lines(canvas: Canvas, lines: list[tuple[str, int, tuple[int, int, int]]], x: float,
           y: float, bottom: float) -> None:
    """Text lines down to ``bottom``; when they do not all fit, the last says how many more
    (the ship's full list is in the battle's text reports)."""
    for i, (text, size, colour) in enumerate(lines):
        lh = line_height(size)
        if y + lh > bottom or (i + 1 < len(lines) and y + 2 * lh > bottom):
            canvas.text((x, y), f"+{len(lines) - i} more lines", 11, GREY)
            return
        canvas.text((x, y), text, size, colour)
        y += lh


def _grouped(systems: list[dict[str, Any]]) -> list[tuple[str, tuple[int, int, int]]]:
    """Systems with equal labels and state counted together, working ones on shared lines."""
    counts: dict[tuple[str, tuple[int, int, int]], int] = {}
    for s in systems:
        key = _system_text(s)
        counts[key] = counts.get(key, 0) + 1
    ok = [f"{t} x{n}" if n > 1 else t for (t, c), n in counts.items() if c == OK_SYS]
    lines: list[tuple[str, tuple[int, int, int]]] = []
    line = ""
    small = _font(12)
    for t in ok:
        if line and text_width(f"{line}, {t}", small) > CENTER_TEXT_W:
            lines.append((line, OK_SYS))
            line = ""
        line = f"{line}, {t}" if line else t
    if line:
        lines.append((line, OK_SYS))
    lines += [(f"{t} x{n}" if n > 1 else t, c) for (t, c), n in counts.items() if c != OK_SYS]
    return lines


def _draw_center(canvas: Canvas, ship: dict[str, Any],
                 all_round: list[dict[str, Any]]) -> None:
    draw = canvas.draw
    box = (CX - CENTER_W // 2, CY - CENTER_H // 2, CX + CENTER_W // 2, CY + CENTER_H // 2)
    draw.rounded_rectangle(box, radius=14, fill=(255, 255, 255), outline=INK, width=3)
    x, y = box[0] + 10, box[1] + 8
    sections = [
        ("360", all_round),
        ("Central", [s for s in ship["systems"] if s["group"] == "central"
                     and s["type"] != "dcp"]),
        ("Core", [s for s in ship["systems"] if s["group"] == "core"]),
        # H-D52: design systems HRFT carries without using them
        ("Not used in HRFT", [{"label": label, "hits": 0, "max_hits": 1}
                             for label in ship.get("not_used", [])]),
    ]
    lines: list[tuple[str, int, tuple[int, int, int]]] = []
    for title, systems in sections:
        if systems:
            lines.append((title, 12, GREY))
            lines += [("   " + part, size, colour) for text, colour in _grouped(systems)
                      for parts, size in [fit(text, CENTER_TEXT_W, 12, 2, 10)]
                      for part in parts]
    _lines(canvas, lines, x, y, box[3] - 34)
    dcps = [s for s in ship["systems"] if s["type"] == "dcp"]
    canvas.text((x, box[3] - 30), "DCP", 12, GREY)
    for i, s in enumerate(dcps):
        bx = x + 36 + i * 16
        fill = HIT if s["hits"] else (INK if s["inverted"] else (255, 255, 255))
        draw.rectangle((bx, box[3] - 30, bx + 12, box[3] - 18), outline=INK, fill=fill)
        if s["inverted"] and not s["hits"]:
            draw.rectangle((bx + 4, box[3] - 26, bx + 8, box[3] - 22), fill=(255, 255, 255))


def render(view: dict[str, Any]) -> bytes:
    """The sheet of one ship (see the module docstring for which) as PNG bytes."""
    return _png(layout(view, record=False))


def layout(view: dict[str, Any], record: bool = True) -> Canvas:
    """The sheet drawn on a Canvas (its ``labels`` are every text's box)."""
    canvas = Canvas(WIDTH, HEIGHT, BG, record=record)
    draw = canvas.draw
    ship = _pick_ship(view)
    if ship is None:
        canvas.title_bar("Ship sheet")
        canvas.text((WIDTH // 2, HEIGHT // 2), "No ships yet", 24, INK, "mm")
        return canvas
    status = ship.get("status", "fighting")
    head = f"{ship['name']} ({ship.get('uid', '')}, {ship.get('owner', '')})"
    if status != "fighting":
        head += f" · {status.upper()}"
    info = (f"{ship.get('type_code') or ''} MASS {ship['mass']} · thrust "
            f"{ship.get('current_thrust', ship['thrust'])}/{ship['thrust']} · hull "
            f"{ship['hull_left']}/{ship['hull_boxes']} · armour {ship['armour_left']}/"
            f"{ship['armour_boxes']} · screens {ship.get('screens', 'off')}").strip()
    canvas.title_bar(head, info)
    blocks = ship["blocks"]
    homes: dict[str, list[dict[str, Any]]] = {b["name"]: [] for b in blocks}
    all_round = []
    for s in ship["systems"]:
        if s["group"] != "arc":
            continue
        home = _home_block(s, blocks)
        if home is None:
            all_round.append(s)
        else:
            homes[home].append(s)
    _draw_hull(draw, blocks)
    for b in blocks:
        cx, cy = _panel_center(_block_angle(b["arcs"]))
        box = (cx - PANEL_W // 2, cy - PANEL_H // 2, cx + PANEL_W // 2, cy + PANEL_H // 2)
        _draw_block(canvas, b, homes[b["name"]], box)
    _draw_center(canvas, ship, all_round)
    return canvas


def _draw_hull(draw: ImageDraw.ImageDraw, blocks: list[dict[str, Any]]) -> None:
    """Lines from the centre between neighbouring blocks, so blocks read as sectors."""
    angles = sorted(a for a in (_block_angle(b["arcs"]) for b in blocks) if a is not None)
    cuts = [((a + (angles[(i + 1) % len(angles)] - a) % 360 / 2) % 360)
            for i, a in enumerate(angles)] if len(angles) > 1 else []
    for angle in cuts:
        rad = math.radians(angle)
        end = (CX + int((RX + 40) * math.sin(rad)), CY - int((RY + 40) * math.cos(rad)))
        draw.line((CX, CY, *end), fill=(205, 205, 215), width=2)
    draw.polygon([(CX, CY - CENTER_H // 2 - 22), (CX - 12, CY - CENTER_H // 2),
                  (CX + 12, CY - CENTER_H // 2)], fill=INK)


def _png(canvas: Canvas) -> bytes:
    return png.encode(canvas.image)
