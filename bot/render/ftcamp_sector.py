"""FTCamp contested hex: orbits as rings, sectors as segments, the groups placed so far
(``render(view) -> PNG bytes``; draws ``view["sector"]`` of ``bot.rules.ftcamp`` views).

Orbit A is the innermost ring; sector 1 starts at the top and numbers run clockwise (E-1).
Each group is its owner's marker (shape, colour, initial) and its name, fitted inside its
segment; when the names do not fit whole, the segment shows the markers only and the list
beside the rings names every group with its sector, so nothing is cut. ``layout(view)``
returns the drawn canvas for tests."""

from __future__ import annotations

import math
from typing import Any

from bot.render import png, style
from bot.render.style import Canvas, fit, font, line_height, text_width

SIZE = 900      # the rings' square, title bar included
PANEL = 300     # the list to the right
CORE = 70
RIM = 20
MARKER_R = 8
HOME_FILL = (252, 240, 196)  # the system's own sector: a pale shade of the system colour


def _polar(cx: float, cy: float, r: float, deg: float) -> tuple[float, float]:
    rad = math.radians(deg - 90)
    return cx + r * math.cos(rad), cy + r * math.sin(rad)


def _in_wedge(p: tuple[float, float], cx: float, cy: float, inner: float, outer: float,
              start: float, end: float) -> bool:
    dx, dy = p[0] - cx, p[1] - cy
    r = math.hypot(dx, dy)
    deg = math.degrees(math.atan2(dx, -dy)) % 360
    if end >= 360 and deg < start:
        deg += 360
    return inner + 2 <= r <= outer - 2 and start + 0.5 <= deg <= end - 0.5


def _geometry(view: dict[str, Any]) -> tuple[float, float, float]:
    cy = style.TITLE_H + (SIZE - style.TITLE_H) / 2
    radius = (SIZE - style.TITLE_H) / 2 - RIM
    orbits = view["sector"]["orbits"]
    return SIZE / 2, cy, (radius - CORE) / len(orbits)


def _wedge_plan(groups: list[dict[str, Any]], name: str,
                box: tuple[float, ...]) -> tuple[str, int, list[tuple[str, int | None]]]:
    """How a segment shows its label and groups: ("names", size, lines) with every name
    whole inside the segment, else ("markers", size, [(label, None)]) for the markers row.
    A line's seat: None for the segment's label, 0 for a name's second line, minus the owner
    for a static group."""
    cx, cy, inner, outer, start, end = box
    mid_r, mid_a = (inner + outer) / 2, (start + end) / 2
    mx, my = _polar(cx, cy, mid_r, mid_a)
    chord = 2 * inner * math.sin(math.radians(min(90.0, (end - start) / 2)))
    for size in range(style.SMALL_SIZE, style.MIN_SIZE - 1, -1):
        lh = line_height(size)
        lines: list[tuple[str, int | None]] = [(name, None)]
        whole = True
        for g in groups:
            for width in (chord, outer - inner):
                parts, got = fit(g["group"], max(20.0, width - lh - 10), size, 2, size)
                whole = " ".join(parts) == " ".join(g["group"].split())  # no word broken
                if got == size and len(parts) <= 2 and whole:
                    break
            lines += [(p, (-g["owner"] if g.get("static") else g["owner"]) if i == 0 else 0)
                      for i, p in enumerate(parts)]
        if whole and _fits(lines, size, mx, my, box):
            return "names", size, lines
    return "markers", style.TINY_SIZE, [(name, None)]


def _line_boxes(lines: list[tuple[str, int | None]], size: int, mx: float,
                my: float) -> list[tuple[float, float, float, float]]:
    f, lh = font(size), line_height(size)
    top = my - len(lines) * lh / 2
    boxes = []
    for i, (text, seat) in enumerate(lines):
        icon = lh + 4 if seat is not None else 0  # continuation lines keep the indent
        w = text_width(text, f) + icon
        boxes.append((mx - w / 2, top + i * lh, mx + w / 2, top + (i + 1) * lh))
    return boxes


def _fits(lines: list[tuple[str, int | None]], size: int, mx: float, my: float,
          box: tuple[float, ...]) -> bool:
    cx, cy, inner, outer, start, end = box
    for x0, y0, x1, y1 in _line_boxes(lines, size, mx, my):
        for p in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            if not _in_wedge(p, cx, cy, inner, outer, start, end):
                return False
    return True


def _panel_lines(view: dict[str, Any], sector: dict[str, Any] | None,
                 marks: dict[int, str]) -> list[tuple[str, str, int, int]]:
    """(kind, text, size, seat) of the list beside the rings, already wrapped."""
    room = PANEL - 2 * style.MARGIN
    out: list[tuple[str, str, int, int]] = []

    def add(kind: str, text: str, size: int, seat: int = 0, indent: float = 0) -> None:
        parts, got = fit(text, room - indent, size, 3, smallest=11)
        for i, p in enumerate(parts):
            out.append((kind if i == 0 else "more", p, got, seat))

    if sector is None:
        return out
    add("head", "Orbits and sectors", style.HEADING_SIZE)
    if sector.get("system_sector"):
        add("system", f"System sector: {sector['system_sector']}", style.SMALL_SIZE)
    for p in view.get("players", []):
        add("owner", p["name"], style.BODY_SIZE, p["seat"], MARKER_R * 2 + 8)
    placed = sorted(sector.get("placements", []),
                    key=lambda g: (g["sector"][0], int(g["sector"].split("-")[1]), g["group"]))
    if placed:
        add("head", "Groups placed", style.HEADING_SIZE)
    for g in placed:
        kind = ", static" if g.get("static") else ""
        add("group", f"{g['sector']}: {g['group']}{kind}", style.SMALL_SIZE, g["owner"],
            MARKER_R * 2 + 8)
    return out


def layout(view: dict[str, Any], record: bool = True) -> Canvas:
    """The contested hex drawn on a Canvas (its ``labels`` are every text's box)."""
    sector = view.get("sector")
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    marks = style.initials(names)
    lines = _panel_lines(view, sector, marks)
    panel_h = style.TITLE_H + style.MARGIN + sum(line_height(s) + 2 + (8 if k == "head" else 0)
                                                 for k, _, s, _ in lines)
    canvas = Canvas(SIZE + PANEL, max(SIZE, int(panel_h) + style.MARGIN), record=record)
    if not sector:
        canvas.title_bar(f"{view.get('name') or 'FTCamp'} · round {view.get('round')}")
        canvas.text((SIZE // 2, SIZE // 2), "No contested hex yet", style.HEADING_SIZE,
                    anchor="mm")
        return canvas
    canvas.title_bar(f"Contested hex {sector.get('label', sector['hex'])}",
                     f"round {view.get('round')}")
    _draw_rings(canvas, view, sector, marks)
    _draw_panel(canvas, lines, marks)
    return canvas


def _draw_rings(canvas: Canvas, view: dict[str, Any], sector: dict[str, Any],
                marks: dict[int, str]) -> None:
    draw = canvas.draw
    orbits = [(str(o[0]), int(o[1])) for o in sector["orbits"]]
    cx, cy, width = _geometry(view)
    placed: dict[str, list[dict[str, Any]]] = {}
    for p in sector.get("placements", []):
        placed.setdefault(p["sector"], []).append(p)
    home = sector.get("system_sector")
    outer_r = CORE + len(orbits) * width
    draw.ellipse((cx - outer_r, cy - outer_r, cx + outer_r, cy + outer_r), fill=style.WHITE)
    for i, (letter, count) in enumerate(orbits):
        inner, outer = CORE + i * width, CORE + (i + 1) * width
        for k in range(count):
            name = f"{letter}-{k + 1}"
            fill = HOME_FILL if name == home else style.PANEL if name in placed else None
            if fill:
                _wedge(canvas, cx, cy, inner, outer, 360 * k / count, 360 * (k + 1) / count,
                       fill)
    draw.ellipse((cx - CORE, cy - CORE, cx + CORE, cy + CORE), fill=style.PANEL_ALT,
                 outline=style.GRID, width=2)
    label = sector.get("label", sector["hex"])
    parts, size = fit(label, 2 * CORE - 16, style.SMALL_SIZE, 3)
    lh = line_height(size)
    for j, part in enumerate(parts):
        canvas.text((cx, cy + (j - (len(parts) - 1) / 2) * lh), part, size, anchor="mm",
                    kind="core")
    for i, (letter, count) in enumerate(orbits):
        inner, outer = CORE + i * width, CORE + (i + 1) * width
        draw.ellipse((cx - outer, cy - outer, cx + outer, cy + outer), outline=style.GRID,
                     width=2)
        for k in range(count):
            start, end = 360 * k / count, 360 * (k + 1) / count
            draw.line([_polar(cx, cy, inner, start), _polar(cx, cy, outer, start)],
                      fill=style.GRID, width=1)
            name = f"{letter}-{k + 1}"
            groups = sorted(placed.get(name, []), key=lambda g: (g["owner"], g["group"]))
            _draw_wedge_text(canvas, name, groups, (cx, cy, inner, outer, start, end), marks,
                             name == home)


def _draw_wedge_text(canvas: Canvas, name: str, groups: list[dict[str, Any]],
                     box: tuple[float, ...], marks: dict[int, str], home: bool) -> None:
    cx, cy, inner, outer, start, end = box
    mx, my = _polar(cx, cy, (inner + outer) / 2, (start + end) / 2)
    how, size, lines = _wedge_plan(groups, name, box) if groups else \
        ("names", style.TINY_SIZE, [(name, None)])
    colour = style.SYSTEM_EDGE if home else style.MUTED
    if how == "markers":  # label, then a row of markers (the list names them)
        lh = line_height(size)
        canvas.text((mx, my - lh), name, size, colour, "mm", "sector")
        per = max(1, int((outer - inner) * 0.8 // (2 * MARKER_R + 8)))
        for j, g in enumerate(groups):
            row, colm = divmod(j, per)
            n = min(per, len(groups) - row * per)
            x = mx + (colm - (n - 1) / 2) * (2 * MARKER_R + 8)
            canvas.marker(x, my + 4 + row * (2 * MARKER_R + 8), MARKER_R, g["owner"],
                          marks.get(g["owner"], "?"))
        return
    f, lh = font(size), line_height(size)
    for (text, seat), (x0, y0, _, y1) in zip(lines, _line_boxes(lines, size, mx, my),
                                             strict=True):
        ty = (y0 + y1) / 2
        if seat is None:
            canvas.text((x0, ty), text, fill=colour, anchor="lm", kind="sector", f=f)
            continue
        if seat:  # a negative seat: a static group, its marker boxed as on the hex map
            r = lh * (0.38 if seat < 0 else 0.45)
            if seat < 0:
                canvas.draw.rectangle((x0 + lh / 2 - r - 2, ty - r - 2, x0 + lh / 2 + r + 2,
                                       ty + r + 2), outline=style.INK, width=1)
            canvas.marker(x0 + lh / 2, ty, r, abs(seat), marks.get(abs(seat), "?"))
        canvas.text((x0 + lh + 4, ty), text, fill=style.INK, anchor="lm", kind="name", f=f)


def _wedge(canvas: Canvas, cx: float, cy: float, inner: float, outer: float,
           start: float, end: float, fill: tuple[int, int, int]) -> None:
    steps = [start + (end - start) * t / 12 for t in range(13)]
    points = [_polar(cx, cy, outer, a) for a in steps]
    points += [_polar(cx, cy, inner, a) for a in reversed(steps)]
    canvas.draw.polygon(points, fill=fill)


def _draw_panel(canvas: Canvas, lines: list[tuple[str, str, int, int]],
                marks: dict[int, str]) -> None:
    x, y = SIZE + style.MARGIN, style.TITLE_H + style.MARGIN
    canvas.draw.line((SIZE, style.TITLE_H, SIZE, canvas.height), fill=style.FAINT, width=2)
    for kind, text, size, seat in lines:
        lh = line_height(size)
        if kind == "head" and y > style.TITLE_H + style.MARGIN:
            y += 8
        indent = MARKER_R * 2 + 8 if seat else 0
        if kind in ("owner", "group"):
            canvas.marker(x + MARKER_R, y + lh / 2, MARKER_R * 0.9, seat,
                          marks.get(seat, "?"))
        colour = style.SYSTEM_EDGE if kind == "system" else style.INK
        canvas.text((x + indent, y + lh / 2), text, size, colour, "lm", kind)
        y += lh + 2


def render(view: dict[str, Any]) -> bytes:
    return png.encode(layout(view, record=False).image)
