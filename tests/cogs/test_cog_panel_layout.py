"""The generic panel's layout respects Discord's limits for any Request (no Discord needed)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.campaign.models import Panel
from bot.errors import InvalidInput
from bot.rules.base import ActionSpec, InputField, Option, Request
from cogs import panel_items
from cogs.panel_ids import PanelKey
from cogs.panel_items import render
from cogs.panel_view import (
    Mode,
    build_action,
    describe_action,
    merge_chunk,
    page_count,
)
from tests.support.examples import examples


def field(name: str, n: int, max_values: int = 1, min_values: int = 1) -> InputField:
    return InputField(
        name=name,
        label=name.title(),
        options=[Option(value=f"v{i}", label=f"Option {i}") for i in range(n)],
        min_values=min_values,
        max_values=max_values,
    )


def panel(*specs: ActionSpec, draft: dict[str, Any] | None = None, **kw: Any) -> Panel:
    request = Request(seat=2, kind="sealed", step="orders", prompt="Give orders.",
                      actions=list(specs))
    return Panel(campaign_id=12, step_no=34, seat=2, request=request, draft=draft or {},
                 submitted=kw.get("submitted"),
                 deadline=kw.get("deadline"))


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    return view.to_components()


def check_limits(view: discord.ui.View) -> None:
    rows = components(view)
    assert len(rows) <= 5
    for row in rows:
        children = row["components"]
        assert 1 <= len(children) <= 5
        for child in children:
            assert len(child["custom_id"]) <= 100
            if child["type"] == 3:  # select
                assert len(children) == 1
                assert 1 <= len(child["options"]) <= 25
                assert 0 <= child["min_values"] <= child["max_values"] <= len(child["options"])


def test_one_spec_with_fields_opens_on_its_selects() -> None:
    content, view = render(panel(ActionSpec(type="guess", label="Guess", fields=[field("n", 6)]),
                                 deadline=datetime(2030, 1, 1, tzinfo=UTC)))
    assert "Give orders." in content and "<t:1893456000:R>" in content
    ids = [c["custom_id"] for row in components(view) for c in row["components"]]
    assert ids == ["adm:12:34:2:sel:0.0.0.0", "adm:12:34:2:sub:0"]
    check_limits(view)


def test_several_specs_give_one_button_each() -> None:
    specs = [ActionSpec(type="bank", label="Bank"),
             ActionSpec(type="move", label="Move", fields=[field("to", 3)]),
             ActionSpec(type="burn", label="Burn", confirm="Costs 2 fuel.")]
    content, view = render(panel(*specs))
    ids = [c["custom_id"] for row in components(view) for c in row["components"]]
    # No fields and no confirm: submits at once; otherwise opens the spec's page.
    assert ids == ["adm:12:34:2:sub:0", "adm:12:34:2:open:1", "adm:12:34:2:open:2"]
    content, view = render(panel(*specs), Mode(spec=2))
    assert "Costs 2 fuel." in content
    labels = [c.get("label") for row in components(view) for c in row["components"]]
    assert labels == ["Submit", "Back"]


def test_a_field_of_60_options_is_split_into_selects_of_25() -> None:
    content, view = render(panel(ActionSpec(type="t", label="T", fields=[field("n", 60)])))
    check_limits(view)
    selects = [c for row in components(view) for c in row["components"] if c["type"] == 3]
    assert [len(s["options"]) for s in selects] == [25, 25, 10]
    assert all(s["min_values"] == 0 for s in selects)


def test_many_fields_page_with_prev_and_next() -> None:
    spec = ActionSpec(type="t", label="T", fields=[field(f"f{i}", 30) for i in range(4)])
    assert page_count(spec) == 2  # 8 selects, 4 a page
    _content, view = render(panel(spec), Mode(spec=0, page=0))
    check_limits(view)
    labels = [c.get("label") for row in components(view) for c in row["components"]]
    assert "Next ▶" in labels and "◀ Prev" not in labels
    _content, view = render(panel(spec), Mode(spec=0, page=1))
    labels = [c.get("label") for row in components(view) for c in row["components"]]
    assert "◀ Prev" in labels and "Next ▶" not in labels


@settings(max_examples=examples(40), deadline=None)
@given(
    sizes=st.lists(
        st.lists(st.integers(min_value=0, max_value=120), min_size=0, max_size=7),
        min_size=1, max_size=30,
    ),
    spec=st.integers(min_value=-1, max_value=30),
    page=st.integers(min_value=0, max_value=10),
)
def test_any_request_renders_within_discord_limits(
    sizes: list[list[int]], spec: int, page: int
) -> None:
    specs = [ActionSpec(type=f"a{i}", label=f"Action {i}" * 20,
                        fields=[field(f"f{j}", n, max_values=3) for j, n in enumerate(fields)])
             for i, fields in enumerate(sizes)]
    content, view = render(panel(*specs), Mode(spec=None if spec < 0 else spec, page=page))
    assert len(content) <= 2000
    check_limits(view)


def _matching(custom_id: str) -> list[tuple[str, dict[str, str | None]]]:
    """The registered panel item classes whose template takes the id (discord.py runs each
    of them), with the named groups read."""
    found = []
    for cls in panel_items.PANEL_ITEMS:
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            found.append((cls.__name__, match.groupdict()))
    return found


# Ids as panels sent before issue 17 carry them, in DMs that may be clicked long after: the
# one verb class for each, with its named groups.
OLD_IDS = {
    "adm:1:2:3:open:0": ("OpenButton", {"spec": "0"}),
    "adm:1:2:3:back": ("BackButton", {}),
    "adm:1:2:3:page:0.1": ("PageButton", {"spec": "0", "page": "1"}),
    "adm:1:2:3:sub:4": ("SubmitButton", {"spec": "4"}),
    "adm:1:2:3:num:0.6.1": ("NumberButton", {"spec": "0", "field": "6", "page": "1"}),
    "adm:1:2:3:sel:0.1.2.3": ("ChoiceSelect",
                              {"spec": "0", "field": "1", "chunk": "2", "page": "3"}),
}


@pytest.mark.parametrize("custom_id", sorted(OLD_IDS))
def test_an_old_id_is_read_by_its_verb_alone(custom_id: str) -> None:
    name, numbers = OLD_IDS[custom_id]
    assert _matching(custom_id) == [
        (name, {"campaign": "1", "step": "2", "seat": "3", **numbers})]


@pytest.mark.parametrize("custom_id", [
    "adm:1:2:3:open:x", "adm:1:2:3:open:0.0.0.0.0", "adm:1:2:open:0", "adm:1:2:3:nope",
    "adm:-1:2:3:open:0", "adm:\u0661:2:3:open:0", "adm:1:2:3:page:0", "adm:1:2:3:sub:-1",
    "adm:1:2:3:open:0\n", "adm:", "adm:1:1",
])
def test_any_other_id_of_ours_is_left_to_the_refusal_alone(custom_id: str) -> None:
    assert [name for name, _ in _matching(custom_id)] == ["UnreadableId"]


def test_ids_beyond_64_bits_name_no_panel() -> None:
    template = panel_items.OpenButton.__discord_ui_compiled_template__
    largest, beyond = (template.fullmatch(f"adm:{n}:2:3:open:0") for n in (2**63 - 1, 2**63))
    assert largest is not None and PanelKey.of_match(largest) == PanelKey(2**63 - 1, 2, 3)
    assert beyond is not None and PanelKey.of_match(beyond) is None


def test_every_id_a_panel_carries_is_read_by_one_verb() -> None:
    spec = ActionSpec(type="t", label="T", fields=[field(f"f{i}", 30) for i in range(6)])
    numbers = InputField(name="n", label="N", options=[], kind="number", minimum=0,
                         maximum=9)
    with_number = ActionSpec(type="u", label="U", fields=[numbers])
    views = [render(panel(spec, with_number), Mode(spec=s, page=p))[1]
             for s in (None, 0, 1) for p in (0, 1)]
    ids = {c.custom_id for v in views for c in v.children}  # type: ignore[attr-defined]
    assert {i.split(":")[4] for i in ids} == {"open", "back", "page", "sub", "num", "sel"}
    for custom_id in ids:
        found = _matching(custom_id)
        assert len(found) == 1 and found[0][0] != "UnreadableId", (custom_id, found)


def test_build_action_uses_the_drafts_and_refuses_missing_choices() -> None:
    spec = ActionSpec(type="move", label="Move",
                      fields=[field("to", 3), field("ships", 5, max_values=3, min_values=0)])
    p = panel(spec, draft={"move": {"to": ["v2"], "ships": ["v1", "v4"]}})
    assert build_action(p, spec) == {"type": "move", "to": "v2", "ships": ["v1", "v4"]}
    # the panel says it with the service's words (bot.campaign.summaries): a lone spec's
    # button label is not repeated, an empty field is not listed (issue 17 item 7)
    assert describe_action(p.request, build_action(p, spec)) == (
        "To: Option 2; Ships: Option 1, Option 4"
    )
    two = panel(spec, ActionSpec(type="hold", label="Hold"),
                draft={"move": {"to": ["v2"], "ships": []}})
    assert describe_action(two.request, build_action(two, spec)) == "Move (To: Option 2)"
    with pytest.raises(InvalidInput, match="Choose To first"):
        build_action(panel(spec), spec)


def test_merge_keeps_choices_made_in_the_other_parts_of_a_split_field() -> None:
    many = field("n", 60, max_values=5)
    assert merge_chunk(many, 1, ["v1", "v30"], ["v31"]) == ["v1", "v31"]
    single = field("n", 60)
    assert merge_chunk(single, 2, ["v1"], ["v55"]) == ["v55"]
    assert merge_chunk(single, 2, ["v1"], []) == ["v1"]


def test_o15_the_requests_default_is_preselected_until_the_player_chooses() -> None:
    """Orbits' discard panel opens with the proposal chosen (O-15): Submit alone accepts it."""
    spec = ActionSpec(type="discard", label="Discard",
                      fields=[field("cards", 5, max_values=5)])
    request = Request(seat=2, kind="sealed", step="discard", prompt="Discard.",
                      actions=[spec], default={"type": "discard", "cards": ["v3", "v4"]})
    fresh = Panel(campaign_id=1, step_no=2, seat=2, request=request, draft={},
                  submitted=None, deadline=None)
    assert build_action(fresh, spec) == {"type": "discard", "cards": ["v3", "v4"]}
    chosen = Panel(campaign_id=1, step_no=2, seat=2, request=request,
                   draft={"discard": {"cards": ["v0"]}}, submitted=None, deadline=None)
    assert build_action(chosen, spec) == {"type": "discard", "cards": ["v0"]}


def test_a_required_field_with_one_option_is_preselected() -> None:
    spec = ActionSpec(type="depart", label="Depart", fields=[field("origin", 1), field("to", 3)])
    p = panel(spec, draft={})
    with pytest.raises(InvalidInput, match="Choose To first"):
        build_action(p, spec)
    p = panel(spec, draft={"depart": {"to": ["v2"]}})
    assert build_action(p, spec) == {"type": "depart", "origin": "v0", "to": "v2"}


# ---------------------------------------------------------------- issue 10, item 9


def labels_by_row(view: discord.ui.View) -> list[list[str]]:
    return [[c.get("label") or c.get("placeholder") for c in row["components"]]
            for row in components(view)]


def test_each_field_keeps_its_default_until_that_field_is_changed() -> None:
    """Before: a choice in one field dropped the request's default for every other field."""
    spec = ActionSpec(type="orders", label="Orders", fields=[field("a", 3), field("b", 3)])
    request = Request(seat=2, kind="sealed", step="orders", prompt="Orders.", actions=[spec],
                      default={"type": "orders", "a": "v1", "b": "v2"})
    changed = Panel(campaign_id=1, step_no=2, seat=2, request=request,
                    draft={"orders": {"b": ["v0"]}}, submitted=None, deadline=None)
    assert build_action(changed, spec) == {"type": "orders", "a": "v1", "b": "v0"}
    _content, view = render(changed)
    shown = {c["placeholder"]: [o["value"] for o in c["options"] if o.get("default")]
             for row in components(view) for c in row["components"] if c["type"] == 3}
    assert shown == {"A": ["v1"], "B": ["v0"]}


def test_split_menus_are_labelled_by_the_options_they_hold() -> None:
    """Before: the second menu of 0..59 said "(26-50)" and began at 25."""
    numbers = InputField(name="n", label="N", max_values=3, min_values=0,
                         options=[Option(value=str(k), label=str(k)) for k in range(60)])
    _content, view = render(panel(ActionSpec(type="t", label="T", fields=[numbers])))
    placeholders = [c["placeholder"] for row in components(view) for c in row["components"]
                    if c["type"] == 3]
    assert placeholders == ["N (0-24)", "N (25-49)", "N (50-59)"]
    _content, view = render(panel(ActionSpec(type="t", label="T", fields=[field("w", 30)])))
    placeholders = [c["placeholder"] for row in components(view) for c in row["components"]
                    if c["type"] == 3]
    assert placeholders == ["W (Option 0 to Option 24)", "W (Option 25 to Option 29)"]


def test_wide_numbers_get_one_button_that_opens_a_text_box() -> None:
    typed = InputField(name="losses", label="Losses", options=[], kind="number", maximum=61)
    wide = InputField(name="n", label="N", options=[Option(value=str(k), label=str(k))
                                                    for k in range(40)])
    spec = ActionSpec(type="t", label="T", fields=[typed, wide, field("x", 3)])
    content, view = render(panel(spec, draft={"t": {"n": ["33"]}}))
    check_limits(view)
    assert labels_by_row(view) == [["Losses: enter a number (0-61)"], ["N: 33"], ["X"],
                                   ["Submit"]]
    ids = [c["custom_id"] for row in components(view) for c in row["components"]]
    assert ids[:2] == ["adm:12:34:2:num:0.0.0", "adm:12:34:2:num:0.1.0"]
    # the numbers do not show in a menu, so the content lists what Submit sends
    assert "- Losses: not chosen yet" in content and "- N: 33" in content
    with pytest.raises(InvalidInput, match="Choose Losses first"):
        build_action(panel(spec), spec)


def test_paged_spec_names_its_page_and_lists_every_page() -> None:
    spec = ActionSpec(type="t", label="Orders", fields=[field(f"f{i}", 3) for i in range(6)])
    p = panel(spec, draft={"t": {f"f{i}": ["v1"] for i in range(6)}})
    content, _view = render(p, Mode(spec=0, page=0))
    assert "**Orders** (page 1/2)" in content
    assert "- F5: Option 1" in content  # a field of page 2, seen on page 1
    content, _view = render(p, Mode(spec=0, page=1))
    assert "**Orders** (page 2/2)" in content
    content, _view = render(panel(ActionSpec(type="t", label="One", fields=[field("a", 3)])))
    assert "page" not in content and "Submit sends" not in content


def test_destructive_specs_are_red_alone_and_open_a_confirmation() -> None:
    """HRFT's own Ready and Concede: Concede was a blue button beside Ready."""
    from bot.rules.hrft.requests import CONCEDE, READY

    specs = [ActionSpec(type="fire", label="Fire", fields=[field("w", 3)]), READY, CONCEDE]
    _content, view = render(panel(*specs))
    check_limits(view)
    layout = components(view)
    assert [[c["label"] for c in row["components"]] for row in layout] == [
        ["Fire", "Ready"], ["Concede"]]
    concede = layout[1]["components"][0]
    assert concede["style"] == discord.ButtonStyle.danger.value
    assert concede["custom_id"] == "adm:12:34:2:open:2"  # never submits at once
    assert layout[0]["components"][1]["style"] == discord.ButtonStyle.primary.value
    content, view = render(panel(*specs), Mode(spec=2))
    assert "your side leaves the battle" in content and "cannot be undone" in content
    buttons = [c for row in components(view) for c in row["components"]]
    assert [(b["label"], b["style"]) for b in buttons] == [
        ("Confirm: Concede", discord.ButtonStyle.danger.value),
        ("Back", discord.ButtonStyle.secondary.value)]


@settings(max_examples=examples(30), deadline=None)
@given(plain=st.integers(min_value=0, max_value=25), harmful=st.integers(min_value=0,
                                                                         max_value=6))
def test_destructive_rows_keep_within_discord_limits(plain: int, harmful: int) -> None:
    specs = [ActionSpec(type=f"a{i}", label=f"A{i}") for i in range(plain)]
    specs += [ActionSpec(type=f"d{i}", label=f"D{i}", destructive=True) for i in range(harmful)]
    _content, view = render(panel(*specs) if specs else panel(ActionSpec(type="x", label="X")))
    check_limits(view)
    for row in components(view):
        kinds = {c["label"][0] for c in row["components"]}
        assert len(kinds) == 1  # destructive and ordinary buttons never share a row
