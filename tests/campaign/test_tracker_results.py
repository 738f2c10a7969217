"""Results riding on their step's tracker message (H-D46, O-D28; bot/campaign/tracker.py):
one post per step, in reading order, several pictures in one message, within Discord's
limits."""

from __future__ import annotations

from typing import Any

from bot.campaign.tracker import Layout, Tracker
from storage.outbox import NewMessage, Picture


def result(title: str, field: str = "Result", value: str = "d6 4", image: str | None = None,
           renderer: str = "sheet") -> NewMessage:
    embed: dict[str, Any] = {"title": title, "description": "", "footer": "",
                             "fields": [{"name": field, "value": value, "inline": False}],
                             "image": image}
    pictures = [Picture(image, "hrft", renderer, {"v": title})] if image else []
    return NewMessage(1, "channel", "", channel_id=5, embeds=[embed], pictures=pictures)


def live(outbox_id: int | None = 7) -> Tracker:
    return Tracker("turn-1", "Turn 1: Ships fire", "Demo", outbox_id=outbox_id,
                   owed=["<@1>"], owed_seats=[1])


def test_h_d46_a_result_rides_on_the_step_message_when_it_is_the_last_post() -> None:
    t = live()
    layout = Layout(sink=t, live=t, title=t.title, last_post=7)
    assert layout.attach(result("Kestrel fires at Lynx", image="sheet-2a.png"))
    assert layout.attach(result("Harrier fires at Lynx", image="sheet-2a.png"))
    assert layout.line("Ships with damaged communications fire now.")
    layout.finish(t.title)
    assert layout.out == [t]  # no new post: an edit of the step's message
    assert [e["title"] for e in t.embeds] == ["Kestrel fires at Lynx", "Harrier fires at Lynx",
                                              ""]
    # one sheet per ship, the newest, shown in the newest embed about it
    assert [p["name"] for p in t.pictures] == ["sheet-2a.png"]
    assert t.pictures[0]["view"] == {"v": "Harrier fires at Lynx"}
    assert [e["image"] for e in t.embeds] == [None, "sheet-2a.png", None]
    # the line came after the results: it reads below them, not in the text above
    assert t.lines == [] and t.embeds[-1]["description"] == (
        "Ships with damaged communications fire now.")
    assert Tracker.from_data("turn-1", 7, t.data()).embeds == t.embeds  # survives a restart


def test_h_d46_a_tracker_that_is_not_the_last_post_starts_the_next_message() -> None:
    t = live()
    layout = Layout(sink=t, live=t, title=t.title, last_post=9)  # something is below it
    assert layout.attach(result("Kestrel fires at Lynx", image="sheet-2a.png"))
    layout.finish(t.title)
    old, nxt = layout.out
    assert old is t and not t.embeds and t.owed == []  # who is owed is said below
    assert nxt.outbox_id is None and [e["title"] for e in nxt.embeds] == [
        "Kestrel fires at Lynx"] and nxt.owed == ["<@1>"]


def test_h_d46_damage_control_folds_into_one_embed_and_keeps_every_ships_sheet() -> None:
    t = live()
    layout = Layout(sink=t, live=t, title=t.title, last_post=7)
    for ship, roll in (("1b", "Harrier: d6 2: no luck"), ("1b", "Harrier: d6 6: repaired"),
                       ("2b", "Jackal: d6 3: no luck")):
        assert layout.attach(result("Damage control", value=roll, image=f"sheet-{ship}.png"))
    (embed,) = t.embeds
    assert embed["fields"] == [{"name": "Result", "inline": False, "value":
                                "Harrier: d6 2: no luck\nHarrier: d6 6: repaired\n"
                                "Jackal: d6 3: no luck"}]
    assert sorted(p["name"] for p in t.pictures) == ["sheet-1b.png", "sheet-2b.png"]


def test_h_d46_a_picture_named_for_its_renderer_alone_is_a_picture_of_its_own() -> None:
    t = live()
    assert t.attach(*_parts(result("Map after turn 1", image="map.png", renderer="map")))
    assert t.attach(*_parts(result("Map after turn 2", image="map.png", renderer="map")))
    assert [p["name"] for p in t.pictures] == ["map.png", "map-2.png"]
    assert [e["image"] for e in t.embeds] == ["map.png", "map-2.png"]


def test_h_d46_discords_limits_hold_a_full_message_refuses_the_result() -> None:
    t = live()
    for i in range(10):
        assert t.attach(*_parts(result(f"Shot {i}")))
    before = t.data()
    assert not t.attach(*_parts(result("Shot 10")))  # an eleventh embed
    assert t.data() == before  # refused: nothing changed
    big = live()
    assert big.attach(*_parts(result("A", value="x" * 1000)))
    assert not big.attach(*_parts(result("A", value="y" * 100)))  # a field over 1024


def test_o_d28_a_new_step_takes_the_result_above_it_instead_of_status_alone() -> None:
    cur = live()
    new = Tracker("turn-1-battle-0", "Turn 1: battle at Orbit 1, losses", "Demo",
                  owed=["<@1>", "<@2>"])
    layout = Layout(sink=cur, live=new, closing=cur, new=new, title=new.title, last_post=7)
    assert layout.opens_new
    card = result("Battle at Orbit 1", field="Alice, attack", value="5♠")
    layout.post([card])
    layout.candidate = card
    assert layout.line("Bob discards A♠.")
    layout.finish(new.title)
    assert card not in layout.out  # the new step's message is the card's post
    assert layout.out[-1] is new and new.outbox_id is None
    assert [e["title"] for e in new.embeds] == ["Battle at Orbit 1", ""]
    assert new.embeds[-1]["description"] == "Bob discards A♠." and new.lines == []
    assert not new.results  # a result it opened with: the next step may share its post


def _parts(message: NewMessage) -> tuple[list[dict[str, Any]], list[Picture]]:
    return message.embeds, message.pictures
