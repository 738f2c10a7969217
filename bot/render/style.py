"""The one visual style of every picture (Orbits map, FTCamp hex map and sector, HRFT sheet).

Light paper background, dark ink, a dark title bar across the top; owners in the Okabe-Ito
colour-blind-safe palette and never by colour alone: each owner also has a shape and an initial
(``marker``). Neutral greys mean "not an owner" (contested hexes are hatched grey, never an
owner colour). One font: Pillow's bundled one (``ImageFont.load_default``), so pictures look
the same on every host without system fonts. See docs/dev/visual-style.md.

``Canvas`` records the box of every text it draws (each renderer's ``layout``; ``render``
skips it for speed), so tests check a picture's labels (inside the canvas, not overlapping)
from its layout instead of parsing pixels; ``fit`` shrinks or wraps a label to a width, so no
renderer has to cut one.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

Colour = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Box = tuple[float, float, float, float]

# -- colours ------------------------------------------------------------------------------
PAPER: Colour = (250, 248, 242)       # background of every picture
PANEL: Colour = (236, 240, 246)       # boxes and bands drawn on the paper
PANEL_ALT: Colour = (244, 241, 232)
WHITE: Colour = (255, 255, 255)
INK: Colour = (27, 31, 36)            # text and outlines
MUTED: Colour = (95, 107, 118)        # secondary text
GRID: Colour = (154, 165, 177)        # grid lines, rings
FAINT: Colour = (201, 206, 214)       # separators
HATCH: Colour = (150, 150, 150)       # "contested": neutral, never an owner colour
TITLE_BG: Colour = (40, 48, 62)       # the title bar
TITLE_INK: Colour = (250, 248, 242)
TITLE_MUTED: Colour = (190, 198, 210)
SYSTEM: Colour = (246, 213, 92)       # stars, systems, the sun (no owner is yellow)
SYSTEM_EDGE: Colour = (150, 110, 10)
ALERT: Colour = (192, 57, 43)         # damage, destroyed, attack

# Okabe & Ito (2008), without black and yellow (ink and systems use those): seats 1..6.
OWNER_COLOURS: list[Colour] = [(230, 159, 0), (86, 180, 233), (0, 158, 115), (204, 121, 167),
                               (0, 114, 178), (213, 94, 0)]
OWNER_SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon"]
NO_OWNER: Colour = (180, 180, 180)

# -- sizes --------------------------------------------------------------------------------
MARGIN = 16
TITLE_H = 40
TITLE_SIZE, HEADING_SIZE, BODY_SIZE, SMALL_SIZE, TINY_SIZE, MIN_SIZE = 20, 16, 14, 12, 10, 9


_FONTS = threading.local()


def font(size: int) -> Font:
    """The one font, at ``size`` pixels. Loaded once per size and per thread: pictures are
    drawn in worker threads, and FreeType wants a face used by one thread at a time."""
    fonts: dict[int, Font] = _FONTS.__dict__.setdefault("by_size", {})
    if size not in fonts:
        fonts[size] = ImageFont.load_default(size=size)
    return fonts[size]


@lru_cache(maxsize=16384)
def text_width(text: str, f: Font) -> float:
    """Pixel width of ``text`` in ``f`` (cached: fitting measures the same words often, and
    ``font`` hands out one object per size)."""
    return f.getlength(text)


def owner_colour(seat: int) -> Colour:
    return OWNER_COLOURS[(seat - 1) % len(OWNER_COLOURS)] if seat > 0 else NO_OWNER


def owner_shape(seat: int) -> str:
    return OWNER_SHAPES[(seat - 1) % len(OWNER_SHAPES)] if seat > 0 else "circle"


def initials(names: dict[int, str]) -> dict[int, str]:
    """First letters; when two owners share one, everybody gets their seat number instead."""
    first = {seat: (name.strip()[:1] or "?").upper() for seat, name in names.items()}
    if len(set(first.values())) == len(first):
        return first
    return {seat: str(seat) for seat in names}


@dataclass(frozen=True)
class Label:
    """One text drawn: its words, its box on the canvas, what it is (``kind``)."""

    text: str
    box: Box
    kind: str = "label"


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(box: Box, width: int, height: int) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height


@dataclass
class Canvas:
    """An image, its ImageDraw, and the boxes of every text drawn on it."""

    width: int
    height: int
    background: Colour = PAPER
    record: bool = True  # render() skips the boxes (a few ms); layout() keeps them for tests
    labels: list[Label] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.image = Image.new("RGB", (self.width, self.height), self.background)
        self.draw = ImageDraw.Draw(self.image)

    def text(self, xy: tuple[float, float], text: str, size: int = BODY_SIZE,
             fill: Colour | str = INK, anchor: str = "la", kind: str = "label",
             f: Font | None = None) -> None:
        f = f or font(size)
        self.draw.text(xy, text, font=f, fill=fill, anchor=anchor)
        if self.record:
            self.labels.append(Label(text, self.draw.textbbox(xy, text, font=f, anchor=anchor),
                                     kind))

    def title_bar(self, title: str, subtitle: str = "") -> None:
        """The dark bar across the top: the title left, the subtitle (whose view) right. The
        subtitle takes at most half the bar; the title shrinks, then wraps, in the rest."""
        self.draw.rectangle((0, 0, self.width, TITLE_H), fill=TITLE_BG)
        room = self.width - 2 * MARGIN
        sub_size, sub_w = BODY_SIZE, 0.0
        if subtitle:
            sub_size = fit_size(subtitle, room // 2, BODY_SIZE)
            sub_w = text_width(subtitle, font(sub_size)) + MARGIN
        lines, size = fit(title, room - sub_w, TITLE_SIZE, max_lines=2)
        lh = line_height(size)
        for i, line in enumerate(lines):  # a title too long for one line takes two
            self.text((MARGIN, TITLE_H / 2 + (i - (len(lines) - 1) / 2) * lh), line, size,
                      TITLE_INK, "lm", "title")
        if subtitle:
            self.text((self.width - MARGIN, TITLE_H / 2), subtitle, sub_size, TITLE_MUTED,
                      "rm", "title")

    def marker(self, cx: float, cy: float, r: float, seat: int, initial: str) -> None:
        """The owner's shape in their colour with their initial: never colour alone."""
        colour, shape, d = owner_colour(seat), owner_shape(seat), self.draw
        if shape == "circle":
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
        elif shape == "square":
            d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
        elif shape == "triangle":  # larger, and a little lower, so its letter fits inside
            d.regular_polygon((cx, cy + r * 0.2, r * 1.5), 3, fill=colour, outline=INK, width=2)
        else:
            sides = {"diamond": 4, "pentagon": 5, "hexagon": 6}[shape]
            d.regular_polygon((cx, cy, r * 1.15), sides, rotation=45 if sides == 4 else 0,
                              fill=colour, outline=INK, width=2)
        size = max(MIN_SIZE - 1, int(r * 1.35))
        self.text((cx, cy + (r * 0.3 if shape == "triangle" else 0)), initial, size, INK,
                  "mm", "marker")

    def hatch(self, points: list[tuple[float, float]], colour: Colour = HATCH,
              step: int = 7) -> None:
        """Diagonal hatching inside a polygon (the neutral "contested" pattern)."""
        x0, y0 = int(min(p[0] for p in points)), int(min(p[1] for p in points))
        x1, y1 = int(max(p[0] for p in points)) + 1, int(max(p[1] for p in points)) + 1
        w, h = x1 - x0, y1 - y0
        lines = Image.new("L", (w, h), 0)
        ld = ImageDraw.Draw(lines)
        for k in range(-h, w, step):
            ld.line((k, h, k + h, 0), fill=255, width=2)
        shape = Image.new("L", (w, h), 0)
        ImageDraw.Draw(shape).polygon([(x - x0, y - y0) for x, y in points], fill=255)
        self.image.paste(colour, (x0, y0, x1, y1), ImageChops.multiply(lines, shape))


def fit_size(text: str, width: float, size: int, smallest: int = MIN_SIZE) -> int:
    """The largest size from ``size`` down to ``smallest`` at which ``text`` is ``width``
    wide or less (``smallest`` when none is)."""
    for s in range(size, smallest - 1, -1):
        if text_width(text, font(s)) <= width:
            return s
    return smallest


def wrap(text: str, width: float, f: Font) -> list[str]:
    """``text`` in lines no wider than ``width``: at spaces, and inside a word too long for a
    line of its own (never dropped)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if text_width(trial, f) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        line = ""
        while text_width(word, f) > width and len(word) > 1:
            k = len(word) - 1
            while k > 1 and text_width(word[:k], f) > width:
                k -= 1
            lines.append(word[:k])
            word = word[k:]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


def fit(text: str, width: float, size: int, max_lines: int = 2,
        smallest: int = MIN_SIZE) -> tuple[list[str], int]:
    """Lines and size for ``text`` in ``width``: one line at the largest size that fits, else
    wrapped in at most ``max_lines`` lines at the largest size that allows it, else wrapped at
    ``smallest`` in as many lines as it takes. Nothing is cut."""
    for s in range(size, smallest - 1, -1):
        if text_width(text, font(s)) <= width:
            return [text], s
    for s in range(size, smallest - 1, -1):
        lines = wrap(text, width, font(s))
        if len(lines) <= max_lines:
            return lines, s
    return wrap(text, width, font(smallest)), smallest


def line_height(size: int) -> int:
    return int(size * 1.2) + 1
