"""FTCamp hex map: systems, contested hexes and the groups a viewer may see
(``render(view) -> PNG bytes``; ``view`` is ``bot.rules.ftcamp`` ``view(state, viewer)``).

Each group is its owner's marker (shape, colour and initial, bot.render.style) and its name in
full: names shrink, then wrap, and the hexes grow before anything is cut; a hex too crowded
even so shows "+n more" and its other groups are listed under the map. Contested hexes still
to resolve are hatched grey, a hex whose battle list has a battle has a heavy outline, the hex
whose engage orders are being decided the thickest: none uses an owner colour. The legend
names every fill and outline (E-D45).
``layout(view)`` returns the drawn canvas, so tests read label boxes instead of pixels."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bot.render import png, style
from bot.render.style import Canvas, fit, font, line_height, text_width

MAX_WIDTH = 1400
BASE_SIZES = (26.0, 64.0)  # hex radius range for the map's own size
GROW_TO = 100.0           # hexes may grow this far so their names fit
PAD = 5                   # room kept between a label and the hex edge
READABLE = 12             # hexes grow before names get smaller than this
PLAIN = -1                # an entry with no marker ("+2 more below")


@dataclass
class Line:
    """One text line in a hex: ``seat`` > 0 for a group's first line (its marker goes
    before it), 0 for a system's first line (a star goes before it), None otherwise."""

    text: str
    size: int
    seat: int | None = None
    static: bool = False


@dataclass
class HexPlan:
    lines: list[Line] = field(default_factory=list)
    overflow: list[dict[str, Any]] = field(default_factory=list)


def _centre(col: int, row: int, size: float, top: float) -> tuple[float, float]:
    """Flat-top hexes, even columns half a hex lower (E-D1)."""
    h = math.sqrt(3) * size
    x = style.MARGIN + size + 1.5 * size * (col - 1)
    y = top + h / 2 + h * (row - 1) + (h / 2 if col % 2 == 0 else 0)
    return x, y


def _corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    return [(x + size * math.cos(math.radians(a)), y + size * math.sin(math.radians(a)))
            for a in range(0, 360, 60)]


def _room(size: float, dy_top: float, dy_bottom: float) -> float:
    """Width inside a flat-top hex for a line spanning dy_top..dy_bottom from the centre."""
    worst = max(abs(dy_top), abs(dy_bottom))
    return 2 * size - 2 * worst / math.sqrt(3) - 2 * PAD


def _content(size: float) -> tuple[float, float]:
    """Top and bottom of the text area of a hex, relative to its centre (below the hex id)."""
    hh = math.sqrt(3) / 2 * size
    return -hh + line_height(_id_size(size)) + 4, hh - 4


def _id_size(size: float) -> int:
    return max(style.MIN_SIZE, min(style.SMALL_SIZE, int(size / 5.5)))


def _name_size(size: float) -> int:
    return max(style.TINY_SIZE, min(style.BODY_SIZE, int(size / 4.6)))


def _plan_hex(entries: list[tuple[str, int | None, bool]], size: float,
              smallest: int) -> HexPlan | None:
    """Lines for a hex's entries (text; seat, None for the system or PLAIN; static), or None when
    they do not all fit whole; the caller then grows the hexes or moves groups out."""
    top, bottom = _content(size)
    for fs in range(_name_size(size), smallest - 1, -1):
        lh = line_height(fs)
        lines: list[Line] = []
        ok, settled = True, False
        guess = len(entries)
        for _ in range(3):  # line widths depend on where lines land: settle the count
            lines, ok = [], True
            y0 = (top + bottom) / 2 - guess * lh / 2
            for text, seat, static in entries:
                icon = lh + 6
                y = y0 + len(lines) * lh
                width = min(_room(size, y, y + lh), _room(size, y + lh, y + 2 * lh)) - icon
                if width < 8:
                    ok = False
                    break
                wrapped, got = fit(text, width, fs, max_lines=2, smallest=fs)
                whole_words = " ".join(wrapped) == " ".join(text.split())
                if got != fs or len(wrapped) > 2 or not whole_words:
                    # smaller, or a word broken: try smaller letters or a larger hex
                    ok = False
                    break
                first = None if seat == PLAIN else 0 if seat is None else seat
                for i, part in enumerate(wrapped):
                    lines.append(Line(part, fs, first if i == 0 else None, static))
            settled = len(lines) == guess
            if not ok or settled:
                break
            guess = len(lines)
        if ok and settled and len(lines) * lh <= bottom - top:
            return HexPlan(lines)
    return None


def _plan(view: dict[str, Any], size: float,
          smallest: int = style.MIN_SIZE) -> tuple[dict[str, HexPlan], bool]:
    """Every occupied hex's lines at hex radius ``size``; False when some hex had to move
    groups to the list under the map."""
    systems = {s["hex"]: s for s in view["map"].get("systems", [])}
    by_hex: dict[str, list[dict[str, Any]]] = {}
    for g in view.get("groups", []):
        by_hex.setdefault(g["hex"], []).append(g)
    plans: dict[str, HexPlan] = {}
    whole = True
    for name in sorted(set(systems) | set(by_hex)):
        groups = sorted(by_hex.get(name, []), key=lambda g: (g["owner"], g["name"]))
        head = [(systems[name]["name"], None, False)] if name in systems else []
        entries = head + [(g["name"], g["owner"], bool(g.get("static"))) for g in groups]
        plan = _plan_hex(entries, size, smallest)
        keep = len(groups)
        while plan is None and keep > 0:  # too crowded: the rest go under the map
            keep -= 1
            more = [(f"+{len(groups) - keep} more below", PLAIN, False)]
            plan = _plan_hex(head + entries[len(head):len(head) + keep] + more, size,
                             smallest)
        if plan is None:  # not even the system's name fits: all of it goes under the map
            plan, keep = HexPlan(), 0
            if head:
                plan.overflow.append({"name": head[0][0], "system": True})
        plan.overflow += groups[keep:]
        whole = whole and not plan.overflow
        plans[name] = plan
    return plans, whole


def _map_size(cols: int, rows: int, size: float) -> tuple[int, int]:
    return (int(2 * style.MARGIN + size * (1.5 * cols + 0.5)),
            int(math.sqrt(3) * size * (rows + 0.5)) + style.MARGIN)


def _choose(view: dict[str, Any]) -> tuple[float, dict[str, HexPlan]]:
    """The smallest hex radius (from the map's own) at which every name fits whole at a
    readable size, if the picture stays at most MAX_WIDTH wide; else the largest allowed."""
    cols = int(view["map"]["columns"])
    lo, hi = BASE_SIZES
    size = max(lo, min(hi, 1300 / (1.5 * cols + 0.5)))
    limit = min(GROW_TO, (MAX_WIDTH - 2 * style.MARGIN) / (1.5 * cols + 0.5))
    plans, whole = _plan(view, size, READABLE)
    while not whole and size + 6 <= limit:
        size += 6
        plans, whole = _plan(view, size, READABLE)
    if not whole:  # as large as allowed: a little smaller before moving names out
        plans, whole = _plan(view, size, style.TINY_SIZE)
    return size, plans


def _legend_items(view: dict[str, Any]) -> list[tuple[str, str, int]]:
    """(kind, text, seat) in legend order: owners, then a key to every fill and outline the
    map uses (E-D45)."""
    items = [("owner", p["name"], p["seat"]) for p in view.get("players", [])]
    items += [("occupied", "groups or a star system here", 0),
              ("empty", "nothing seen here", 0),
              ("contested", "contested: engage orders to come", 0),
              ("battle", "a battle to fight", 0),
              ("current", "engage orders being decided now", 0),
              ("static", "static group (boxed marker)", 0),
              ("system", "star system", 0)]
    return items


def _hex_marks(view: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(contested hexes still to resolve, hexes whose battle list of this round has a
    battle): a hex is marked for a battle only where one comes (E-D45)."""
    this_round = [r for r in view.get("battles") or [] if r.get("round") == view.get("round")]
    resolved = {r["hex"] for r in this_round}
    fights = {r["hex"] for r in this_round if r.get("battles")}
    return set(view.get("contested") or []) - resolved, fights


def _flow(widths: list[float], room: float, gap: float) -> list[list[int]]:
    rows: list[list[int]] = [[]]
    x = 0.0
    for i, w in enumerate(widths):
        if rows[-1] and x + w > room:
            rows.append([])
            x = 0.0
        rows[-1].append(i)
        x += w + gap
    return rows


def layout(view: dict[str, Any], record: bool = True) -> Canvas:
    """The hex map drawn on a Canvas (its ``labels`` are every text's box)."""
    m = view["map"]
    cols, rows = int(m["columns"]), int(m["rows"])
    size, plans = _choose(view)
    map_w, map_h = _map_size(cols, rows, size)
    width = max(map_w, 640)
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    marks = style.initials(names)
    body = font(style.BODY_SIZE)
    lh = line_height(style.BODY_SIZE)
    items = _legend_items(view)
    room = width - 2 * style.MARGIN
    item_w = [lh + 6 + text_width(t, body) for _, t, _ in items]
    legend_rows = _flow(item_w, room, 24)
    extra = [(hx, g) for hx, plan in sorted(plans.items()) for g in plan.overflow]
    extra_lines = _overflow_lines(extra, room, marks)
    height = (style.TITLE_H + style.MARGIN + map_h + 8 + len(legend_rows) * (lh + 6)
              + len(extra_lines) * lh + style.MARGIN)
    canvas = Canvas(width, height, record=record)
    viewer = view.get("viewer")
    who = "Public map" if viewer is None else f"{names.get(viewer, f'seat {viewer}')}'s map"
    canvas.title_bar(f"{view.get('name') or 'FTCamp'} · round {view.get('round')}", who)
    top = style.TITLE_H + style.MARGIN
    contested, fights = _hex_marks(view)
    current = view.get("current_hex")
    id_font = font(_id_size(size))
    for col in range(1, cols + 1):
        for row in range(1, rows + 1):
            name = f"{col:02d}{row:02d}"
            x, y = _centre(col, row, size, top)
            corners = _corners(x, y, size)
            canvas.draw.polygon(corners, fill=style.WHITE if name in plans else style.PANEL)
            if name in contested:
                canvas.hatch(corners)
            wide = 4 if name == current else 3 if name in fights else 2 if name in contested \
                else 1
            canvas.draw.polygon(corners, outline=style.INK if wide > 1 else style.GRID,
                                width=wide)
            at = (x, y - math.sqrt(3) / 2 * size + 3)
            if name in contested:
                back = canvas.draw.textbbox(at, name, font=id_font, anchor="mt")
                canvas.draw.rectangle(back, fill=style.WHITE)
            canvas.text(at, name, fill=style.MUTED, anchor="mt", kind="hex", f=id_font)
            if name in plans:
                _draw_hex(canvas, plans[name], x, y, size, marks)
    y = top + map_h + 8
    _draw_legend(canvas, items, legend_rows, marks, y, lh)
    y += len(legend_rows) * (lh + 6)
    for line in extra_lines:
        canvas.text((style.MARGIN, y), line, style.BODY_SIZE, kind="overflow")
        y += lh
    return canvas


def _overflow_lines(extra: list[tuple[str, dict[str, Any]]], room: float,
                    marks: dict[int, str]) -> list[str]:
    if not extra:
        return []
    parts = [f"{hx}: star system {g['name']}" if g.get("system") else
             f"{hx}: {g['name']} ({marks.get(g['owner'], g['owner'])}"
             f"{', static' if g.get('static') else ''})" for hx, g in extra]
    return style.wrap("More groups: " + "; ".join(parts), room, font(style.BODY_SIZE))


def _star(canvas: Canvas, cx: float, cy: float, r: float) -> None:
    pts = [(cx + (r if k % 2 == 0 else r * 0.45) * math.cos(math.radians(-90 + 36 * k)),
            cy + (r if k % 2 == 0 else r * 0.45) * math.sin(math.radians(-90 + 36 * k)))
           for k in range(10)]
    canvas.draw.polygon(pts, fill=style.SYSTEM, outline=style.SYSTEM_EDGE)


def _draw_hex(canvas: Canvas, plan: HexPlan, x: float, y: float, size: float,
              marks: dict[int, str]) -> None:
    if not plan.lines:
        return
    top, bottom = _content(size)
    lh = line_height(plan.lines[0].size)
    y0 = y + (top + bottom) / 2 - len(plan.lines) * lh / 2
    for i, line in enumerate(plan.lines):
        f = font(line.size)
        ty = y0 + i * lh
        icon = lh + 6
        w = text_width(line.text, f) + icon
        tx = x - w / 2 + icon
        cy = ty + lh / 2
        if line.seat == 0:
            _star(canvas, tx - icon / 2, cy, lh * 0.45)
        elif line.seat:
            r = lh * 0.48
            mx = tx - icon / 2
            if line.static:
                canvas.draw.rectangle((mx - r - 2, cy - r - 2, mx + r + 2, cy + r + 2),
                                      outline=style.INK, width=1)
            canvas.marker(mx, cy, r * 0.85 if line.static else r, line.seat,
                          marks.get(line.seat, "?"))
        back = canvas.draw.textbbox((tx, cy), line.text, font=f, anchor="lm")
        canvas.draw.rectangle((back[0] - 1, back[1] - 1, back[2] + 1, back[3] + 1),
                              fill=style.WHITE)  # readable over the contested hatching
        canvas.text((tx, cy), line.text, fill=style.INK, anchor="lm", kind="name", f=f)


def _draw_legend(canvas: Canvas, items: list[tuple[str, str, int]], rows: list[list[int]],
                 marks: dict[int, str], top: float, lh: int) -> None:
    body = font(style.BODY_SIZE)
    for r, row in enumerate(rows):
        x = float(style.MARGIN)
        cy = top + r * (lh + 6) + lh / 2
        for i in row:
            kind, text, seat = items[i]
            s = lh / 2
            if kind == "owner":
                canvas.marker(x + s, cy, s * 0.85, seat, marks.get(seat, "?"))
            elif kind == "contested":
                box = [(x, cy - s), (x + 2 * s, cy - s), (x + 2 * s, cy + s), (x, cy + s)]
                canvas.draw.polygon(box, fill=style.WHITE)
                canvas.hatch(box)
                canvas.draw.polygon(box, outline=style.INK, width=2)
            elif kind in ("occupied", "empty"):
                canvas.draw.rectangle((x, cy - s, x + 2 * s, cy + s),
                                      fill=style.WHITE if kind == "occupied" else style.PANEL,
                                      outline=style.GRID)
            elif kind == "battle":
                canvas.draw.rectangle((x, cy - s, x + 2 * s, cy + s), fill=style.WHITE,
                                      outline=style.INK, width=3)
            elif kind == "current":
                canvas.draw.rectangle((x, cy - s, x + 2 * s, cy + s), fill=style.WHITE,
                                      outline=style.INK, width=4)
            elif kind == "static":
                canvas.draw.rectangle((x, cy - s, x + 2 * s, cy + s), outline=style.INK)
            else:
                _star(canvas, x + s, cy, s * 0.9)
            canvas.text((x + 2 * s + 6, cy), text, fill=style.INK, anchor="lm",
                        kind="legend", f=body)
            x += 2 * s + 6 + text_width(text, body) + 24


def render(view: dict[str, Any]) -> bytes:
    return png.encode(layout(view, record=False).image)
