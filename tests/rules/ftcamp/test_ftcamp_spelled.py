"""E-D44: RT, SF and EE are spelled out where they first appear in a post, once each."""

from __future__ import annotations

from bot.rules.base import Audience, Embed, Event, Outcome
from bot.rules.ftcamp import spelled


def test_each_short_name_is_spelled_out_once_per_post() -> None:
    seen: set[str] = set()
    assert spelled.spell_out("A: EE in 2 parts; B: EE+drop; C: RT+drop", seen) == (
        "A: EE (Engage) in 2 parts; B: EE+drop; C: RT+drop (Retreat)")
    assert spelled.spell_out("SF and SF", set()) == "SF (StandOff) and SF"
    assert spelled.spell_out("SF (StandOff) already", set()) == "SF (StandOff) already"
    assert spelled.spell_out("SEER, FREE, RTX", set()) == "SEER, FREE, RTX"


def test_the_text_and_the_embed_of_an_event_are_each_a_post() -> None:
    embed = Embed(title="Engage orders").field("A", "EE in 1 part").field("B", "EE in 2 parts")
    ev = Event(audience=Audience.public(), kind="engage_reveal", text="A: EE\nB: EE",
               embed=embed)
    spelled.outcome(Outcome(state={}, events=[ev]))
    assert ev.text == "A: EE (Engage)\nB: EE"
    assert [f.value for f in embed.fields] == ["EE (Engage) in 1 part", "EE in 2 parts"]
