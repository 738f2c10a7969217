"""Checks on a drawn picture's layout (``Canvas.labels``): no label cut by the canvas edge, no
two labels printed over each other, the words of a label found whole."""

from __future__ import annotations

from bot.render.style import Canvas, inside, overlaps


def assert_clean(canvas: Canvas) -> None:
    """Every text inside the canvas and no two texts overlapping."""
    assert canvas.labels, "nothing was written"
    out = [lb for lb in canvas.labels if not inside(lb.box, canvas.width, canvas.height)]
    assert not out, f"labels cut by the canvas edge: {out}"
    clashes = [(a, b) for i, a in enumerate(canvas.labels) for b in canvas.labels[i + 1:]
               if overlaps(a.box, b.box)]
    assert not clashes, f"labels printed over each other: {clashes[:3]}"


def texts(canvas: Canvas, *kinds: str) -> list[str]:
    return [lb.text for lb in canvas.labels if not kinds or lb.kind in kinds]


def joined(canvas: Canvas, *kinds: str) -> str:
    """The texts of these kinds as one line (wrapped names come back whole)."""
    return " ".join(texts(canvas, *kinds))
