"""Discord's embed limits kept in code (bot.rules.embed_limits) and the channel messages built
from result embeds (bot.campaign.embed_messages)."""

from __future__ import annotations

from bot.campaign import embed_messages as channel
from bot.rules import embed_limits as limits
from bot.rules.base import Embed
from storage.outbox import Picture


def _within(e: Embed) -> None:
    assert len(e.title) <= limits.TITLE and len(e.description) <= limits.DESCRIPTION
    assert len(e.fields) <= limits.FIELDS and len(e.footer) <= limits.FOOTER
    assert all(len(f.name) <= limits.FIELD_NAME and len(f.value) <= limits.FIELD_VALUE
               and f.name and f.value for f in e.fields)
    assert limits.size(e) <= limits.TOTAL


def test_a_small_embed_stays_one() -> None:
    e = Embed(title="Battle at Orbit 3").field("Bob", "7♦").field("Carol", "10♠")
    assert limits.fit(e) == [e]


def test_more_than_25_fields_go_on_in_a_continued_embed() -> None:
    e = Embed(title="Fleet orders", footer="end")
    for i in range(60):
        e.field(f"Group {i}", f"hold at {i:04d}", inline=True)
    parts = limits.fit(e)
    assert [len(p.fields) for p in parts] == [25, 25, 10]
    for p in parts:
        _within(p)
    assert parts[0].title == "Fleet orders"
    assert parts[1].title == "Fleet orders" + limits.MORE
    # nothing lost, in order; the footer closes the last one only
    assert [f.name for p in parts for f in p.fields] == [f"Group {i}" for i in range(60)]
    assert [p.footer for p in parts] == ["", "", "end"]


def test_over_6000_characters_split_over_embeds_and_messages() -> None:
    e = Embed(title="Fire report")
    for i in range(20):
        e.field(f"Weapon {i}", "\n".join(f"die {i}-{n}: " + "x" * 40 for n in range(25)))
    assert limits.size(e) > limits.TOTAL
    parts = limits.fit(e)
    assert len(parts) > 1
    for p in parts:
        _within(p)
    values = "\n".join(f.value for p in parts for f in p.fields)
    assert values.count("die ") == 500  # every line kept, long values in continued fields
    assert any(f.name == "Weapon 0" + limits.MORE for p in parts for f in p.fields)
    messages = limits.pack(parts)
    assert len(messages) > 1
    assert all(sum(limits.size(x) for x in m) <= limits.TOTAL for m in messages)
    assert [x for m in messages for x in m] == parts


def test_clipped_texts_say_so() -> None:
    e = Embed(title="T" * 300, footer="f" * 3000)
    e.field("n" * 300, "v")
    (part,) = limits.fit(e)
    _within(part)
    assert part.title.endswith(limits.CLIP) and part.footer.endswith(limits.CLIP)
    assert part.fields[0].name.endswith(limits.CLIP)


def test_a_long_description_is_continued() -> None:
    e = Embed(title="List", description="\n".join(f"line {i} " + "y" * 90 for i in range(80)))
    parts = limits.fit(e)
    assert len(parts) == 2 and parts[1].title == "List" + limits.MORE
    for p in parts:
        _within(p)
    assert "\n".join(p.description for p in parts) == e.description


def test_at_most_10_embeds_a_message() -> None:
    small = [Embed(title=f"Hex {i}").field("a", "b") for i in range(23)]
    assert [len(m) for m in limits.pack(small)] == [10, 10, 3]


def test_ruling_ids_are_left_out_of_embeds() -> None:
    e = Embed(title="Bob wins: reached 100 RP (O-8).", description="Tie (lower first, E-11)")
    e.field("Battle in B-4 (E-12.1)", "static (H-D12)")
    (part,) = limits.fit(e)
    assert part.title == "Bob wins: reached 100 RP."
    assert "(" not in part.fields[0].name and part.fields[0].value == "static"


def test_each_picture_goes_in_its_own_embed_with_a_name_of_its_own() -> None:
    sheet = Picture("sheet.png", "hrft", "sheet", {"ship": 1})
    other = Picture("sheet.png", "hrft", "sheet", {"ship": 2})
    items = [(Embed(title="A fires"), sheet), (Embed(title="B fires"), other),
             (Embed(title="No picture"), None)]
    ((embeds, files),) = channel.messages(items)
    assert [f.name for f in files] == ["sheet.png", "sheet-2.png"]
    assert [e["image"] for e in embeds] == ["sheet.png", "sheet-2.png", None]
    assert files[1].view == {"ship": 2}


def test_eleven_embeds_with_pictures_make_two_messages() -> None:
    items = [(Embed(title=f"Hex {i}"), Picture("sector.png", "ftcamp", "sector", {}))
             for i in range(11)]
    messages = channel.messages(items)
    assert [len(e) for e, _ in messages] == [10, 1]
    assert [len(f) for _, f in messages] == [10, 1]
    for embeds, files in messages:
        assert {e["image"] for e in embeds} == {f.name for f in files}
