"""The Orbits map: a PNG of ``view(state, viewer)`` (bot.rules.orbits.views).

Layout: the sun at the top, then one curved band per ring of the system: the inner ellipse
with every home area side by side, then the outer orbits from the innermost. In each band
every player present gets a column: face-up cards, face-down cards as one card back with a
count (known cards named beneath, O-17; a player's own map also shows their hidden cards),
and the stance. Groups in transit lie sideways in their destination band with their tokens.

Readable without colour: each player has a shape and an initial as well as a colour
(Okabe-Ito palette, bot.render.style), suits are drawn as shapes, stances are written out.
Every label is fitted to its column (a stance too wide for a 6-player column goes onto lines
of its own); ``layout(view)`` returns the drawn canvas with every label's box, for tests."""

from __future__ import annotations

import math
from typing import Any

from bot.render import png, style
from bot.render.style import Canvas, fit, font

WIDTH = 960
PAD = style.MARGIN
SAG = 18  # how far the band edges curve up at the sides
CARD_W, CARD_H = 30, 42
PLAYER_COLOURS = style.OWNER_COLOURS
SUIT_RED = "#C0392B"
INK = style.INK
MUTED = style.MUTED
BAND_FILL = [style.PANEL_ALT, style.PANEL]
BACK_FILL = "#3B4A6B"
STANCE_LH = 14  # one line of a stance label


def _font(size: int) -> style.Font:
    return font(size)


class _Pen:
    """Drawing helpers sharing one Canvas (which records every text's box) and a few fonts."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.d = canvas.draw
        self.small, self.body, self.bold, self.title = _font(12), _font(14), _font(16), _font(20)
        self.initials: dict[int, str] = {}
        self.unit, self.ppv = "system boxes", 1

    def text(self, xy: tuple[float, float], text: str, font: Any = None, fill: Any = INK,
             anchor: str = "la", kind: str = "label") -> None:
        self.canvas.text(xy, text, fill=fill, anchor=anchor, kind=kind, f=font or self.body)

    def fitted(self, xy: tuple[float, float], text: str, width: float, size: int,
               fill: Any = INK, kind: str = "label") -> None:
        """``text`` on one line, smaller if it must be, within ``width``: never cut."""
        got = style.fit_size(text, width, size)
        self.text(xy, text, _font(got), fill, kind=kind)

    def width(self, text: str, font: Any = None) -> float:
        return self.d.textlength(text, font=font or self.body)

    def marker(self, cx: float, cy: float, r: float, seat: int, initial: str) -> None:
        """The player's shape in their colour with their initial: never colour alone."""
        self.canvas.marker(cx, cy, r, seat, initial)

    def suit(self, cx: float, cy: float, s: float, suit: str) -> None:
        """Suit symbols drawn as shapes (the default font has no ♠♥♦♣)."""
        red = suit in "HD"
        fill = SUIT_RED if red else INK
        d = self.d
        if suit == "D":
            d.polygon([(cx, cy - s), (cx + s * 0.7, cy), (cx, cy + s), (cx - s * 0.7, cy)],
                      fill=fill)
        elif suit == "H":
            r = s * 0.5
            d.ellipse((cx - 2 * r, cy - s * 0.7, cx, cy - s * 0.7 + 2 * r), fill=fill)
            d.ellipse((cx, cy - s * 0.7, cx + 2 * r, cy - s * 0.7 + 2 * r), fill=fill)
            d.polygon([(cx - 2 * r + 0.5, cy - s * 0.2), (cx + 2 * r - 0.5, cy - s * 0.2),
                       (cx, cy + s)], fill=fill)
        elif suit == "S":
            r = s * 0.5
            d.polygon([(cx, cy - s), (cx + 2 * r - 0.5, cy + s * 0.1),
                       (cx - 2 * r + 0.5, cy + s * 0.1)], fill=fill)
            d.ellipse((cx - 2 * r, cy - s * 0.2, cx, cy - s * 0.2 + 2 * r), fill=fill)
            d.ellipse((cx, cy - s * 0.2, cx + 2 * r, cy - s * 0.2 + 2 * r), fill=fill)
            d.polygon([(cx, cy + s * 0.2), (cx + s * 0.35, cy + s), (cx - s * 0.35, cy + s)],
                      fill=fill)
        else:  # clubs
            r = s * 0.42
            for ox, oy in ((0, -s * 0.5), (-s * 0.5, s * 0.05), (s * 0.5, s * 0.05)):
                d.ellipse((cx + ox - r, cy + oy - r, cx + ox + r, cy + oy + r), fill=fill)
            d.polygon([(cx, cy), (cx + s * 0.35, cy + s), (cx - s * 0.35, cy + s)], fill=fill)

    def card(self, x: float, y: float, code: str, hidden: bool = False,
             known: bool = False) -> None:
        """A face-up card; ``hidden`` marks the owner's own face-down card (hatched), ``known``
        a face-down card everyone has seen (O-17, pale yellow with a dashed look)."""
        fill = "#D3DBE6" if hidden else "#FFF3C4" if known else "white"
        self.d.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=4, fill=fill,
                                 outline=INK, width=1)
        if hidden:  # diagonal hatching: "only you see this card"
            for k in range(6, CARD_W + CARD_H, 7):
                x1, y1 = min(k, CARD_W), max(0, k - CARD_W)
                x2, y2 = max(0, k - CARD_H), min(k, CARD_H)
                self.d.line((x + x1, y + y1, x + x2, y + y2), fill="#97A6B8")
            self.d.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=4, outline=INK)
        if code.startswith("JK"):
            self.text((x + CARD_W / 2, y + CARD_H / 2), "JK", font=self.bold, anchor="mm",
                  kind="card")
            self.text((x + CARD_W / 2, y + CARD_H - 7), "joker", font=_font(8), anchor="mm",
                      kind="card")
            return
        rank, suit = code[:-1], code[-1]
        colour = SUIT_RED if suit in "HD" else INK
        self.text((x + CARD_W / 2, y + 12), rank, font=self.bold, fill=colour, anchor="mm",
                  kind="card")
        self.suit(x + CARD_W / 2, y + 29, 7, suit)

    def back(self, x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> None:
        """A card back: dark with a cross-hatch, so it reads as 'hidden' in greyscale too."""
        self.d.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=BACK_FILL, outline=INK)
        for k in range(4, int(w + h), 7):
            self.d.line((x + min(k, w), y + max(0, k - w), x + max(0, k - h), y + min(k, h)),
                        fill="#6D7FA6")


_initials = style.initials


def _show(code: str) -> str:
    """Text form without suit glyphs (the default font lacks them): 7H -> 7h."""
    return "Joker" if code.startswith("JK") else code[:-1] + code[-1].lower()


def _stance_lines(stack: dict[str, Any], width: float, unit: str,
                  ppv: int) -> list[tuple[str, int]]:
    """The stance label as (text, size) lines within ``width``: on one line when it fits, else
    the stance word, then the force, then the size class on lines of their own (a 6-player
    column is too narrow for "ATTACK · 54 system boxes · SC 2"); smaller before wrapping."""
    total = stack["fleet_total"]
    amount = f"{total} {unit}" if ppv == 1 else f"{total * ppv} points"
    word, sc = stack["stance"].upper(), f"SC {stack['size_class']}"
    small = font(style.SMALL_SIZE)
    for parts in ([f"{word} · {amount} · {sc}"], [word, f"{amount} · {sc}"]):
        if all(style.text_width(p, small) <= width for p in parts):
            return [(p, style.SMALL_SIZE) for p in parts]
    out: list[tuple[str, int]] = []
    for p in (word, amount, sc):
        lines, size = fit(p, width, style.SMALL_SIZE, max_lines=2)
        out += [(line, size) for line in lines]
    return out


def _stance_height(lines: list[tuple[str, int]]) -> float:
    """The first line, its pattern beneath, then the other lines."""
    return 20 + STANCE_LH * (len(lines) - 1)


def _stack_height(stack: dict[str, Any], col_w: float, unit: str = "system boxes",
                  ppv: int = 1) -> float:
    per_row = max(1, int((col_w - 10) // (CARD_W + 4)))
    up = len(stack["face_up"])
    mine = len(stack["face_down"].get("mine", []))
    rows = math.ceil(up / per_row) + math.ceil(mine / per_row)
    h = 30 + rows * (CARD_H + 4)
    if stack["stance"]:
        h += _stance_height(_stance_lines(stack, col_w - 8, unit, ppv))
    if stack["face_down"]["count"]:
        h += CARD_H + 6
        known = stack["face_down"]["known"]
        if known and not mine:
            h += math.ceil(len(known) / per_row) * (CARD_H + 4)
    return h + 6


def _draw_stack(pen: _Pen, x: float, y: float, col_w: float, stack: dict[str, Any],
                names: dict[int, str]) -> None:
    seat = stack["seat"]
    pen.marker(x + 12, y + 12, 11, seat, pen.initials[seat])
    pen.fitted((x + 30, y + 4), names[seat], col_w - 30, style.HEADING_SIZE, kind="name")
    top = y + 30
    if stack["stance"]:  # the word, plus a line pattern: zigzag = attack, double = blockade
        lines = _stance_lines(stack, col_w - 8, pen.unit, pen.ppv)
        for i, (text, size) in enumerate(lines):
            pen.text((x + 4, y + 28 + (i and 6 + i * STANCE_LH)), text, font=_font(size),
                     kind="stance")
        w = pen.width(stack["stance"].upper(), _font(lines[0][1]))
        if stack["stance"] == "attack":
            pts = [(x + 4 + i * 4, y + 43 + (3 if i % 2 else 0)) for i in range(int(w // 4) + 1)]
            pen.d.line(pts, fill=SUIT_RED, width=2)
        else:
            for dy in (42, 45):
                pen.d.line((x + 4, y + dy, x + 4 + w, y + dy), fill=INK, width=1)
        top += _stance_height(lines)
    per_row = max(1, int((col_w - 10) // (CARD_W + 4)))
    cy = top
    for cards, hidden in ((stack["face_up"], False), (stack["face_down"].get("mine", []), True)):
        for i, code in enumerate(cards):
            if i and i % per_row == 0:
                cy += CARD_H + 4
            pen.card(x + 4 + (i % per_row) * (CARD_W + 4), cy, code, hidden=hidden)
        if cards:
            cy += CARD_H + 4
    count = stack["face_down"]["count"]
    if count:
        pen.back(x + 4, cy)
        own = bool(stack["face_down"].get("mine"))
        wide = col_w >= 220
        room = col_w - CARD_W - 10
        pen.fitted((x + CARD_W + 10, cy + 2), f"x {count} face down" if wide else f"x {count}",
                   room, style.HEADING_SIZE, kind="count")
        known = [] if own else stack["face_down"]["known"]
        note = "yours: hatched above" if own else "known among them:" if known else \
            "" if wide else "face down"
        if note:
            pen.fitted((x + CARD_W + 10, cy + 22), note, room, style.SMALL_SIZE, MUTED, "note")
        if known:  # O-17: seen face up by everyone, now face down
            for i, code in enumerate(known):
                if i % per_row == 0:
                    cy += CARD_H + 4
                pen.card(x + 4 + (i % per_row) * (CARD_W + 4), cy, code, known=True)


def _transit_lines(group: dict[str, Any], labels: dict[str, str],
                   width: float) -> list[tuple[str, int]]:
    """The words beside a group in transit, fitted to ``width`` (shrunk, then wrapped)."""
    cards = group["cards"]
    lines = [f"{cards['count']} card{'s' if cards['count'] != 1 else ''} from "
             f"{labels[group['origin']]}",
             f"{group['tokens']} token{'s' if group['tokens'] != 1 else ''} left"]
    shown = cards.get("mine") or cards["known"]
    if shown:
        lines.append(("yours: " if cards.get("mine") else "known: ")
                     + ", ".join(_show(c) for c in shown))
    out: list[tuple[str, int]] = []
    for line in lines:
        parts, size = fit(line, width, style.SMALL_SIZE, max_lines=2, smallest=10)
        out += [(p, size) for p in parts]
    return out


def _transit_text_width(width: float) -> float:
    return min(TRANSIT_W, width) - (CARD_H + 18) - 6


def _draw_transit(pen: _Pen, x: float, y: float, group: dict[str, Any],
                  lines: list[tuple[str, int]]) -> None:
    """A group lying sideways with its token count and its ``lines``."""
    pen.back(x, y + 4, w=CARD_H, h=CARD_W)
    # the transit tokens: a stack of grey chips on the sideways cards (the count is written
    # beside them too), so they are not mistaken for a player's round marker
    for k in range(min(group["tokens"], 6)):
        cy = y + 26 - k * 4
        pen.d.ellipse((x + CARD_H - 16, cy - 4, x + CARD_H + 2, cy + 4), fill="#A7ADB4",
                      outline=INK)
    pen.marker(x + 10, y + 19, 8, group["seat"], pen.initials[group["seat"]])
    for i, (line, size) in enumerate(lines):
        pen.text((x + CARD_H + 18, y + i * 14 - 2), line, font=_font(size), kind="transit")


def render(view: dict[str, Any]) -> bytes:
    """PNG bytes of the map as ``view['viewer']`` sees it (None = the public map)."""
    return png.encode(layout(view, record=False).image)


def layout(view: dict[str, Any], record: bool = True) -> Canvas:
    """The map drawn on a Canvas; its ``labels`` are the box of every text drawn (tests check
    them for overlaps and clipping)."""
    names = {s["number"]: s["name"] for s in view["seats"]}
    labels = {a["id"]: a["label"] for a in view["areas"]}
    homes = [a for a in view["areas"] if a["id"].startswith("home:")]
    orbits = [a for a in view["areas"] if a["id"].startswith("orbit:")]
    unit, ppv = view.get("points_label", "system boxes"), view.get("points_per_value", 1)
    inner_w = WIDTH - 2 * PAD
    # sizes first, then draw
    header_h = style.TITLE_H + 12 + 22 * math.ceil(len(view["seats"]) / 2)
    home_w = inner_w / max(1, len(homes))
    home_h = max([_stack_height(s, home_w - 12, unit, ppv) for a in homes for s in a["stacks"]]
                 or [60])
    home_h += max([_transit_height(view, a["id"], labels, home_w) for a in homes] or [0])
    bands: list[tuple[str, list[dict[str, Any]], float]] = [("Inner planets", homes, home_h)]
    for a in orbits:
        col_w = inner_w / max(1, len(a["stacks"]))
        h = max([_stack_height(s, col_w - 12, unit, ppv) for s in a["stacks"]] or [34])
        h += _transit_height(view, a["id"], labels)
        bands.append((a["label"], [a], h))
    total_h = header_h + 60 + 4 + sum(h + 40 + SAG for _, _, h in bands) + PAD
    canvas = Canvas(WIDTH, int(total_h), record=record)
    pen = _Pen(canvas)
    pen.initials = _initials(names)
    pen.unit, pen.ppv = unit, ppv
    _draw_header(pen, view, names)
    # the sun, then each ring as a curved band
    y = header_h + 4
    pen.d.ellipse((WIDTH / 2 - 70, y, WIDTH / 2 + 70, y + 50), fill=style.SYSTEM,
                  outline=style.SYSTEM_EDGE, width=2)
    pen.text((WIDTH / 2, y + 25), "SUN", font=pen.bold, anchor="mm", kind="sun")
    y += 40
    for i, (title, areas, h) in enumerate(bands):
        band_h = h + 40 + SAG
        _draw_band_edge(pen, y, y + band_h, BAND_FILL[i % 2])
        pen.fitted((PAD + 4, y + SAG + 4), title.upper(), inner_w - 8, style.HEADING_SIZE,
                   MUTED, "band")
        if i == 0:
            for k, area in enumerate(homes):
                x0 = PAD + k * home_w
                seat = int(area["id"].split(":")[1])
                pen.fitted((x0 + 6, y + SAG + 22), f"Home of {names[seat]}", home_w - 12,
                           style.SMALL_SIZE, MUTED, "home")
                if k:
                    pen.d.line((x0, y + SAG + 22, x0, y + band_h - 6), fill=style.FAINT)
                for s in area["stacks"]:
                    _draw_stack(pen, x0 + 6, y + SAG + 38, home_w - 12, s, names)
                _draw_transits(pen, view, area["id"], x0 + 6,
                               y + band_h - _transit_height(view, area["id"], labels, home_w)
                               + 12, home_w - 12, labels)
        else:
            area = areas[0]
            col_w = inner_w / max(1, len(area["stacks"]))
            if not area["stacks"]:
                pen.text((PAD + 150, y + SAG + 4), "empty", font=pen.small, fill=MUTED)
            for k, s in enumerate(area["stacks"]):
                _draw_stack(pen, PAD + k * col_w + 6, y + SAG + 24, col_w - 12, s, names)
            _draw_transits(pen, view, area["id"], PAD + 6,
                           y + band_h - _transit_height(view, area["id"], labels) + 12,
                           inner_w, labels)
        y += band_h
    return canvas


TRANSIT_W, TRANSIT_H = 220, 44


def _transit_rows(view: dict[str, Any], area: str, labels: dict[str, str],
                  width: float) -> list[list[tuple[dict[str, Any], list[tuple[str, int]]]]]:
    groups = [g for g in view["transit"] if g["destination"] == area]
    per_row = max(1, int(width // TRANSIT_W))
    text_w = _transit_text_width(width)
    cells = [(g, _transit_lines(g, labels, text_w)) for g in groups]
    return [cells[i:i + per_row] for i in range(0, len(cells), per_row)]


def _row_height(row: list[tuple[dict[str, Any], list[tuple[str, int]]]]) -> int:
    return max(TRANSIT_H, *(14 * len(lines) + 4 for _, lines in row))


def _transit_height(view: dict[str, Any], area: str, labels: dict[str, str],
                    width: float = WIDTH - 2 * PAD) -> int:
    rows = _transit_rows(view, area, labels, width)
    return 0 if not rows else 24 + sum(_row_height(r) for r in rows)


def _draw_transits(pen: _Pen, view: dict[str, Any], area: str, x: float, y: float,
                   width: float, labels: dict[str, str]) -> None:
    rows = _transit_rows(view, area, labels, width)
    if not rows:
        return
    pen.fitted((x, y - 4), "IN TRANSIT HERE:", width, style.SMALL_SIZE, MUTED, "transit")
    gy = y + 20
    for row in rows:
        for i, (g, lines) in enumerate(row):
            _draw_transit(pen, x + i * TRANSIT_W, gy, g, lines)
        gy += _row_height(row)


def _draw_band_edge(pen: _Pen, top: float, bottom: float, fill: Any) -> None:
    """A band between two arcs of a huge circle centred above: an orbit seen from the sun."""
    r = WIDTH * WIDTH / (8 * SAG)
    cx = WIDTH / 2
    pts_top = [(x, top + SAG - (r - math.sqrt(r * r - (x - cx) ** 2)))
               for x in range(0, WIDTH + 1, 16)]
    pts_bot = [(x, bottom + SAG - (r - math.sqrt(r * r - (x - cx) ** 2)))
               for x in range(WIDTH, -1, -16)]
    pen.d.polygon(pts_top + pts_bot, fill=fill)
    pen.d.line(pts_top, fill=style.GRID, width=2)


def _draw_header(pen: _Pen, view: dict[str, Any], names: dict[int, str]) -> None:
    phase = view["phase"].replace("battle_", "battle: ").replace("_", " ")
    who = "Public map" if view["viewer"] is None else \
        f"{names[view['viewer']]}'s map (your hidden cards are hatched)"
    pen.canvas.title_bar(f"Orbits · turn {view['turn']} · {phase}", who)
    for i, s in enumerate(view["seats"]):
        x = PAD + (i % 2) * (WIDTH / 2)
        y = style.TITLE_H + 8 + (i // 2) * 22
        pen.marker(x + 9, y + 8, 9, s["number"], pen.initials[s["number"]])
        pen.fitted((x + 24, y), f"{s['name']}: {s['rp']}/{view['target_rp']} RP · deck "
                   f"{s['deck']} · discarded {s['discarded']} · battles won {s['battles_won']}",
                   WIDTH / 2 - 24 - PAD, style.BODY_SIZE, kind="seat")
