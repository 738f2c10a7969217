"""The safe loader every uploaded file goes through: size, encoding, nesting and number sizes
are refused as InvalidInput with the reason, fast, and never as another exception."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import InvalidInput
from bot.rules import safe_load
from bot.rules.safe_load import MAX_DEPTH, MAX_INT_DIGITS, load_json, load_toml
from tests.support.examples import examples

DEEP = 90_000  # two-character units: 180 kB, just within the size limit
WIDE = 30_000  # six-character units


def refused(fn, *args) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInput) as info:
        fn(*args)
    return info.value.message


def test_size_is_checked_before_decoding() -> None:
    text = refused(load_json, b"\xff" * (safe_load.MAX_BYTES + 1), "'big.json'")
    assert "'big.json' is 201 kB; at most 200 kB is allowed" in text
    assert "at most 2 kB" in refused(load_toml, "x" * 2001, "Scenario", 2000)


def test_encodings_utf8_with_or_without_bom_and_utf16_named() -> None:
    assert load_json(b'\xef\xbb\xbf{"a": 1}', "f") == {"a": 1}
    assert load_toml("\ufeffa = 1", "f") == {"a": 1}
    assert "UTF-16" in refused(load_json, '{"a": 1}'.encode("utf-16"), "f")
    text = refused(load_toml, b"a = '\xe9t\xe9'", "'ship.toml'")  # Latin-1
    assert "'ship.toml' is not UTF-8 text (byte 5" in text and "save it as UTF-8" in text


@pytest.mark.parametrize("text", [
    "[" * DEEP + "]" * DEEP,
    '{"a":' * WIDE + "1" + "}" * WIDE,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),  # within Python's limit, beyond ours
])
def test_json_nested_too_deep_is_refused_quickly(text: str) -> None:
    message = refused(load_json, text, "'fleet.json'")
    assert message == (f"'fleet.json' is nested too deeply; at most {MAX_DEPTH} levels of "
                       "lists, tables or dotted keys are allowed.")


@pytest.mark.parametrize("text", [
    "a = " + "[" * DEEP + "]" * DEEP,
    "a = " + "{b = " * WIDE + "1" + "}" * WIDE,
    "a" + ".a" * DEEP + " = 1",  # tomllib is quadratic here: this once exhausted memory
    "[" + ".".join(["a"] * DEEP) + "]",
    "[[" + ".".join(['"q"'] * WIDE) + "]]",
    "a" + " . a" * MAX_DEPTH + " = 1",
])
def test_toml_nested_too_deep_is_refused_quickly(text: str) -> None:
    assert "nested too deeply" in refused(load_toml, text, "Scenario")


def test_depth_at_the_limit_is_read() -> None:
    keys = "a" + ".a" * (MAX_DEPTH - 1) + " = 1"
    data = load_toml(keys, "f")
    for _ in range(MAX_DEPTH - 1):
        data = data["a"]
    assert data == {"a": 1}
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_json(nested, "f") == json.loads(nested)
    # dots inside a text value are not keys
    assert load_toml('name = "' + "a." * 50 + '"', "f")["name"] == "a." * 50


@pytest.mark.parametrize(("fn", "text"), [
    (load_json, "1" * 5000),
    (load_json, '{"tmf": ' + "9" * (MAX_INT_DIGITS + 1) + "}"),
    (load_json, '{"tmf": -' + "9" * (MAX_INT_DIGITS + 1) + "}"),
    (load_toml, "mass = " + "1" * 5000),  # int() refuses beyond 4300 digits
    (load_toml, "mass = " + "1" * 4000),
    (load_toml, "mass = 0x" + "f" * 50_000),
    (load_toml, "mass = 1_000_000_000_000_000"),
])
def test_huge_integers_are_refused_with_the_limit(fn, text: str) -> None:  # type: ignore[no-untyped-def]
    message = refused(fn, text, "The file")
    assert message.startswith("The file holds")
    assert f"at most {MAX_INT_DIGITS} digits" in message


@pytest.mark.parametrize(("fn", "text"), [
    (load_json, '{"a": NaN}'), (load_json, '{"a": -Infinity}'), (load_json, '{"a": 1e999}'),
    (load_toml, "a = nan"), (load_toml, "a = -inf"), (load_toml, "a = 1e999"),
])
def test_non_finite_numbers_are_refused(fn, text: str) -> None:  # type: ignore[no-untyped-def]
    assert "finite" in refused(fn, text, "The file")


def test_largest_allowed_integer_is_read() -> None:
    assert load_json(str(safe_load.MAX_INT), "f") == safe_load.MAX_INT
    assert load_toml(f"a = {-safe_load.MAX_INT}", "f") == {"a": -safe_load.MAX_INT}


def test_syntax_errors_keep_their_location() -> None:
    assert refused(load_json, '{"a": ', "'x.json'").startswith("'x.json' is not valid JSON")
    assert "line 2" in refused(load_toml, "a = 1\nb = ?\n", "Scenario")


# ---------------------------------------------------------------- fuzz

JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                      st.text(max_size=20))
JSON_TREE = st.recursive(JSON_LEAF, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=5), kids, max_size=4)),
    max_leaves=40)


def nested(depth: int, kind: str) -> str:
    opens, closes = {"list": ("[", "]"), "table": ("{a = ", "}"), "obj": ('{"a": ', "}")}[kind]
    inner = "1" if kind != "list" else ""
    return opens * depth + inner + closes * depth


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda t: t.encode("utf-8")),
    st.text(max_size=100).map(lambda t: t.encode("utf-16")),
    JSON_TREE.map(lambda t: json.dumps(t, allow_nan=True).encode()),
    st.builds(nested, st.integers(0, 3000), st.sampled_from(["list", "obj"])).map(str.encode),
    st.integers(0, 6000).map(lambda n: ("9" * n or "0").encode()),
))
def test_fuzz_json_gives_data_or_invalid_input(data: bytes) -> None:
    try:
        obj = load_json(data, "f")
    except InvalidInput as exc:
        assert exc.message.startswith("f ")
        return
    safe_load.check_tree(obj, "f")  # whatever was read is within the limits


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300),
    st.builds(nested, st.integers(0, 3000), st.sampled_from(["list", "table"]))
    .map(lambda t: "a = " + t),
    st.integers(0, 3000).map(lambda n: "a" + ".a" * n + " = 1"),
    st.integers(0, 6000).map(lambda n: "a = " + ("7" * n or "0")),
    st.sampled_from(["nan", "inf", "-inf", "1e999", "0x" + "f" * 40, "1979-05-27", "true"])
    .map(lambda v: "a = " + v),
))
def test_fuzz_toml_gives_data_or_invalid_input(data: bytes | str) -> None:
    try:
        obj = load_toml(data, "f")
    except InvalidInput as exc:
        assert exc.message.startswith("f ")
        return
    assert isinstance(obj, dict)
    safe_load.check_tree(obj, "f")
