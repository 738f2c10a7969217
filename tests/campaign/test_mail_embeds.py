"""The channel messages of one resolution keep the order things happened in: each run of
result embeds goes on the message of the text just before it, text after it starts a new
message (so a hex's picture never sits under the next hex's opening line)."""

from __future__ import annotations

from bot.campaign.steps import Mail
from bot.rules.base import Embed
from storage.outbox import Picture

SECTOR = Picture("sector.png", "ftcamp", "sector", {"sector": {"hex": "0304"}})
MAP = Picture("map.png", "orbits", "map", {})


def test_embeds_follow_their_text_and_later_text_is_a_new_message() -> None:
    mail = Mail()
    mail.public.append("Raiders is placed in C-7")
    mail.public_embeds.append((1, Embed(title="Allocation, hex 0304"), SECTOR))
    mail.public_embeds.append((1, Embed(title="Battle list, hex 0304"), None))
    mail.public += ["Engage phase, hex 0505", "Waiting for orders from: Alice, Bob."]
    mail.public_files.append(MAP)  # a picture of no embed
    first, second = mail.channel_messages(7, 99)
    assert first.content == "Raiders is placed in C-7"
    assert [e["title"] for e in first.embeds] == ["Allocation, hex 0304",
                                                 "Battle list, hex 0304"]
    assert [e["image"] for e in first.embeds] == ["sector.png", None]
    assert [p.name for p in first.pictures] == ["map.png", "sector.png"]
    assert second.content == "Engage phase, hex 0505\nWaiting for orders from: Alice, Bob."
    assert second.embeds == [] and second.pictures == []
    assert {m.channel_id for m in (first, second)} == {99}


def test_an_embed_with_no_text_before_it_is_a_message_of_its_own() -> None:
    mail = Mail()
    mail.public_embeds.append((0, Embed(title="Fleet orders revealed, round 1"), MAP))
    mail.public.append("Engage phase, hex 0304")
    first, second = mail.channel_messages(7, 99)
    assert first.content == "" and first.embeds[0]["image"] == "map.png"
    assert second.content == "Engage phase, hex 0304"


def test_only_text_is_as_before() -> None:
    mail = Mail()
    mail.public += ["a", "b"]
    (only,) = mail.channel_messages(7, 99)
    assert only.content == "a\nb" and only.embeds == []
    assert Mail().channel_messages(7, 99) == []
