"""The shared war module (bot/rules/war_models.py) says what HRFT really ships."""

from __future__ import annotations

from bot.rules import war_models
from bot.rules.hrft.gm import design_problem
from bot.rules.hrft.samples import SAMPLE_KEYS, sample_ship


def test_the_sample_table_matches_the_converted_samples() -> None:
    shipped = {k: (sample_ship(k).name, sample_ship(k).mass) for k in SAMPLE_KEYS}
    assert shipped == war_models.SAMPLE_DESIGNS
    assert list(war_models.SAMPLE_DESIGNS) == SAMPLE_KEYS  # the order refusals list them in


def test_hrft_checks_designs_with_the_shared_words() -> None:
    assert design_problem is war_models.design_problem
    assert design_problem(None) == "it names no design"
    assert design_problem(" Kestrel ") == ""
    assert "not a sample (kestrel, harrier" in design_problem("Nimitz")


def test_nearest_and_smallest_sample() -> None:
    assert war_models.nearest_sample(30) == "kestrel"  # 24 and 36 tie: the lighter
    assert war_models.nearest_sample(1000) == "vanguard"
    assert war_models.smallest_design() == ("Lynx", 16)
