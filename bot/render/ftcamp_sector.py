"""FTCamp contested hex: orbits as rings, sectors as segments, the groups placed so far
(``render(view) -> PNG bytes``; draws ``view["sector"]`` of ``bot.rules.ftcamp`` views).

Orbit A is the innermost ring; sector 1 starts at the top and numbers run clockwise (E-1)."""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from bot.render import png
from bot.render.ftcamp_hexmap import Font, _font, owner_colour

SIZE = 900
PANEL = 300
BG = (14, 18, 30)
RING = (70, 80, 110)
LABEL = (130, 140, 165)
INK = (235, 235, 240)
SYSTEM = (250, 210, 90)
SYSTEM_FILL = (60, 52, 22)
BUSY_FILL = (28, 34, 52)
CORE = 70
MAX_NAMES = 3


def _polar(cx: float, cy: float, r: float, deg: float) -> tuple[float, float]:
    rad = math.radians(deg - 90)
    return cx + r * math.cos(rad), cy + r * math.sin(rad)


def render(view: dict[str, Any]) -> bytes:
    img = Image.new("RGB", (SIZE + PANEL, SIZE), BG)
    draw = ImageDraw.Draw(img)
    sector = view.get("sector")
    big, small, tiny = _font(18), _font(12), _font(10)
    if not sector:
        draw.text((SIZE // 2, SIZE // 2), "No contested hex yet", fill=INK, font=big,
                  anchor="mm")
        return _png(img)
    orbits = [(str(o[0]), int(o[1])) for o in sector["orbits"]]
    cx = cy = SIZE / 2
    width = (SIZE / 2 - 20 - CORE) / len(orbits)
    placed: dict[str, list[dict[str, Any]]] = {}
    for p in sector.get("placements", []):
        placed.setdefault(p["sector"], []).append(p)
    home = sector.get("system_sector")
    draw.ellipse((cx - CORE, cy - CORE, cx + CORE, cy + CORE), outline=RING, width=2)
    draw.text((cx, cy), sector.get("label", sector["hex"]), fill=SYSTEM if home else INK,
              font=small, anchor="mm")
    for i, (letter, count) in enumerate(orbits):
        inner, outer = CORE + i * width, CORE + (i + 1) * width
        for k in range(count):
            name = f"{letter}-{k + 1}"
            fill = SYSTEM_FILL if name == home else BUSY_FILL if name in placed else None
            if fill:
                _wedge(draw, cx, cy, inner, outer, 360 * k / count, 360 * (k + 1) / count, fill)
    for i, (letter, count) in enumerate(orbits):
        inner, outer = CORE + i * width, CORE + (i + 1) * width
        box = (cx - outer, cy - outer, cx + outer, cy + outer)
        draw.ellipse(box, outline=RING, width=2)
        for k in range(count):
            start = 360 * k / count
            draw.line([_polar(cx, cy, inner, start), _polar(cx, cy, outer, start)],
                      fill=RING, width=1)
            name = f"{letter}-{k + 1}"
            mid = start + 180 / count
            lx, ly = _polar(cx, cy, inner + width * 0.2, mid)
            draw.text((lx, ly), name, fill=SYSTEM if name == home else LABEL, font=tiny,
                      anchor="mm")
            _groups(draw, placed.get(name, []), _polar(cx, cy, inner + width * 0.6, mid),
                    tiny)
    _panel(draw, view, sector, placed, big, small)
    return _png(img)


def _wedge(draw: ImageDraw.ImageDraw, cx: float, cy: float, inner: float, outer: float,
           start: float, end: float, fill: tuple[int, int, int]) -> None:
    steps = [start + (end - start) * t / 12 for t in range(13)]
    points = [_polar(cx, cy, outer, a) for a in steps]
    points += [_polar(cx, cy, inner, a) for a in reversed(steps)]
    draw.polygon(points, fill=fill)


def _groups(draw: ImageDraw.ImageDraw, groups: list[dict[str, Any]], at: tuple[float, float],
            font: Font) -> None:
    x, y = at
    shown = sorted(groups, key=lambda g: (g["owner"], g["group"]))
    lines = [(g["group"][:14], owner_colour(g["owner"])) for g in shown[:MAX_NAMES]]
    if len(shown) > MAX_NAMES:
        lines.append((f"+{len(shown) - MAX_NAMES}", INK))
    top = y - 6 * (len(lines) - 1)
    for i, (text, colour) in enumerate(lines):
        draw.text((x, top + 12 * i), text, fill=colour, font=font, anchor="mm")


def _panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], sector: dict[str, Any],
           placed: dict[str, list[dict[str, Any]]], big: Font, small: Font) -> None:
    x, y = SIZE + 10, 20
    draw.text((x, y), f"Hex {sector.get('label', sector['hex'])}", fill=INK, font=big)
    y += 30
    if sector.get("system_sector"):
        draw.text((x, y), f"system sector: {sector['system_sector']}", fill=SYSTEM, font=small)
        y += 20
    for p in view.get("players", []):
        draw.text((x, y), f"{p['seat']}: {p['name']}", fill=owner_colour(p["seat"]),
                  font=small)
        y += 18
    y += 10
    for name in sorted(placed, key=lambda s: (s[0], int(s.split("-")[1]))):
        for g in sorted(placed[name], key=lambda g: g["group"]):
            if y > SIZE - 24:
                draw.text((x, y), "...", fill=INK, font=small)
                return
            kind = " (static)" if g.get("static") else ""
            draw.text((x, y), f"{name}: {g['group'][:24]}{kind}",
                      fill=owner_colour(g["owner"]), font=small)
            y += 17


def _png(img: Image.Image) -> bytes:
    return png.encode(img)
