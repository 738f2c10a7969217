"""Orbits played through Discord (simcord): /orbits hand and map, and a whole two-player
campaign on the DM panels, from /campaign create to the victory (O-1 to O-18)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import simcord

from bot.client import AdmiraltyBot
from tests.cogs.simworld import World, custom_ids, dm_texts, shown

# Campaign seed whose shuffle deals (checked by the tests through /orbits hand and the DMs):
# alice draws 6♣, 5♠, 7♥, 3♠ and bob 9♠, 9♥, 4♣, Joker in turns 1-4 (O-4, O-6).
SEED = 75


def seed_campaigns(bot: AdmiraltyBot, seed: int = SEED) -> None:
    """Every campaign the bot creates from now on gets this dice seed.

    The bot has no public way to fix a campaign's seed (the service takes ``seed_source`` at
    construction, inside ``setup_hook``), so the test sets the service's source directly."""
    bot.service._seed_source = lambda: seed  # noqa: SLF001 - test-only seam, see report


def public(channel: simcord.ChannelHandle) -> list[discord.Message]:
    """What everyone in the channel sees: no ephemeral replies."""
    return [m for m in channel.history() if not m.flags.ephemeral]


def public_text(channel: simcord.ChannelHandle) -> str:
    return "\n".join(shown(m) for m in public(channel))


def panel(member: simcord.MemberActor) -> discord.Message:
    """The member's newest DM that carries a panel."""
    for message in reversed(member.user.dm_channel.history()):
        if any(i.startswith("adm:") for i in custom_ids(message)):
            return message
    raise AssertionError(f"{member.name} has no panel in DM")


def _select_id(message: discord.Message, placeholder: str) -> str:
    for row in message.components:
        for child in getattr(row, "children", []):
            if isinstance(child, discord.SelectMenu) and (child.placeholder or "").startswith(
                placeholder
            ):
                assert child.custom_id is not None
                return child.custom_id
    found = [getattr(c, "placeholder", None) for r in message.components
             for c in getattr(r, "children", [])]
    raise AssertionError(f"no Select '{placeholder}' on the panel; there are {found}")


def options_of(message: discord.Message, placeholder: str) -> list[str]:
    """The option values of one Select of a panel."""
    for row in message.components:
        for child in getattr(row, "children", []):
            if isinstance(child, discord.SelectMenu) and (child.placeholder or "").startswith(
                placeholder
            ):
                return [o.value for o in child.options]
    raise AssertionError(f"no Select '{placeholder}'")


def labels(message: discord.Message) -> list[str]:
    return [c.label for r in message.components for c in getattr(r, "children", [])
            if isinstance(c, discord.Button) and c.label]


async def act(
    member: simcord.MemberActor,
    spec: str | None = None,
    choices: dict[str, list[str]] | None = None,
) -> Any:
    """Opens the action ``spec`` on the member's panel (unless the panel opens on it already),
    makes the choices (Select placeholder -> values) and submits; returns the submit result."""
    if spec is not None and spec in labels(panel(member)):
        await member.user.click(panel(member), label=spec)
    for placeholder, values in (choices or {}).items():
        message = panel(member)
        await member.user.select(message, values, custom_id=_select_id(message, placeholder))
    return await member.user.click(panel(member), label="Submit")


async def pass_turn(member: simcord.MemberActor) -> Any:
    return await member.user.click(panel(member), label="Pass")


async def open_orbits(w: World, target_rp: int = 10) -> None:
    """/campaign create (orbits), a low target via /campaign settings, two joins, start."""
    result = await w.gm.slash(w.chan, "campaign create", ruleset="orbits", name="Sol")
    assert not result.ephemeral, result.response.content
    result = await w.gm.slash(w.chan, "campaign settings", key="target_rp", value=str(target_rp))
    assert result.ephemeral and "target_rp" in result.response.content
    for member in (w.alice, w.bob):
        result = await member.slash(w.chan, "campaign join")
        assert "joined as seat" in result.response.content
    result = await w.gm.slash(w.chan, "campaign start")
    assert result.ephemeral


@dataclass
class Seen:
    """What changed in the channel since the last look: new posts and edited messages (the
    step tracker), each in its current form, in channel order."""

    content: str
    attachments: list[discord.Attachment]
    posts: int


class Watch:
    """Counts what reaches the channel between two moments (posts and edits)."""

    def __init__(self, channel: simcord.ChannelHandle) -> None:
        self.channel = channel
        self.shown = {m.id: shown(m) for m in public(channel)}

    def new(self) -> list[discord.Message]:
        messages = public(self.channel)
        fresh = [m for m in messages if self.shown.get(m.id) != shown(m)]
        self.shown = {m.id: shown(m) for m in messages}
        return fresh

    async def one(self, env: simcord.Env | None = None) -> Seen:
        """What one action changed: the tracker's edit and at most two new posts (a result,
        then the next step's tracker); DESIGN: routine lines edit the tracker."""
        before = set(self.shown)
        fresh = self.new()
        if not fresh and env is not None:
            await env.settle()  # the outbox dispatcher may still be sending
            fresh = self.new()
        posts = sum(1 for m in fresh if m.id not in before)
        assert fresh and posts <= 2, [m.content for m in fresh]
        # embeds included: a step's lines go on under the results riding on it (H-D46)
        return Seen("\n".join(shown(m) for m in fresh),
                    [a for m in fresh for a in m.attachments], posts)

    async def all(self, env: simcord.Env) -> str:
        """Everything new, embeds included, as one text."""
        await env.settle()
        return "\n".join(shown(m) for m in self.new())

    async def turn_end(self, env: simcord.Env) -> tuple[discord.Message, str]:
        """The end of a turn: the turn's tracker edited with its last lines and the map
        embed (the picture inside) riding on it, or on ONE new post when the tracker is not
        the channel's last message (H-D46), and the next turn's tracker. Returns the map
        message and all the text shown, embeds included."""
        before = set(self.shown)
        await env.settle()
        fresh = self.new()
        # (the turn's own message may still show the map it opened with, O-D28: the
        # newest map is the last one in channel order)
        maps = [m for m in fresh if any((e.title or "").startswith(
            "Map after the Deployment phase") for e in m.embeds)]
        assert maps, [shown(m) for m in fresh]
        maps = maps[-1:]
        embed = [e for e in maps[0].embeds
                 if (e.title or "").startswith("Map after the Deployment phase")][-1]
        assert embed.image.url == "attachment://map.png"
        assert sum(1 for m in fresh if m.id not in before) <= 3, [shown(m) for m in fresh]
        return maps[0], "\n".join(shown(m) for m in fresh)


PNG = b"\x89PNG\r\n\x1a\n"
HOUR = 3600.0
# Cards that stay face down all game: none of them may ever reach the channel (O-17).
NEVER_PUBLIC = ("7♥", "3♠", "4♣", "Joker")


# ---------------------------------------------------------------- /orbits hand and /orbits map


async def test_hand_and_map_have_descriptions(world: World, simcord_bot: AdmiraltyBot) -> None:
    group = simcord_bot.tree.get_command("orbits")
    assert isinstance(group, discord.app_commands.Group)
    commands = {c.name: c.description for c in group.commands}
    assert set(commands) == {"hand", "map"}
    assert all(len(d) > 10 for d in commands.values())


async def test_map_and_hand_refuse_outside_an_orbits_campaign(world: World) -> None:
    result = await world.alice.slash(world.other_chan, "orbits map")
    assert result.ephemeral and "no campaign" in result.response.content.lower()
    result = await world.alice.slash(world.other_chan, "orbits hand")
    assert result.ephemeral
    # A campaign of another rule set in the channel: refused, and it says why.
    await world.gm.slash(world.chan, "campaign create", ruleset="guess", name="Dice Cup")
    result = await world.alice.slash(world.chan, "orbits map")
    assert result.ephemeral and "not Orbits" in result.response.content
    assert not public(world.other_chan)
    assert not any(m.attachments for m in public(world.chan))


async def test_map_refuses_before_the_start(world: World) -> None:
    await world.gm.slash(world.chan, "campaign create", ruleset="orbits", name="Sol")
    result = await world.alice.slash(world.chan, "orbits map")
    assert result.ephemeral and "not started" in result.response.content


async def test_hand_is_ephemeral_and_shows_only_own_cards(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    seed_campaigns(simcord_bot)
    await open_orbits(world)
    result = await world.alice.slash(world.chan, "orbits hand")
    assert result.ephemeral
    text = result.response.content
    assert "Home of alice: face up J♠ Q♠ K♠; face down 6♣" in text
    assert "3 of 10 RP" in text
    assert "9♠" not in text  # bob's card
    result = await world.bob.slash(world.chan, "orbits hand")
    assert "face down 9♠" in result.response.content and "6♣" not in result.response.content
    # The GM holds no seat: no hand, and the reply says why.
    result = await world.gm.slash(world.chan, "orbits hand")
    assert result.ephemeral and "no seat" in result.response.content
    # In a DM the hand comes from the player's Orbits campaigns.
    result = await world.alice.user.slash("orbits hand")
    assert "face down 6♣" in result.response.content
    assert "6♣" not in public_text(world.chan)


async def test_map_is_posted_publicly_on_request(world: World, simcord_bot: AdmiraltyBot) -> None:
    seed_campaigns(simcord_bot)
    await open_orbits(world)
    watch = Watch(world.chan)
    result = await world.bob.slash(world.chan, "orbits map")
    assert not result.ephemeral
    message = await watch.one(world.env)
    assert "Map of **Sol**, turn 1" in message.content
    assert [a.filename for a in message.attachments] == ["orbits-map.png"]
    assert (await message.attachments[0].read()).startswith(PNG)


# ---------------------------------------------------------------- a whole campaign


async def test_a_whole_two_player_campaign_in_discord(
    world: World, simcord_bot: AdmiraltyBot
) -> None:
    """Transit, blockade, attack, retreat, a missed deadline, a battle with disputed reports
    settled by the GM, discards and the victory, every input on the DM panels."""
    w = world
    alice, bob, gm = w.alice, w.bob, w.gm
    seed_campaigns(simcord_bot)
    await open_orbits(w, target_rp=10)
    assert "Turn 1" in public_text(w.chan) and "Resources" in public_text(w.chan)
    assert any("You draw 6♣ at Home of alice" in t for t in dm_texts(alice))
    watch = Watch(w.chan)

    # Turn 1, Transit (O-9): both send their card to Orbit 1 (distance 1, O-3).
    await act(alice, "Depart from Home of alice",
              {"From": ["home:1"], "Cards": ["6C"], "Destination": ["orbit:1"]})
    seen = await watch.one(w.env)
    line = seen.content
    assert seen.posts == 0  # a routine line: the turn's tracker is edited
    assert "alice sends 1 face-down card from Home of alice to Orbit 1" in line
    assert "6♣" not in line and f"Waiting for <@{bob.user.id}>" in line
    await act(bob, "Depart from Home of bob",
              {"From": ["home:2"], "Cards": ["9S"], "Destination": ["orbit:1"]})
    # Nothing else to do for anyone (O-D2): deployment passes, the map, turn 2, one message.
    map_post, end_of_turn = await watch.turn_end(w.env)
    assert "bob sends 1 face-down card" in end_of_turn  # a line of the turn's tracker
    assert "Map after the Deployment phase of turn 1" in end_of_turn
    assert "**Turn 2** begins" in end_of_turn
    assert [a.filename for a in map_post.attachments] == ["map.png"]
    assert (await map_post.attachments[0].read()).startswith(PNG)
    assert any("Your map after the Deployment phase of turn 1" in t for t in dm_texts(alice))

    # Turn 2, Transit: the second cards follow; then both pass.
    await act(alice, "Depart from Home of alice",
              {"From": ["home:1"], "Cards": ["5S"], "Destination": ["orbit:1"]})
    await watch.one(w.env)
    await act(bob, "Depart from Home of bob",
              {"From": ["home:2"], "Cards": ["9H"], "Destination": ["orbit:1"]})
    await watch.one(w.env)
    await pass_turn(alice)
    assert "alice passes." in (await watch.one(w.env)).content
    await pass_turn(bob)
    assert "bob passes." in (await watch.one(w.env)).content

    # /orbits hand mid-game: own cards by area, the group in transit included.
    hand = await alice.slash(w.chan, "orbits hand")
    assert hand.ephemeral
    assert "Orbit 1: face down 6♣" in hand.response.content
    assert "In transit to Orbit 1 (1 token left): 5♠" in hand.response.content

    # Turn 2, Deployment (bob starts, O-D1): blockade, attack, retreat (O-10, O-12).
    await act(bob, "Deploy a fleet card", {"Fleet card": ["9S"], "Stance": ["blockade"]})
    assert "bob deploys 9♠ at Orbit 1 and declares BLOCKADE" in (await watch.one(w.env)).content
    await act(alice, "Deploy a fleet card", {"Fleet card": ["6C"], "Stance": ["attack"]})
    assert "alice deploys 6♣ at Orbit 1 and declares ATTACK" in (await watch.one(w.env)).content
    await act(bob, "Retreat", {"Area": ["orbit:1"]})
    assert "bob retreats at Orbit 1: 9♠ flip face down" in (await watch.one(w.env)).content
    await pass_turn(alice)
    await watch.one(w.env)
    await pass_turn(bob)
    _, end_of_turn = await watch.turn_end(w.env)  # one side shows fleet: no battle (O-13)
    assert "Map after the Deployment phase of turn 2" in end_of_turn
    assert "Battle" not in end_of_turn and "**Turn 3** begins" in end_of_turn

    # The map on request mid-turn: public, and the only extra message.
    result = await bob.slash(w.chan, "orbits map")
    assert not result.ephemeral
    assert (await watch.one(w.env)).attachments[0].filename == "orbits-map.png"

    # Turn 3: both pass the Transit; in Deployment alice misses her deadline (O-10 default).
    await pass_turn(alice)
    await watch.one(w.env)
    await pass_turn(bob)
    await watch.one(w.env)
    await act(bob, "Deploy a fleet card", {"Fleet card": ["9S"], "Stance": ["blockade"]})
    await watch.one(w.env)
    await act(alice, "Deploy a fleet card", {"Fleet card": ["5S"], "Stance": ["attack"]})
    assert "all 2 of their fleet cards there now attack" in (await watch.one(w.env)).content
    await act(bob, "Deploy a fleet card", {"Fleet card": ["9H"], "Stance": ["blockade"]})
    await watch.one(w.env)
    await w.env.advance_time(48 * HOUR + 60)  # the deadline passes: alice passes by default
    lapsed = "\n".join(shown(m) for m in watch.new())  # lines under its results (H-D46)
    # P-30: one line, the rule set's own event said as a default
    assert "alice missed the deadline and by default passes." in lapsed
    assert "pass by default" not in lapsed and f"Waiting for <@{bob.user.id}>" in lapsed
    await pass_turn(bob)
    await w.env.settle()
    posts = watch.new()  # the map and the battle card, then the battle's tracker
    battle = "\n".join(shown(m) for m in posts)
    assert "Map after the Deployment phase of turn 3" in battle
    (card,) = [e for m in posts for e in m.embeds if e.title == "Battle at Orbit 1"]
    assert {f.name: f.value for f in card.fields} == {
        "alice, attack": "5♠, 6♣\n11 system boxes, largest size class 2",
        "bob, blockade": "9♠, 9♥\n18 system boxes, largest size class 2"}
    [owed] = [line for line in battle.split("\n") if line.startswith("Waiting for")]
    assert f"<@{alice.user.id}>" in owed and f"<@{bob.user.id}>" in owed

    # Battle reports (O-15) differ: the GM is asked, the reports go to the GM only.
    await act(alice, None, {"alice's losses": ["6"], "bob's losses": ["9"], "Defeated": ["2"]})
    progress = (await watch.one(w.env)).content
    # the battle's tracker: alice is in (names only), bob is owed
    assert "Acted: alice." in progress and f"Waiting for <@{bob.user.id}>" in progress
    # (the battle card riding on the tracker, O-D28, shows the cards: only its text counts)
    assert "9" not in progress.split("\n", 2)[-1].split("Battle at Orbit 1")[0]
    await act(bob, None, {"alice's losses": ["11"], "bob's losses": ["3"], "Defeated": ["1"]})
    assert "the reports differ; the GM will enter the result" in (await watch.one(w.env)).content
    # The reports are a DM of their own just above the GM's panel, so they stay readable
    # while the GM clicks through the panel (which rewrites its own message).
    gm_dms = gm.user.dm_channel.history()
    assert "bob: alice lost 11 system boxes; bob lost 3 system boxes" in gm_dms[-2].content
    assert gm_dms[-1].id == panel(gm).id
    await act(gm, "Enter the result",
              {"alice's losses": ["5"], "bob's losses": ["9"], "Defeated": ["1"]})
    entered = await watch.all(w.env)  # the result embed, then the call for discards
    assert "Battle at Orbit 1: result (entered by the GM)" in entered
    assert "alice: lost 5 system boxes\nbob: lost 9 system boxes" in entered
    assert "Defeated: alice" in entered

    # Discards (O-15): the proposal is in the prompt; bob picks another card than proposed.
    assert "Proposal: 5♠" in panel(alice).content
    assert "Proposal: 9♠" in panel(bob).content
    await act(alice, None, {"Discard": ["5S"]})
    await watch.one(w.env)
    await act(bob, None, {"Discard": ["9H"]})
    final = await watch.all(w.env)
    assert "alice discards 5♠" in final and "bob discards 9♥" in final
    assert "alice's 1 remaining fleet card at Orbit 1 flips face down" in final
    # Turn 4: alice reaches the target after the Resource phase (O-8).
    assert "Resources: alice +3 → 10; bob +3 → 9 RP." in final
    assert "alice wins: reached 10 RP." in final  # the standings embed
    assert "bob: 9 RP\n53 cards left\n1 battle won" in final
    assert "The campaign is over." in final

    # Maps: one public map a turn after Deployment (turns 1-3), plus the one asked for.
    # (a turn's message may carry two: the one it opened with and its own, H-D46)
    maps = [a for m in public(w.chan) for a in m.attachments
            if a.filename.startswith("map") and a.filename.endswith(".png")]
    assert len(maps) == 3
    # Secrets never reached the channel: cards that stayed face down, the GM's reports.
    everything = public_text(w.chan)
    for card in NEVER_PUBLIC:
        assert card not in everything, card
    assert "lost 11" not in everything and "bob lost 3" not in everything
    assert not any(custom_ids(m) for m in public(w.chan))  # no panel in the channel
    hand = await alice.slash(w.chan, "orbits hand")
    assert hand.ephemeral  # her own cards stay hers after the end too

    # Issue 10: the finished campaign stays readable in its channel.
    status = (await bob.slash(w.chan, "campaign status")).response.content
    assert status.startswith("**Sol** (orbits): finished. alice wins: reached 10 RP.")
    assert "won by alice" in status and "O-8" not in status.split("\n")[0]
    drawn = await bob.slash(w.chan, "orbits map")
    assert not drawn.ephemeral
    assert (await drawn.response.attachments[0].read()).startswith(PNG)
    log = await gm.slash(w.chan, "gm log", limit=5)
    assert log.ephemeral and "**alice wins**" in log.response.content
    listed = (await gm.slash(w.chan, "campaign list")).response.content
    assert "Sol" not in listed and "finished:True" in listed
    listed = (await gm.slash(w.chan, "campaign list", finished=True)).response.content
    assert listed == f"**Sol** (orbits) in <#{w.chan.id}>: finished: alice wins: reached 10 RP."
    # actions are refused; a new campaign may start in the same channel
    refused = await gm.slash(w.chan, "gm advance")
    assert refused.ephemeral
    assert "no running campaign in this channel: **Sol** is over" in refused.response.content
    created = await gm.slash(w.chan, "campaign create", ruleset="orbits", name="Sol II")
    assert not created.ephemeral
    assert "**Sol II** (orbits): setup" in (
        await bob.slash(w.chan, "campaign status")).response.content
