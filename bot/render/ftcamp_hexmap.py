"""FTCamp hex map: systems, contested hexes and the groups a viewer may see
(``render(view) -> PNG bytes``; ``view`` is ``bot.rules.ftcamp`` ``view(state, viewer)``)."""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render import png

BG = (18, 22, 36)
GRID = (70, 80, 110)
LABEL = (140, 150, 175)
INK = (235, 235, 240)
SYSTEM = (250, 210, 90)
CONTESTED = (200, 60, 60)
CURRENT = (255, 120, 80)
PALETTE = [(90, 160, 255), (255, 110, 110), (110, 220, 140), (240, 200, 80),
           (200, 130, 255), (90, 220, 220)]
MAX_NAMES = 4
LEGEND_H = 60

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def owner_colour(seat: int) -> tuple[int, int, int]:
    return PALETTE[(seat - 1) % len(PALETTE)] if seat > 0 else (180, 180, 180)


def _font(size: int) -> Font:
    return ImageFont.load_default(size=size)


def _centre(col: int, row: int, size: float, margin: float) -> tuple[float, float]:
    """Flat-top hexes, even columns half a hex lower (E-D1)."""
    h = math.sqrt(3) * size
    x = margin + size + 1.5 * size * (col - 1)
    y = margin + h / 2 + h * (row - 1) + (h / 2 if col % 2 == 0 else 0)
    return x, y


def _corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    return [(x + size * math.cos(math.radians(a)), y + size * math.sin(math.radians(a)))
            for a in range(0, 360, 60)]


def render(view: dict[str, Any]) -> bytes:
    m = view["map"]
    cols, rows = int(m["columns"]), int(m["rows"])
    size = max(26.0, min(64.0, 1300 / (1.5 * cols + 0.5)))
    margin = 16.0
    width = int(2 * margin + size * (1.5 * cols + 0.5))
    height = int(2 * margin + math.sqrt(3) * size * (rows + 0.5)) + LEGEND_H
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    small, tiny, title = _font(max(9, int(size / 5.2))), _font(max(8, int(size / 5.5))), _font(14)
    systems = {s["hex"]: s for s in m.get("systems", [])}
    contested = set(view.get("contested") or [])
    current = view.get("current_hex")
    by_hex: dict[str, list[dict[str, Any]]] = {}
    for g in view.get("groups", []):
        by_hex.setdefault(g["hex"], []).append(g)
    for col in range(1, cols + 1):
        for row in range(1, rows + 1):
            name = f"{col:02d}{row:02d}"
            x, y = _centre(col, row, size, margin)
            outline = CURRENT if name == current else CONTESTED if name in contested else GRID
            draw.polygon(_corners(x, y, size), outline=outline,
                         width=3 if outline != GRID else 1)
            draw.text((x, y - size * 0.78), name, fill=LABEL, font=tiny, anchor="mt")
            if name in systems:
                r = size * 0.12
                draw.ellipse((x - r, y - size * 0.42 - r, x + r, y - size * 0.42 + r),
                             fill=SYSTEM)
                draw.text((x, y - size * 0.22), systems[name]["name"][:14], fill=SYSTEM,
                          font=tiny, anchor="mt")
            _names(draw, by_hex.get(name, []), x, y - size * 0.06, size, small)
    _legend(draw, view, height - LEGEND_H + 8, title)
    return png.encode(img)


def _names(draw: ImageDraw.ImageDraw, groups: list[dict[str, Any]], x: float, y: float,
           size: float, font: Font) -> None:
    line = size / 4.8
    shown = sorted(groups, key=lambda g: (g["owner"], g["name"]))
    for i, g in enumerate(shown[:MAX_NAMES]):
        colour = owner_colour(g["owner"])
        ty = y + i * line
        text = g["name"][:12]
        half = draw.textlength(text, font=font) / 2
        mx, my, r = x - half - line * 0.45, ty + line * 0.4, line * 0.28
        if g.get("static"):
            draw.rectangle((mx - r, my - r, mx + r, my + r), fill=colour)
        else:
            draw.polygon([(mx, my - r), (mx + r, my + r), (mx - r, my + r)], fill=colour)
        draw.text((x, ty), text, fill=colour, font=font, anchor="mt")
    if len(shown) > MAX_NAMES:
        draw.text((x, y + MAX_NAMES * line), f"+{len(shown) - MAX_NAMES} more", fill=INK,
                  font=font, anchor="mt")


def _legend(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int, font: Font) -> None:
    who = "public view" if view.get("viewer") is None else f"view of seat {view['viewer']}"
    draw.text((16, top), f"{view.get('name', 'FTCamp')} - round {view.get('round')} - {who}",
              fill=INK, font=font)
    x = 16
    for p in view.get("players", []):
        label = f"{p['seat']}: {p['name']}"
        draw.text((x, top + 22), label, fill=owner_colour(p["seat"]), font=font)
        x += int(draw.textlength(label, font=font)) + 24
    draw.text((x, top + 22), "red outline: contested", fill=CONTESTED, font=font)
