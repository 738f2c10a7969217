"""The Orbits map: a PNG of ``view(state, viewer)`` (bot.rules.orbits.views).

Layout: the sun at the top, then one curved band per ring of the system: the inner ellipse
with every home area side by side, then the outer orbits from the innermost. In each band
every player present gets a column: face-up cards, face-down cards as one card back with a
count (known cards named beneath, O-17; a player's own map also shows their hidden cards),
and the stance. Groups in transit lie sideways in their destination band with their tokens.

Readable without colour: each player has a shape and an initial as well as a colour
(Okabe-Ito palette), suits are drawn as shapes, stances are written out."""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render import png

WIDTH = 960
PAD = 16
SAG = 18  # how far the band edges curve up at the sides
CARD_W, CARD_H = 30, 42
PLAYER_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00"]
SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon"]
SUIT_RED = "#C0392B"
INK = "#1B1F24"
MUTED = "#5F6B76"
BAND_FILL = ["#F4F1E8", "#ECEFF4"]
BACK_FILL = "#3B4A6B"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


class _Pen:
    """Drawing helpers sharing one ImageDraw and a few fonts."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self.d = draw
        self.small, self.body, self.bold, self.title = _font(12), _font(14), _font(16), _font(20)
        self.initials: dict[int, str] = {}
        self.unit, self.ppv = "system boxes", 1

    def text(self, xy: tuple[float, float], text: str, font: Any = None, fill: str = INK,
             anchor: str = "la") -> None:
        self.d.text(xy, text, font=font or self.body, fill=fill, anchor=anchor)

    def width(self, text: str, font: Any = None) -> float:
        return self.d.textlength(text, font=font or self.body)

    def marker(self, cx: float, cy: float, r: float, seat: int, initial: str) -> None:
        """The player's shape in their colour with their initial: never colour alone."""
        colour = PLAYER_COLOURS[(seat - 1) % len(PLAYER_COLOURS)]
        shape = SHAPES[(seat - 1) % len(SHAPES)]
        if shape == "circle":
            self.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
        elif shape == "square":
            self.d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
        else:
            sides = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6}[shape]
            self.d.regular_polygon((cx, cy, r * 1.15), sides, rotation=0 if sides != 4 else 45,
                                   fill=colour, outline=INK, width=2)
        self.text((cx, cy + (2 if shape == "triangle" else 0)), initial, font=self.bold,
                  anchor="mm")

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
            self.text((x + CARD_W / 2, y + CARD_H / 2), "JK", font=self.bold, anchor="mm")
            self.text((x + CARD_W / 2, y + CARD_H - 7), "joker", font=_font(8), anchor="mm")
            return
        rank, suit = code[:-1], code[-1]
        colour = SUIT_RED if suit in "HD" else INK
        self.text((x + CARD_W / 2, y + 12), rank, font=self.bold, fill=colour, anchor="mm")
        self.suit(x + CARD_W / 2, y + 29, 7, suit)

    def back(self, x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> None:
        """A card back: dark with a cross-hatch, so it reads as 'hidden' in greyscale too."""
        self.d.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=BACK_FILL, outline=INK)
        for k in range(4, int(w + h), 7):
            self.d.line((x + min(k, w), y + max(0, k - w), x + max(0, k - h), y + min(k, h)),
                        fill="#6D7FA6")


def _initials(names: dict[int, str]) -> dict[int, str]:
    """First letters; when two players share one, everybody gets their seat number instead."""
    first = {seat: (name.strip()[:1] or "?").upper() for seat, name in names.items()}
    if len(set(first.values())) == len(first):
        return first
    return {seat: str(seat) for seat in names}


def _show(code: str) -> str:
    """Text form without suit glyphs (the default font lacks them): 7H -> 7h."""
    return "Joker" if code.startswith("JK") else code[:-1] + code[-1].lower()


def _stack_height(stack: dict[str, Any], col_w: float) -> float:
    per_row = max(1, int((col_w - 10) // (CARD_W + 4)))
    up = len(stack["face_up"])
    mine = len(stack["face_down"].get("mine", []))
    rows = math.ceil(up / per_row) + math.ceil(mine / per_row)
    h = 30 + rows * (CARD_H + 4) + (20 if stack["stance"] else 0)
    if stack["face_down"]["count"]:
        h += CARD_H + 6
        if stack["face_down"]["known"] and not mine:
            h += CARD_H + 4
    return h + 6


def _draw_stack(pen: _Pen, x: float, y: float, col_w: float, stack: dict[str, Any],
                names: dict[int, str]) -> None:
    seat = stack["seat"]
    pen.marker(x + 12, y + 12, 11, seat, pen.initials[seat])
    pen.text((x + 30, y + 4), names[seat], font=pen.bold)
    top = y + 30
    if stack["stance"]:  # the word, plus a line pattern: zigzag = attack, double = blockade
        total = stack["fleet_total"]
        amount = f"{total} {pen.unit}" if pen.ppv == 1 else f"{total * pen.ppv} points"
        line = f"{stack['stance'].upper()} · {amount} · SC {stack['size_class']}"
        pen.text((x + 4, y + 28), line, font=pen.small)
        w = pen.width(stack["stance"].upper(), pen.small)
        if stack["stance"] == "attack":
            pts = [(x + 4 + i * 4, y + 43 + (3 if i % 2 else 0)) for i in range(int(w // 4) + 1)]
            pen.d.line(pts, fill=SUIT_RED, width=2)
        else:
            for dy in (42, 45):
                pen.d.line((x + 4, y + dy, x + 4 + w, y + dy), fill=INK, width=1)
        top += 20
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
        pen.text((x + CARD_W + 10, cy + 2), f"x {count} face down" if wide else f"x {count}",
                 font=pen.bold)
        known = [] if own else stack["face_down"]["known"]
        note = "yours: hatched above" if own else "known among them:" if known else \
            "" if wide else "face down"
        pen.text((x + CARD_W + 10, cy + 22), note, font=pen.small, fill=MUTED)
        if known:  # O-17: seen face up by everyone, now face down
            cy += CARD_H + 4
            for i, code in enumerate(known[:per_row]):
                pen.card(x + 4 + i * (CARD_W + 4), cy, code, known=True)


def _draw_transit(pen: _Pen, x: float, y: float, group: dict[str, Any],
                  names: dict[int, str], labels: dict[str, str]) -> float:
    """A group lying sideways with its token count; returns the width used."""
    pen.back(x, y + 4, w=CARD_H, h=CARD_W)
    # the transit tokens: a stack of grey chips on the sideways cards (the count is written
    # beside them too), so they are not mistaken for a player's round marker
    for k in range(min(group["tokens"], 6)):
        cy = y + 26 - k * 4
        pen.d.ellipse((x + CARD_H - 16, cy - 4, x + CARD_H + 2, cy + 4), fill="#A7ADB4",
                      outline=INK)
    pen.marker(x + 10, y + 19, 8, group["seat"], pen.initials[group["seat"]])
    cards = group["cards"]
    lines = [f"{cards['count']} card{'s' if cards['count'] != 1 else ''} from "
             f"{labels[group['origin']]}",
             f"{group['tokens']} token{'s' if group['tokens'] != 1 else ''} left"]
    shown = cards.get("mine") or cards["known"]
    if shown:
        lines.append(("yours: " if cards.get("mine") else "known: ")
                     + ", ".join(_show(c) for c in shown))
    for i, line in enumerate(lines):
        pen.text((x + CARD_H + 18, y + i * 14 - 2), line, font=pen.small)
    return CARD_H + 26 + max(pen.width(line, pen.small) for line in lines)


def _band_layout(area_list: list[dict[str, Any]], inner_w: float) -> list[float]:
    cols = max(1, len(area_list))
    return [inner_w / cols] * cols


def render(view: dict[str, Any]) -> bytes:
    """PNG bytes of the map as ``view['viewer']`` sees it (None = the public map)."""
    names = {s["number"]: s["name"] for s in view["seats"]}
    labels = {a["id"]: a["label"] for a in view["areas"]}
    homes = [a for a in view["areas"] if a["id"].startswith("home:")]
    orbits = [a for a in view["areas"] if a["id"].startswith("orbit:")]
    inner_w = WIDTH - 2 * PAD
    # sizes first, then draw
    header_h = 48 + 22 * math.ceil(len(view["seats"]) / 2)
    home_w = inner_w / max(1, len(homes))
    home_h = max([_stack_height(s, home_w - 12) for a in homes for s in a["stacks"]] or [60])
    home_h += max(_transit_height(view, a["id"], home_w) for a in homes)
    bands: list[tuple[str, list[dict[str, Any]], float]] = [("Inner planets", homes, home_h)]
    for a in orbits:
        col_w = inner_w / max(1, len(a["stacks"]))
        h = max([_stack_height(s, col_w - 12) for s in a["stacks"]] or [34])
        h += _transit_height(view, a["id"])
        bands.append((a["label"], [a], h))
    total_h = header_h + 60 + 4 + sum(h + 40 + SAG for _, _, h in bands) + PAD
    img = Image.new("RGB", (WIDTH, int(total_h)), "white")
    pen = _Pen(ImageDraw.Draw(img))
    pen.initials = _initials(names)
    pen.unit, pen.ppv = view.get("points_label", "system boxes"), view.get("points_per_value", 1)
    _draw_header(pen, view, names)
    # the sun, then each ring as a curved band
    y = header_h + 4
    pen.d.ellipse((WIDTH / 2 - 70, y, WIDTH / 2 + 70, y + 50), fill="#F6D55C",
                  outline="#B8860B", width=2)
    pen.text((WIDTH / 2, y + 25), "SUN", font=pen.bold, anchor="mm")
    y += 40
    for i, (title, areas, h) in enumerate(bands):
        band_h = h + 40 + SAG
        _draw_band_edge(pen, y, y + band_h, BAND_FILL[i % 2])
        pen.text((PAD + 4, y + SAG + 4), title.upper(), font=pen.bold, fill=MUTED)
        if i == 0:
            for k, area in enumerate(homes):
                x0 = PAD + k * home_w
                seat = int(area["id"].split(":")[1])
                pen.text((x0 + 6, y + SAG + 22), f"Home of {names[seat]}", font=pen.small,
                         fill=MUTED)
                if k:
                    pen.d.line((x0, y + SAG + 22, x0, y + band_h - 6), fill="#C9CED6")
                for s in area["stacks"]:
                    _draw_stack(pen, x0 + 6, y + SAG + 38, home_w - 12, s, names)
                _draw_transits(pen, view, area["id"], x0 + 6,
                               y + band_h - _transit_height(view, area["id"], home_w) + 12,
                               home_w, names, labels)
        else:
            area = areas[0]
            col_w = inner_w / max(1, len(area["stacks"]))
            if not area["stacks"]:
                pen.text((PAD + 150, y + SAG + 4), "empty", font=pen.small, fill=MUTED)
            for k, s in enumerate(area["stacks"]):
                _draw_stack(pen, PAD + k * col_w + 6, y + SAG + 24, col_w - 12, s, names)
            _draw_transits(pen, view, area["id"], PAD + 6,
                           y + band_h - _transit_height(view, area["id"]) + 12, inner_w,
                           names, labels)
        y += band_h
    return png.encode(img)


TRANSIT_W, TRANSIT_H = 220, 44


def _transit_height(view: dict[str, Any], area: str, width: float = WIDTH - 2 * PAD) -> int:
    n = sum(1 for g in view["transit"] if g["destination"] == area)
    per_row = max(1, int(width // TRANSIT_W))
    return 0 if not n else 24 + math.ceil(n / per_row) * TRANSIT_H


def _draw_transits(pen: _Pen, view: dict[str, Any], area: str, x: float, y: float,
                   width: float, names: dict[int, str], labels: dict[str, str]) -> None:
    groups = [g for g in view["transit"] if g["destination"] == area]
    if not groups:
        return
    pen.text((x, y - 4), "IN TRANSIT HERE:", font=pen.small, fill=MUTED)
    per_row = max(1, int(width // TRANSIT_W))
    for i, g in enumerate(groups):
        gx = x + (i % per_row) * TRANSIT_W
        gy = y + 20 + (i // per_row) * TRANSIT_H
        _draw_transit(pen, gx, gy, g, names, labels)


def _draw_band_edge(pen: _Pen, top: float, bottom: float, fill: str) -> None:
    """A band between two arcs of a huge circle centred above: an orbit seen from the sun."""
    r = WIDTH * WIDTH / (8 * SAG)
    cx = WIDTH / 2
    pts_top = [(x, top + SAG - (r - math.sqrt(r * r - (x - cx) ** 2)))
               for x in range(0, WIDTH + 1, 16)]
    pts_bot = [(x, bottom + SAG - (r - math.sqrt(r * r - (x - cx) ** 2)))
               for x in range(WIDTH, -1, -16)]
    pen.d.polygon(pts_top + pts_bot, fill=fill)
    pen.d.line(pts_top, fill="#9AA5B1", width=2)


def _draw_header(pen: _Pen, view: dict[str, Any], names: dict[int, str]) -> None:
    phase = view["phase"].replace("battle_", "battle: ").replace("_", " ")
    who = "Public map" if view["viewer"] is None else \
        f"{names[view['viewer']]}'s map (your hidden cards are hatched)"
    pen.text((PAD, 10), f"Orbits · turn {view['turn']} · {phase}", font=pen.title)
    pen.text((WIDTH - PAD, 14), who, font=pen.body, fill=MUTED, anchor="ra")
    for i, s in enumerate(view["seats"]):
        x = PAD + (i % 2) * (WIDTH / 2)
        y = 44 + (i // 2) * 22
        pen.marker(x + 9, y + 8, 9, s["number"], pen.initials[s["number"]])
        pen.text((x + 24, y), f"{s['name']}: {s['rp']}/{view['target_rp']} RP · deck "
                 f"{s['deck']} · discarded {s['discarded']} · battles won {s['battles_won']}")
