"""A panel answers only the holder of its seat (issue 8, part 1).

Every role other than the seat's holder, pressing any verb of alice's panel (a real copy of
it, or a forged one with every part of the custom id guessed), gets an ephemeral refusal that
shows nothing of her seat, and nothing in the database changes. O-17 (only the owner knows a
face-down card) is why the GM and server admins are refused too."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import pytest_asyncio
import simcord

from tests.cogs.panel_forgery import (
    NOT_YOURS,
    SECRETS,
    answer_of,
    assert_refused,
    forge_dm,
    forge_in,
    ids_for,
    panel_parts,
    press,
)
from tests.cogs.simworld import World, custom_ids, fresh, last_panel, select_id
from tests.cogs.test_cog_lifecycle import guess, start
from tests.support.dbprint import fingerprint


@pytest.fixture(autouse=True)
def every_click_is_answered(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """discord.py drops a component silently (the user sees "interaction failed") when an
    item's factory raises; it logs that under discord.ui. None of that may happen here."""
    yield
    records = caplog.get_records("setup") + caplog.get_records("call")
    dropped = [r.getMessage() for r in records if r.name.startswith("discord.ui")]
    assert not dropped, dropped


@dataclass
class Table:
    w: World
    db_path: Path
    cid: int
    step: int
    panel: discord.Message  # alice's real DM panel (seat 1)
    eve: simcord.MemberActor  # an admin of another server
    elsewhere: simcord.ChannelHandle  # a channel of that other server


@pytest_asyncio.fixture
async def table(world: World, db_path: Path) -> Table:
    """alice (seat 1) drafted and submitted a 4; bob (seat 2) drafted a 6 and owes his guess."""
    await start(world)
    await guess(world, "alice", "4")
    bob_panel = last_panel(world.bob)
    await world.bob.user.select(bob_panel, ["6"], custom_id=select_id(bob_panel))
    panel = fresh(world.alice, last_panel(world.alice))
    assert "Your guess: 4" in panel.content
    other = world.env.create_guild("Elsewhere")
    boss = other.create_role("Boss", permissions=discord.Permissions(manage_guild=True))
    eve = other.add_member(world.env.create_user("eve"), roles=[boss])
    elsewhere = other.create_text_channel("lobby")
    await world.env.settle()
    cid, step, seat = panel_parts(panel)
    assert seat == 1
    return Table(world, db_path, cid, step, panel, eve, elsewhere)


def clickers(t: Table) -> dict[str, tuple[object, object]]:
    """Each role with where it clicks: (actor in DM, actor in the server channel)."""
    w = t.w
    return {
        "another seat": (w.bob.user, w.bob),
        "the GM": (w.gm.user, w.gm),
        "a non-member": (w.carol.user, w.carol),
        "a server admin": (w.admin.user, w.admin),
        "another server's admin": (t.eve.user, t.eve),
    }


@pytest.mark.parametrize("role", ["another seat", "the GM", "a non-member", "a server admin",
                                  "another server's admin"])
async def test_every_verb_of_another_seats_panel_is_refused(table: Table, role: str) -> None:
    t = table
    in_dm, in_server = clickers(t)[role]
    ids = ids_for(t.cid, t.step, 1)
    dm_copy = await forge_dm(t.w, in_dm, ids)
    channel = t.elsewhere if role == "another server's admin" else t.w.chan
    server_copy = await forge_in(t.w, channel, ids)
    before = fingerprint(t.db_path)
    for custom_id in ids:
        assert_refused(await press(in_dm, dm_copy, custom_id))
        assert_refused(await press(in_server, server_copy, custom_id))
    assert fingerprint(t.db_path) == before
    # Alice's own panel is untouched and still hers.
    assert fresh(t.w.alice, t.panel).content == t.panel.content


async def test_another_seats_select_and_submit_do_not_act_for_the_clicker(table: Table) -> None:
    """Before: bob's Select on alice's panel saved a draft for bob's seat, and Submit sent
    bob's guess."""
    t = table
    before = fingerprint(t.db_path)
    copy = await forge_dm(t.w, t.w.bob.user, custom_ids(t.panel))
    for custom_id in custom_ids(t.panel):
        assert_refused(await press(t.w.bob.user, copy, custom_id))
    assert fingerprint(t.db_path) == before
    status = await t.w.bob.slash(t.w.chan, "campaign status")
    assert "bob" in status.response.content.split("Waiting for")[1]


async def test_the_holder_is_admitted_on_any_copy_of_her_panel(table: Table) -> None:
    """The control: the same forged message works for alice, so the refusals above come from
    who clicks, not from the copy."""
    t = table
    ids = ids_for(t.cid, t.step, 1)
    copy = await forge_dm(t.w, t.w.alice.user, ids)
    result = await press(t.w.alice.user, copy, ids[-1])  # the Select: a draft of "2"
    assert NOT_YOURS not in answer_of(result).content
    assert "Your guess" in fresh(t.w.alice, copy).content
    for verb in ("open:0", "back", "page:0.1"):  # each redraws her panel in place
        copy = await forge_dm(t.w, t.w.alice.user, ids)
        result = await press(t.w.alice.user, copy, f"adm:{t.cid}:{t.step}:1:{verb}")
        assert not result.ephemeral and "Guess the roll" in fresh(t.w.alice, copy).content


async def test_a_kicked_player_is_refused_on_her_old_panel(table: Table) -> None:
    t = table
    result = await t.w.gm.slash(t.w.chan, "gm kick", player=t.w.alice)
    assert "removed" in result.response.content
    before = fingerprint(t.db_path)
    # her real panel says the seat was freed and has no buttons left (P-6)
    freed = fresh(t.w.alice, t.panel)
    assert "freed by the GM" in freed.content and not custom_ids(freed)
    assert not any(secret in freed.content for secret in SECRETS)
    copy = await forge_dm(t.w, t.w.alice.user, ids_for(t.cid, t.step, 1))
    for custom_id in ids_for(t.cid, t.step, 1):
        assert_refused(await press(t.w.alice.user, copy, custom_id))
    assert fingerprint(t.db_path) == before


async def test_a_replaced_player_is_refused_and_the_new_holder_is_not(table: Table) -> None:
    t = table
    result = await t.w.gm.slash(t.w.chan, "gm replace", old=t.w.alice, new=t.w.carol)
    assert "takes over" in result.response.content
    before = fingerprint(t.db_path)
    # her real panel says the seat was handed over and has no buttons left (P-6)
    handed = fresh(t.w.alice, t.panel)
    assert "handed to another player" in handed.content and not custom_ids(handed)
    assert not any(secret in handed.content for secret in SECRETS)
    copy = await forge_dm(t.w, t.w.alice.user, ids_for(t.cid, t.step, 1))
    for custom_id in ids_for(t.cid, t.step, 1):
        assert_refused(await press(t.w.alice.user, copy, custom_id))
    assert fingerprint(t.db_path) == before
    # carol got seat 1's panel and may use it.
    carols = last_panel(t.w.carol)
    assert panel_parts(carols) == (t.cid, t.step, 1)
    result = await t.w.carol.user.select(carols, ["3"], custom_id=select_id(carols))
    assert NOT_YOURS not in answer_of(result).content


@pytest.mark.parametrize("custom_id", [
    "adm:424242:1:1:open:0",  # a campaign that does not exist
    f"adm:{2**63}:1:1:open:0",  # beyond SQLite's 64 bits
    f"adm:1:{2**63}:1:sub:0",
    f"adm:1:1:{2**64}:sel:0.0.0.0",
    "adm:99999999999999999999:1:1:open:0",  # 20 digits
    "adm:1:1:1:open:zz",  # garbage argument
    "adm:1:1:1:page:0.0.0.0.0",
    "adm:1:1:1:sub:-1",
    "adm:1:1:1:frob:0",  # no such verb
    "adm:1:1:1:sel:0.0.0.0",  # a Select id on a button
    "adm:1:1",
    "adm:",
])
async def test_crafted_ids_are_refused_cleanly(table: Table, custom_id: str) -> None:
    t = table
    before = fingerprint(t.db_path)
    copy = await forge_dm(t.w, t.w.bob.user, [custom_id], buttons_only="1:1:1:sel" in custom_id)
    result = await press(t.w.bob.user, copy, custom_id)
    text = assert_refused(result, expected="")
    assert "panel" in text
    assert fingerprint(t.db_path) == before


async def test_crafted_ids_with_the_holders_key_but_bad_arguments_are_stale(table: Table) -> None:
    """The holder pressing an argument her panel does not have is told the panel is old."""
    t = table
    # (num:0.0.0 names a field that is a menu, not a number: no Modal opens)
    ids = [f"adm:{t.cid}:{t.step}:1:open:9", f"adm:{t.cid}:{t.step}:1:sel:0.3.0.0",
           f"adm:{t.cid}:{t.step}:1:num:0.0.0"]
    before = fingerprint(t.db_path)
    copy = await forge_dm(t.w, t.w.alice.user, ids)
    for custom_id in ids:
        assert_refused(await press(t.w.alice.user, copy, custom_id), expected="step that is over")
    assert fingerprint(t.db_path) == before


async def test_the_gm_seat_panel_answers_the_gm_only(world: World, db_path: Path) -> None:
    """A GM-seat panel (the mixed rule set's approval): players and a server admin are refused
    (decision in cogs/panel_guard.py: admins act as GM through /gm, not through the GM's
    panels); the GM is admitted."""
    from tests.cogs.test_foundation_orders import reach_gm_step
    from tests.support import mixed

    mixed.register()

    await reach_gm_step(world)
    gm_panel = last_panel(world.gm)
    cid, step, seat = panel_parts(gm_panel)
    assert seat == 0
    ids = list(dict.fromkeys(custom_ids(gm_panel) + ids_for(cid, step, 0)))
    before = fingerprint(db_path)
    other = world.env.create_guild("Elsewhere")
    boss = other.create_role("Boss", permissions=discord.Permissions(manage_guild=True))
    eve = other.add_member(world.env.create_user("eve"), roles=[boss])
    lobby = other.create_text_channel("lobby")
    await world.env.settle()
    places = [(m, world.chan) for m in (world.alice, world.bob, world.carol, world.admin)]
    for member, channel in [*places, (eve, lobby)]:
        copy = await forge_in(world, channel, ids)
        for custom_id in ids:
            result = await press(member, copy, custom_id)
            answer = answer_of(result)
            assert answer.ephemeral and NOT_YOURS in answer.content
            assert "approve" not in answer.content
    assert fingerprint(db_path) == before
    await world.gm.user.click(gm_panel, label="Approve")
    assert "The GM approves round 1." in "\n".join(m.content for m in world.chan.history())


def test_the_secrets_list_matches_what_the_panel_shows() -> None:
    """The refusal checks look for words the panel really carries (see ``table``)."""
    assert "Your guess" in SECRETS and "Guess the roll" in SECRETS


async def test_submit_is_acknowledged_before_the_step_resolves(
    world: World, guess_rules: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord allows 3 seconds for the first answer: the Submit that completes the step
    answers (a deferred update) before the rules resolve, then edits the panel."""
    env = world.env
    seen_at_resolve: list[list[tuple[str, str, object]]] = []
    real = type(guess_rules).resolve

    def recording(self: object, *args: object) -> object:
        seen_at_resolve.append([(e.method, e.path, e.json) for e in env.http_requests])
        return real(self, *args)

    monkeypatch.setattr(type(guess_rules), "resolve", recording)
    await start(world)
    await guess(world, "alice", "4")
    panel = last_panel(world.bob)
    await world.bob.user.select(panel, ["6"], custom_id=select_id(panel))
    submit_id = next(i for i in custom_ids(fresh(world.bob, panel)) if ":sub:" in i)
    count = len(env.http_requests)
    result = await world.bob.user.click(fresh(world.bob, panel), custom_id=submit_id)
    assert len(seen_at_resolve) == 1
    before = seen_at_resolve[0][count:]
    callbacks = [json for method, path, json in before if path.endswith("/callback")]
    assert callbacks == [{"type": 6}], before  # the click's only answer so far: deferred
    assert result.deferred
    # ... and then bob, active and asked nothing more, has his panel message turned into
    # his news (his guess locked, P-9); the click's own reply does not overwrite it
    assert not any(e.method == "PATCH" and e.path.endswith("/messages/@original")
                   for e in env.http_requests[count:])
    news = fresh(world.bob, panel)
    assert "locked as 6" in news.content and not custom_ids(news)


CARD_MARKS = ("♣", "♠", "♥", "♦", "Joker")


async def test_an_orbits_hand_stays_with_its_holder(world: World, db_path: Path) -> None:
    """O-17: only the owner knows a face-down card. Before, a kicked player's old DM panel,
    and a copy of it pressed by the other player, showed the seat's current hand."""
    from tests.cogs.test_orbits_discord import open_orbits, seed_campaigns
    from tests.cogs.test_orbits_discord import panel as orbits_panel

    seed_campaigns(world.env.bot)
    await open_orbits(world)
    await world.alice.user.click(orbits_panel(world.alice), label="Depart from Home of alice")
    old = orbits_panel(world.alice)  # now on the page that offers her cards
    assert any(mark in str(c.to_dict()) for r in old.components for c in r.children
               for mark in CARD_MARKS), "the panel offers her cards"
    ids = custom_ids(old)
    cid, step, _ = panel_parts(old)
    crafted = ids_for(cid, step, 1)
    copy = await forge_in(world, world.chan, [i for i in crafted if ":sel:" not in i])
    before = fingerprint(db_path)
    for custom_id in [i for i in crafted if ":sel:" not in i]:
        text = assert_refused(await press(world.bob, copy, custom_id))
        assert not any(mark in text for mark in CARD_MARKS)
    await world.gm.slash(world.chan, "gm kick", player=world.alice)
    before = fingerprint(db_path)
    # her real panel lost its buttons and shows no card (P-6); a copy of its ids is refused
    freed = fresh(world.alice, old)
    assert not custom_ids(freed) and not any(m in freed.content for m in CARD_MARKS)
    copy = await forge_dm(world, world.alice.user, ids)
    for custom_id in ids:
        text = assert_refused(await press(world.alice.user, copy, custom_id))
        assert not any(mark in text for mark in CARD_MARKS)
    assert fingerprint(db_path) == before


async def test_a_refused_submit_after_the_defer_is_still_ephemeral(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal comes after the deferred answer: it is a follow-up only the player sees,
    and the panel stays as it was."""
    from bot.errors import RulesError

    await start(world)

    async def refuse(*args: object, **kwargs: object) -> None:
        raise RulesError("Those orders break rule X.")

    monkeypatch.setattr(world.env.bot.service, "submit", refuse)
    panel = last_panel(world.alice)
    await world.alice.user.select(panel, ["3"], custom_id=select_id(panel))
    shown = fresh(world.alice, panel).content
    result = await world.alice.user.click(fresh(world.alice, panel), label="Submit")
    assert result.deferred
    answer = result.followups[0]
    assert answer.ephemeral and "Those orders break rule X." in answer.content
    assert fresh(world.alice, panel).content == shown
