"""One visual style for every picture (issue 10.6): the shared palette, title bar and text
fitting, used by all four renderers."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.render import ftcamp_hexmap, ftcamp_sector, hrft_sheet, orbits_map, registry, style
from bot.render.style import fit, font, initials, text_width, wrap
from tests.render.label_checks import assert_clean
from tests.render.test_picture_requests import _ftcamp, _hrft, _orbits

RENDERERS: list[tuple[str, str, Any, Any]] = [
    ("orbits", "map", orbits_map, lambda: _orbits(None)),
    ("ftcamp", "hexmap", ftcamp_hexmap, _ftcamp),
    ("ftcamp", "sector", ftcamp_sector, _ftcamp),
    ("hrft", "sheet", hrft_sheet, _hrft),
]


@pytest.mark.parametrize(("ruleset", "name", "module", "make"), RENDERERS)
def test_every_renderer_draws_the_shared_title_bar_on_the_shared_paper(ruleset, name, module,
                                                                       make) -> None:
    view = make()
    data = registry.render(ruleset, name, view)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img = img.convert("RGB")
    assert img.getpixel((2, 2)) == style.TITLE_BG
    assert img.getpixel((img.width - 2, style.TITLE_H // 2)) == style.TITLE_BG
    assert img.getpixel((2, style.TITLE_H + 2)) == style.PAPER
    assert img.getpixel((img.width - 2, img.height - 2)) == style.PAPER
    canvas = module.layout(view)
    assert canvas.image.tobytes() == img.tobytes()  # layout() is what render() encodes
    assert [lb.kind for lb in canvas.labels].count("title") >= 1
    assert_clean(canvas)


def test_owner_colours_are_distinct_and_not_the_neutral_ones() -> None:
    owners = style.OWNER_COLOURS
    assert len(set(owners)) == len(owners) == len(set(style.OWNER_SHAPES)) == 6
    for neutral in (style.HATCH, style.SYSTEM, style.INK, style.PAPER, style.GRID, style.ALERT):
        assert neutral not in owners
    assert style.owner_colour(7) == owners[0] and style.owner_shape(7) == style.OWNER_SHAPES[0]


def test_initials_fall_back_to_seat_numbers_when_two_owners_share_a_letter() -> None:
    assert initials({1: "Terran Union", 2: "kravak Horde"}) == {1: "T", 2: "K"}
    assert initials({1: "Ann", 2: "Abe", 3: "Cy"}) == {1: "1", 2: "2", 3: "3"}
    assert initials({1: "  "}) == {1: "?"}


def test_fit_shrinks_then_wraps_and_never_drops_a_letter() -> None:
    text = "Barnard Outpost Extended Defence Platform"
    assert fit(text, 10_000, 14) == ([text], 14)
    lines, size = fit(text, 120, 14, max_lines=2)
    assert all(text_width(line, font(size)) <= 120 for line in lines)
    assert " ".join(lines) == text
    # a single word wider than the line is split, not cut
    word = "Supercalifragilisticexpialidocious"
    parts = wrap(word, 40, font(12))
    assert "".join(parts) == word and len(parts) > 1
    assert all(text_width(p, font(12)) <= 40 for p in parts)


def test_the_title_bar_shrinks_a_long_title_to_fit_beside_its_subtitle() -> None:
    canvas = style.Canvas(420, 100)
    canvas.title_bar("Campaign of the Tau Ceti border, round 12", "Public map")
    title, sub = canvas.labels
    assert title.text == "Campaign of the Tau Ceti border, round 12"
    assert title.box[2] < sub.box[0] and sub.box[2] <= 420 and title.box[0] >= 0
    # drawn smaller than the title size, which would not have fitted
    assert text_width(title.text, font(style.TITLE_SIZE)) > 420 - 2 * style.MARGIN - (
        sub.box[2] - sub.box[0]) > title.box[2] - title.box[0]
    assert_clean(canvas)


def test_a_title_too_long_for_one_line_wraps_inside_the_bar() -> None:
    canvas = style.Canvas(300, 100)
    canvas.title_bar("The Great Campaign of the Outer Rim and Beyond, Season Two", "round 3")
    titles = [lb for lb in canvas.labels if lb.kind == "title"]
    assert len(titles) == 3
    assert " ".join(lb.text for lb in titles[:-1]) == \
        "The Great Campaign of the Outer Rim and Beyond, Season Two"
    assert all(lb.box[3] <= style.TITLE_H for lb in titles)
    assert_clean(canvas)


def test_pictures_drawn_in_parallel_threads_are_the_same_picture() -> None:
    from concurrent.futures import ThreadPoolExecutor

    view = _ftcamp()
    alone = registry.render("ftcamp", "hexmap", view)
    with ThreadPoolExecutor(max_workers=3) as pool:  # as the outbox draws, off the loop
        drawn = list(pool.map(lambda _: registry.render("ftcamp", "hexmap", view), range(6)))
    assert all(d == alone for d in drawn)
    assert font(12) is font(12)  # one font object per size within a thread
