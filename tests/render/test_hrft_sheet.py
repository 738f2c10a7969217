"""The HRFT ship sheet renderer: real PNGs, the right ship, damage marked."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import registry, style
from bot.render.hrft_sheet import (
    CX,
    CY,
    HEIGHT,
    PANEL_H,
    PANEL_W,
    RY,
    STRIPPED,
    WIDTH,
    layout,
    render,
)
from bot.rules.base import Seat
from bot.rules.dice import ScriptedDice, SeededDice
from bot.rules.hrft import RULESET, add_ship, sample_ship
from bot.rules.hrft.damage import apply_attack
from bot.rules.hrft.samples import SAMPLE_KEYS
from tests.render.label_checks import assert_clean


def _state():
    state = RULESET.start(RULESET.options_model(), [Seat(number=1, name="Alice"),
                                                    Seat(number=2, name="Bob")],
                          ScriptedDice([])).state
    state = add_ship(state, 1, sample_ship("vanguard"))
    return add_ship(state, 2, sample_ship("lynx"))


def _image(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def _f_panel_pixel(image: Image.Image) -> tuple[int, int, int]:
    # inside the F panel, near its lower left corner (no text or boxes there)
    return image.getpixel((CX - PANEL_W // 2 + 6, CY - RY + PANEL_H // 2 - 8))


def test_sheet_is_a_png_of_the_sheet_ship_with_a_stripped_block_marked():
    state = _state()
    state.ships["1a"] = apply_attack(state.ships["1a"], [("F", 13)], SeededDice(1)).ship
    state.sheet_ship = "1a"
    image = _image(render(RULESET.view(state, None)))
    assert image.size == (WIDTH, HEIGHT)
    assert _f_panel_pixel(image) == STRIPPED
    state.sheet_ship = "2a"
    assert _f_panel_pixel(_image(render(RULESET.view(state, None)))) != STRIPPED


def test_sheet_changes_when_damage_is_taken():
    state = _state()
    state.sheet_ship = "2a"
    before = render(RULESET.view(state, None))
    state.ships["2a"] = apply_attack(state.ships["2a"], [("A", 1)], SeededDice(2)).ship
    assert render(RULESET.view(state, None)) != before


def test_sheet_draws_a_single_ship_view_and_handles_no_ships():
    state = _state()
    one = RULESET.view(state, None)["ships"]["2a"]
    assert _image(render({"ship": one})).size == (WIDTH, HEIGHT)
    empty = RULESET.start(RULESET.options_model(), [Seat(number=1, name="A"),
                                                    Seat(number=2, name="B")],
                          ScriptedDice([])).state
    assert _image(render(RULESET.view(empty, None))).size == (WIDTH, HEIGHT)


def test_sheet_is_registered_for_hrft():
    state = _state()
    data = registry.render("hrft", "sheet", RULESET.view(state, None))
    assert _image(data).size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("key", SAMPLE_KEYS)
def test_every_sample_sheet_has_its_labels_whole_and_apart(key):
    state = RULESET.start(RULESET.options_model(), [Seat(number=1, name="Alice"),
                                                    Seat(number=2, name="Bob")],
                          ScriptedDice([])).state
    state = add_ship(state, 1, sample_ship(key))
    uid = next(iter(state.ships))
    for damage in ([], [("F", 9), ("A", 9), ("FS", 6)]):
        if damage:
            state.ships[uid] = apply_attack(state.ships[uid], damage, SeededDice(3)).ship
        canvas = layout(RULESET.view(state, None))
        assert_clean(canvas)
        assert canvas.image.getpixel((2, 2)) == style.TITLE_BG


def test_a_long_system_name_is_wrapped_not_cut():
    state = _state()
    ship = RULESET.view(state, None)["ships"]["2a"]
    arc = next(s for s in ship["systems"] if s["group"] == "arc")
    arc["label"] = "Heavy Particle Lance of the Ancient Kravak Dynasty (F/FS/FP)"
    core = next(s for s in ship["systems"] if s["group"] == "core")
    core["label"] = "Experimental Hyperspace Navigation Computer Mark Two"
    canvas = layout({"ship": ship})
    assert_clean(canvas)
    words = " ".join(lb.text.strip() for lb in canvas.labels)
    assert arc["label"] in words and core["label"] in words
