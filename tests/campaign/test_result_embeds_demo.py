"""Result embeds through the real service, read from the outbox as the dispatcher sends it
(issue 10, items 4 and 6): each picture request sits in the message of the embed it belongs
to, and the FTCamp sector picture of a hex is drawn for that hex (E-D35)."""

from __future__ import annotations

import pytest

from tests.support.demos import Demos


@pytest.mark.slow
async def test_e_d34_each_sector_picture_is_in_its_own_hexs_embed(demos: Demos) -> None:
    played = await demos.play("ftcamp")
    sent = played.sent  # every message the demo's dispatcher sent, in order
    channel = [m for m in sent if m.kind == "channel"]
    # The fleet-order reveal carries the public hex map inside its embed.
    (reveal,) = [m for m in channel if any(e["title"].startswith("Fleet orders revealed")
                                           for e in m.embeds)]
    assert [p.renderer for p in reveal.pictures] == ["hexmap"]
    assert reveal.embeds[0]["image"] == "hexmap.png"
    assert reveal.pictures[0].view["viewer"] is None  # the public view
    lines = [f["value"] for f in reveal.embeds[0]["fields"]]
    assert "Home Guard: maintain-orbit, at 0304" in "\n".join(lines)
    # Every sector picture: in an embed of its own message, naming the hex it draws.
    drawn = []
    for m in channel:
        for pic in m.pictures:
            if pic.renderer != "sector":
                continue
            (embed,) = [e for e in m.embeds if e["image"] == pic.name]
            hex_name = pic.view["sector"]["hex"]
            assert embed["title"].startswith(f"Allocation, hex {hex_name}"), embed["title"]
            drawn.append(hex_name)
    assert drawn == ["0304", "0505", "0602"]  # each contested hex once, in play order
    # ... and never under the next hex's opening line (the old bug)
    assert not [m for m in channel if m.embeds and "**Engage phase" in m.content]
    # The transcript shows the embeds as quoted blocks with the picture inside.
    text = (played.folder / "channel.md").read_text()
    assert "> **Fleet orders revealed, round 1**" in text
    assert "> ![hexmap.png](img-001-hexmap.png)" in text
    assert "part(s)" not in text


@pytest.mark.slow
async def test_hrft_fire_reports_carry_the_sheet_inside_and_a_field_per_weapon(
        demos: Demos) -> None:
    sent = (await demos.play("hrft")).sent
    fire = [(m, e) for m in sent if m.kind == "channel" for e in m.embeds
            if " fires at " in e["title"]]
    assert fire
    for message, embed in fire:
        # H-D46: a step's post carries the sheet of each ship hit, inside the newest embed
        # about that ship (an earlier shot at it shows no picture of its own)
        names = {p.name for p in message.pictures}
        assert embed["image"] is None or (embed["image"] in names
                                          and embed["image"].startswith("sheet-"))
        shown = [e["image"] for e in message.embeds if e.get("image")]
        assert len(shown) == len(set(shown))
        assert any(e["image"] for e in message.embeds)
        weapons = [f for f in embed["fields"] if f["inline"]]
        assert weapons and all(" band " in f["name"] for f in weapons)
        rest = embed["fields"][len(weapons):]
        assert all(not f["inline"] and f["name"] == "Damage" for f in rest)
        assert "(H-" not in str(embed)
    (final,) = [e for m in sent for e in m.embeds if e["title"].startswith("The battle is over")]
    assert [f["name"] for f in final["fields"]] == ["Alice", "Bob"]
