"""HRFT ship sheet: the six hull blocks around the hull, rows, armour, systems by arc and
the damage marked (``render(view) -> PNG bytes``).

The ship drawn is ``view["ship"]`` when given (one ship's view), else
``view["ships"][view["sheet_ship"]]`` (the ship the last fire/damage/repair event was about),
else the first ship of the view.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render import png

WIDTH, HEIGHT = 1000, 800
CX, CY = 500, 425
RX, RY = 330, 270
PANEL_W, PANEL_H = 250, 190
CENTER_W, CENTER_H = 300, 230
ARC_ANGLE = {"F": 0, "FS": 60, "AS": 120, "A": 180, "AP": 240, "FP": 300}

BG = (250, 248, 240)
INK = (30, 30, 40)
GREY = (120, 120, 130)
PANEL = (236, 240, 246)
STRIPPED = (250, 222, 222)
HIT = (200, 40, 40)
ARMOUR = (70, 110, 170)
OK_SYS = (30, 100, 50)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: int) -> Font:
    return ImageFont.load_default(size=size)


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


def _draw_block(draw: ImageDraw.ImageDraw, block: dict[str, Any], systems: list[dict[str, Any]],
                box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    fill = STRIPPED if block["stripped"] else PANEL
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=INK, width=2)
    title = f"{block['name']}" + ("  STRIPPED" if block["stripped"] else "")
    draw.text((x0 + 8, y0 + 5), title, fill=HIT if block["stripped"] else INK, font=_font(15))
    left = block["hull"] - block["hull_lost"]
    draw.text((x1 - 8, y0 + 7), f"hull {left}/{block['hull']}", fill=GREY, font=_font(12),
              anchor="ra")
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
        draw.text((x0 + 8, y), "A", fill=ARMOUR, font=_font(12))
        y += size + 4
    damaged = block["hull_lost"]
    index = 0
    for number, length in enumerate(block["rows"], start=1):
        draw.text((x0 + 8, y), str(number), fill=GREY, font=_font(12))
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
    for s in systems:
        if y > y1 - 16:
            draw.text((x0 + 8, y), "...", fill=GREY, font=_font(12))
            break
        text, colour = _system_text(s)
        draw.text((x0 + 8, y), text[:34], fill=colour, font=_font(12))
        y += 15


def _grouped(systems: list[dict[str, Any]]) -> list[tuple[str, tuple[int, int, int]]]:
    """Systems with equal labels and state counted together, working ones on shared lines."""
    counts: dict[tuple[str, tuple[int, int, int]], int] = {}
    for s in systems:
        key = _system_text(s)
        counts[key] = counts.get(key, 0) + 1
    ok = [f"{t} x{n}" if n > 1 else t for (t, c), n in counts.items() if c == OK_SYS]
    lines: list[tuple[str, tuple[int, int, int]]] = []
    line = ""
    for t in ok:
        if line and len(line) + len(t) > 36:
            lines.append((line, OK_SYS))
            line = ""
        line = f"{line}, {t}" if line else t
    if line:
        lines.append((line, OK_SYS))
    lines += [(f"{t} x{n}" if n > 1 else t, c) for (t, c), n in counts.items() if c != OK_SYS]
    return lines


def _draw_center(draw: ImageDraw.ImageDraw, ship: dict[str, Any],
                 all_round: list[dict[str, Any]]) -> None:
    box = (CX - CENTER_W // 2, CY - CENTER_H // 2, CX + CENTER_W // 2, CY + CENTER_H // 2)
    draw.rounded_rectangle(box, radius=14, fill=(255, 255, 255), outline=INK, width=3)
    x, y = box[0] + 10, box[1] + 8
    sections = [
        ("360", all_round),
        ("Central", [s for s in ship["systems"] if s["group"] == "central"
                     and s["type"] != "dcp"]),
        ("Core", [s for s in ship["systems"] if s["group"] == "core"]),
    ]
    bottom = box[3] - 36
    for title, systems in sections:
        if not systems or y > bottom - 14:
            continue
        draw.text((x, y), title, fill=GREY, font=_font(12))
        y += 15
        for text, colour in _grouped(systems):
            if y > bottom - 14:
                draw.text((x + 8, y), "...", fill=GREY, font=_font(12))
                y += 14
                break
            draw.text((x + 8, y), text[:40], fill=colour, font=_font(12))
            y += 14
        y += 3
    dcps = [s for s in ship["systems"] if s["type"] == "dcp"]
    draw.text((x, box[3] - 30), "DCP", fill=GREY, font=_font(12))
    for i, s in enumerate(dcps):
        bx = x + 36 + i * 16
        fill = HIT if s["hits"] else (INK if s["inverted"] else (255, 255, 255))
        draw.rectangle((bx, box[3] - 30, bx + 12, box[3] - 18), outline=INK, fill=fill)
        if s["inverted"] and not s["hits"]:
            draw.rectangle((bx + 4, box[3] - 26, bx + 8, box[3] - 22), fill=(255, 255, 255))


def render(view: dict[str, Any]) -> bytes:
    """The sheet of one ship (see the module docstring for which) as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(image)
    ship = _pick_ship(view)
    if ship is None:
        draw.text((WIDTH // 2, HEIGHT // 2), "No ships yet", fill=INK, font=_font(24),
                  anchor="mm")
        return _png(image)
    status = ship.get("status", "fighting")
    head = f"{ship['name']}  ({ship.get('uid', '')}, {ship.get('owner', '')})"
    draw.text((16, 10), head, fill=HIT if status != "fighting" else INK, font=_font(22))
    info = (f"{ship.get('type_code') or ''} MASS {ship['mass']}  thrust "
            f"{ship.get('current_thrust', ship['thrust'])}/{ship['thrust']}  hull "
            f"{ship['hull_left']}/{ship['hull_boxes']}  armour {ship['armour_left']}/"
            f"{ship['armour_boxes']}  screens {ship.get('screens', 'off')}  {status.upper()}")
    draw.text((WIDTH - 16, 16), info, fill=GREY, font=_font(13), anchor="ra")
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
        _draw_block(draw, b, homes[b["name"]], box)
    _draw_center(draw, ship, all_round)
    return _png(image)


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


def _png(image: Image.Image) -> bytes:
    return png.encode(image)
