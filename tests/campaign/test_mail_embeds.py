"""A result event is a post of its own carrying its embed, the event's picture inside it
(``attachment://<name>``), and any other picture of the event on the same message."""

from __future__ import annotations

from types import SimpleNamespace

from bot.campaign.mail import Mail, PublicItem
from bot.campaign.step_posts import embed_posts
from bot.rules.base import Embed
from storage.outbox import Picture

SECTOR = Picture("sector.png", "ftcamp", "sector", {"sector": {"hex": "0304"}})
MAP = Picture("map.png", "orbits", "map", {})
CTX = SimpleNamespace(row=SimpleNamespace(id=7, channel_id=99))


def posts(item: PublicItem) -> list:
    return embed_posts(CTX, item)  # type: ignore[arg-type]


def test_the_picture_goes_inside_its_embed() -> None:
    (only,) = posts(PublicItem("Allocation, hex 0304", True, [SECTOR],
                               Embed(title="Allocation, hex 0304", image=True)))
    assert only.content == "" and only.channel_id == 99 and only.campaign_id == 7
    assert [e["title"] for e in only.embeds] == ["Allocation, hex 0304"]
    assert only.embeds[0]["image"] == "sector.png"
    assert [p.name for p in only.pictures] == ["sector.png"]


def test_an_embed_without_image_leaves_its_pictures_on_the_message() -> None:
    (only,) = posts(PublicItem("Battle list", True, [MAP], Embed(title="Battle list", image=False)))
    assert only.embeds[0]["image"] is None
    assert [p.name for p in only.pictures] == ["map.png"]


def test_a_long_result_is_split_within_discords_limits() -> None:
    fields = [{"name": f"Group {i}", "value": "x" * 900} for i in range(40)]
    messages = posts(PublicItem("Engage", True, [], Embed.model_validate(
        {"title": "Engage orders", "fields": fields})))
    assert len(messages) >= 2
    for message in messages:
        assert len(message.embeds) <= 10
        size = sum(len(e.get("title") or "") + len(e.get("description") or "")
                   + sum(len(f["name"]) + len(f["value"]) for f in e.get("fields", []))
                   for e in message.embeds)
        assert size <= 6000
        assert all(len(e.get("fields", [])) <= 25 for e in message.embeds)
    shown = [f["name"] for m in messages for e in m.embeds for f in e.get("fields", [])]
    assert [n for n in shown if n.startswith("Group")] == [f"Group {i}" for i in range(40)]


def test_mail_keeps_a_result_as_a_post_with_its_embed() -> None:
    mail = Mail()
    mail.post("text kept for the log", [SECTOR], embed=Embed(title="Allocation", image=True))
    mail.line("Alice passes.")
    assert [(i.post, i.embed is not None) for i in mail.items] == [(True, True), (False, False)]
