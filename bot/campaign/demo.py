"""Offline demo: a whole campaign played by scripted players through the real service.

``python -m bot demo RULESET`` runs this. It uses the same ``CampaignService`` the bot uses, on
a temporary SQLite file and a virtual clock, with no Discord: scripted players (the rule set's
``scripted_player(seat)``) choose from what their seat may see, the outbox is drained into a
transcript (``channel.md``, ``dm-<player>.md``, ``gm.md``, PNG pictures, ``summary.md``), and
the clock jumps to the next deadline whenever nobody can act.

``pace="human"`` (``--pace human``): each scripted player answers a panel only after a
seeded random delay, from minutes to most of the time left before the deadline, so panels
go idle and DMs notify as in real play; the summary's DMs per player per turn show it.
"""

from __future__ import annotations

import tempfile
from contextlib import nullcontext
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import storage
from bot.campaign import Actor, CampaignService, OutboxMessage, Panel
from bot.campaign.demo_record import (
    CHANNEL_ID,
    GM_USER_ID,
    GUILD_ID,
    NAMES,
    START,
    Asked,
    DemoResult,
    Recording,
)
from bot.campaign.demo_transcript import Transcript, prepare_folder
from bot.errors import InvalidInput, UserError, refusals_kept
from bot.rules import registry
from bot.rules.base import GM_SEAT, Request, Ruleset, ScriptedPlayer
from bot.rules.dice import SeededDice
from storage import campaigns as campaign_rows
from storage import missed
from storage.campaigns import CampaignRow
from storage.db import Database
from storage.status import Status

PACES = ("instant", "human")
MIN_THINK = timedelta(minutes=5)  # --pace human: the quickest answer to a panel
THINK_SHARE = 0.8  # ... and the slowest, as a share of the time left before the deadline
NO_DEADLINE_THINK = timedelta(hours=12)  # the slowest answer where a step has no deadline


class DemoFailed(RuntimeError):
    """The demo game did not finish (stuck, too many steps, a scripted player's illegal move)."""


class VirtualClock:
    """The demo's time: starts at a fixed moment and moves only when the demo moves it."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance_to(self, moment: datetime) -> None:
        # A second past the due time: a timer due exactly "now" fires on every reading of it.
        self.now = max(self.now, moment + timedelta(seconds=1))


def _seat_count(ruleset: Ruleset, players: int | None) -> int:
    count = ruleset.min_seats if players is None else players
    if not ruleset.min_seats <= count <= ruleset.max_seats:
        raise InvalidInput(
            f"{ruleset.name} is played by {ruleset.min_seats} to {ruleset.max_seats} players; "
            f"{count} asked for."
        )
    return count


def _scripted(ruleset: Ruleset, seat: int) -> ScriptedPlayer:
    return ruleset.scripted_player(seat)


class DemoRunner:
    """One demo game: the service, the clock, the scripted players and the transcript."""

    def __init__(
        self,
        service: CampaignService,
        db: Database,
        ruleset: Ruleset,
        clock: VirtualClock,
        seed: int,
    ) -> None:
        self.service = service
        self.db = db
        self.ruleset = ruleset
        self.clock = clock
        self.seed = seed
        self.gm = Actor(user_id=GM_USER_ID, name="GM")
        self.players: list[Actor] = []
        self.campaign_id = 0
        self._scripted: dict[int, ScriptedPlayer] = {}
        self._dice: dict[int, SeededDice] = {}
        self._message_id = 0
        self.absent: set[int] = set()
        self.pace = "instant"
        # --pace human: when each seat answers each panel, by (campaign, step, seat)
        self._answer_at: dict[tuple[int, int, int], datetime] = {}
        self._thinking: list[datetime] = []  # open panels whose answer is still ahead
        self.answer_waits = 0
        self.fought: set[str] = set()  # battles opened in their own campaign (E-D36)
        self.channel_id = CHANNEL_ID  # where the scripted GM's commands are given
        self.recording: Recording | None = None

    async def setup(self, seats: int, options: dict[str, str]) -> None:
        info = await self.service.create(
            self.gm, GUILD_ID, CHANNEL_ID, self.ruleset.name, f"Demo {self.ruleset.title}"
        )
        self.campaign_id = info.id
        for i in range(seats):
            name = NAMES[i] if i < len(NAMES) else f"Player {i + 1}"
            actor = Actor(user_id=GM_USER_ID + 1 + i, name=name)
            await self.service.join(actor, CHANNEL_ID)
            self.players.append(actor)
        if options:
            await self.service.settings(self.gm, CHANNEL_ID, options)
        await self.service.start(self.gm, CHANNEL_ID)

    async def row(self) -> CampaignRow:
        row = await campaign_rows.get(self.db, self.campaign_id)
        if row is None:
            raise DemoFailed(f"campaign {self.campaign_id} vanished")
        return row

    def state_of(self, row: CampaignRow) -> Any:
        return self.ruleset.state_model.model_validate(row.state)

    async def open_panel(self) -> tuple[Actor, Panel] | None:
        """The first panel someone still has to answer (GM first, then seat order); absent
        seats never answer, so their deadlines, reminders and defaults show in the demo. With
        ``pace`` human, a panel is answered only once its seat's delay for it has passed."""
        self._thinking = []
        for actor in (self.gm, *self.players):
            for panel in await self.service.panels_for(self.campaign_id, actor.user_id):
                if panel.submitted is None and panel.seat not in self.absent:
                    at = self._answer_time(panel)
                    if at <= self.clock():
                        return actor, panel
                    self._thinking.append(at)
        return None

    def _answer_time(self, panel: Panel) -> datetime:
        """When the seat answers this panel: at once, or (pace human) after a delay drawn
        from the seat's own seeded dice the first time the panel is seen."""
        if self.pace == "instant":
            return self.clock()
        key = (self.campaign_id, panel.step_no, panel.seat)
        if key not in self._answer_at:
            now = self.clock()
            left = panel.deadline - now if panel.deadline is not None else None
            slowest = (left * THINK_SHARE if left is not None and left > timedelta(0)
                       else NO_DEADLINE_THINK if left is None else MIN_THINK)
            spread = max(1, int((slowest - MIN_THINK).total_seconds() // 60))
            dice = self._dice.setdefault(-1 - panel.seat,
                                         SeededDice(self.seed, f"demo-pace:{panel.seat}"))
            self._answer_at[key] = now + MIN_THINK + timedelta(minutes=dice.d(spread) - 1)
        return self._answer_at[key]

    async def play(self, actor: Actor, panel: Panel) -> None:
        """Asks the seat's scripted player for an action and submits it."""
        seat = panel.seat
        request: Request = panel.request
        row = await self.row()
        if self.recording is not None:
            self.recording.asked.append(Asked(self.ruleset.name, request, row.state or {}))
        state = self.state_of(row)
        player = self._scripted.get(seat) or _scripted(self.ruleset, seat)
        self._scripted[seat] = player
        dice = self._dice.setdefault(seat, SeededDice(self.seed, f"demo-player:{seat}"))
        action = player.choose(self.ruleset.view(state, seat), request, dice)
        try:
            await self.service.submit(actor, self.campaign_id, panel.step_no, action, seat=seat)
        except UserError as exc:
            who = "the GM" if seat == GM_SEAT else f"seat {seat} ({actor.name})"
            raise DemoFailed(
                f"the scripted player of {who} chose an action the service refused at step "
                f"{panel.step_no} ({request.step}): {action!r}: {exc.message}"
            ) from exc

    async def fight_battle(self, transcript: Transcript, max_steps: int) -> bool:
        """E-D36: a battle the campaign waits for is fought in its own (HRFT) campaign by
        scripted players, through the same intent as ``/battle start``; its result then
        reaches the campaign's GM. False when there is none to fight (or it cannot be
        opened: the scripted GM then closes it as fought at the table)."""
        row = await self.row()
        state = self.state_of(row)
        when = self.ruleset.battle_round(state)  # E-D37: each battle of a round once
        refs = [r for r in self.ruleset.demo_battles(state)
                if f"{when}:{r}" not in self.fought]
        if not refs:
            return False
        self.fought.add(f"{when}:{refs[0]}")
        info = None
        for designs in ("", "auto"):  # E-D38: craft that name no design get the samples
            try:
                linked = await self.service.battle_link(self.gm, GUILD_ID, self.campaign_id,
                                                        refs[0], designs)
                name = (linked.name if linked is not None and linked.name
                        else f"Battle {refs[0]}")  # P-16: its round or turn in its name
                info = await self.service.open_battle(
                    self.gm, GUILD_ID, CHANNEL_ID + len(self.fought), name,
                    self.campaign_id, refs[0], designs)
                break
            except UserError:
                continue
        if info is None:
            return False
        child = DemoRunner(self.service, self.db, registry.get(info.ruleset), self.clock,
                           self.seed)
        child.campaign_id = info.id
        child.pace = self.pace
        child.channel_id = CHANNEL_ID + len(self.fought)
        child.recording = self.recording
        users = {p.user_id for p in info.seats}
        child.players = [a for a in self.players if a.user_id in users]
        for _ in range(max_steps):
            await child.drain(transcript)
            if (await child.row()).status == Status.ENDED:
                return True
            found = await child.open_panel()
            if found is not None:
                await child.play(*found)
            elif not await child.jump_clock() and not await child.gm_moves_on():
                raise DemoFailed(f"the battle {refs[0]} is stuck")
        raise DemoFailed(f"the battle {refs[0]} did not end within {max_steps} steps")

    async def gm_moves_on(self) -> bool:
        """Nobody can act and no deadline is left: where the rules name a way on for an
        input with no default (``Request.advance``; HRFT: a side with no ships stays out,
        H-D38), the scripted GM does what the deadline's DM says, /gm advance. Otherwise (a
        GM who chose to wait, on_deadline=wait) it does nothing: False."""
        owed = [panel.request for actor in self.players
                for panel in await self.service.panels_for(self.campaign_id, actor.user_id)
                if panel.submitted is None]
        if not any(r.default is None and r.advance is not None for r in owed):
            return False
        try:
            await self.service.gm_advance(self.gm, self.channel_id)
        except UserError:
            return False
        return True

    async def jump_clock(self) -> bool:
        """Moves the clock to the next deadline or reminder and fires it, or (pace human) to
        the next moment a scripted player answers, when that comes first; False if none."""
        wake = await self.service.next_wakeup()
        answer = min(self._thinking, default=None)
        if answer is not None and (wake is None or answer < wake):
            self.clock.now = max(self.clock.now, answer)
            self.answer_waits += 1
            return True
        if wake is None:
            return False
        self.clock.advance_to(wake)
        await self.service.run_due()
        return True

    async def drain(self, transcript: Transcript) -> None:
        while batch := await self.service.outbox_pending(100):
            for message in batch:
                await self._count_turn_post(transcript.result, message)
                files = await self.service.outbox_files(message)  # drawn as the bot does
                transcript.add(message, self.clock(), await self._panel_note(message), files)
                if message.edit_of is not None and message.target_message_id is not None:
                    await self.service.outbox_sent(message.id, message.target_message_id)
                    continue
                self._message_id += 1
                await self.service.outbox_sent(message.id, self._message_id)

    async def _count_turn_post(self, result: DemoResult, message: OutboxMessage) -> None:
        """A new channel post counts for the turn its campaign is in when it is drained
        (after each action): a turn's posts run from its first step's tracker to the last
        result before the next turn opens."""
        if message.kind != "channel" or message.edit_of is not None or not message.campaign_id:
            return
        row = await campaign_rows.get(self.db, message.campaign_id)
        if row is None or row.state is None or message.channel_id is None:
            return
        state = registry.get(row.ruleset).state_model.model_validate(row.state)
        turn = int(getattr(state, "turn", 0) or 0)
        if not turn:
            return
        key = (message.channel_id, turn)
        result.turn_posts[key] = result.turn_posts.get(key, 0) + 1
        if row.ruleset == "hrft" or str(getattr(state, "phase", "")).startswith("battle"):
            result.battle_turns.add(key)

    async def _panel_note(self, message: OutboxMessage) -> str:
        ref = message.panel
        if ref is None:
            return ""
        campaign_id, step_no, seat = ref.campaign_id, ref.step_no, ref.seat
        try:
            panel = await self.service.panel(campaign_id, step_no, seat)
        except UserError:  # that step is over by now
            return f"panel for step {step_no} (already closed)"
        labels = ", ".join(spec.label for spec in panel.request.actions)
        return f"panel for step {step_no}: {panel.request.prompt} [{labels}]"


async def run_demo(
    ruleset_name: str,
    folder: Path,
    *,
    seed: int = 1,
    players: int | None = None,
    max_steps: int = 2000,
    options: dict[str, str] | None = None,
    absent: set[int] | frozenset[int] = frozenset(),
    pace: str = "instant",
    record: bool = False,
) -> DemoResult:
    """Plays a campaign of ``ruleset_name`` to its end and writes the transcript to ``folder``.

    Raises ``NotFound``/``InvalidInput`` for a bad rule set or player count, and ``DemoFailed``
    (after writing what happened so far) when the game gets stuck or runs past ``max_steps``.
    Seats in ``absent`` never act: the clock runs to their deadlines and defaults apply.
    ``record``: the result keeps a ``Recording`` of what was sent and asked (for tests)."""
    ruleset = registry.get(ruleset_name)
    # A rule set with no end of its own (FTCamp) names options that make the demo finish.
    options = {**ruleset.demo_options, **(options or {})}
    seats = _seat_count(ruleset, players)
    _scripted(ruleset, 1)  # fail early, before any file is touched
    if not set(absent) <= set(range(1, seats + 1)):
        raise InvalidInput(f"--absent takes seat numbers 1 to {seats}; got {sorted(absent)}.")
    if pace not in PACES:
        raise InvalidInput(f"--pace is one of {', '.join(PACES)}; got {pace[:20]!r}.")
    prepare_folder(folder)
    clock = VirtualClock()
    names = [NAMES[i] if i < len(NAMES) else f"Player {i + 1}" for i in range(seats)]
    result = DemoResult(ruleset=ruleset.name, folder=folder, seed=seed, players=names,
                        pace=pace, recording=Recording() if record else None)
    user_names = {GM_USER_ID + 1 + i: n for i, n in enumerate(names)} | {GM_USER_ID: "GM"}
    transcript = Transcript(folder, result, user_names)
    kept = result.recording.refusals if result.recording is not None else None
    with (tempfile.TemporaryDirectory(prefix="admiralty-demo-") as tmp,
          refusals_kept(kept) if kept is not None else nullcontext()):
        db = await storage.open_database(Path(tmp) / "demo.db")
        try:
            # The seed is pinned (the bot draws a secret one) so the same seed replays the game.
            service = CampaignService(db, clock=clock, seed_source=lambda: seed,
                                      witness=result.recording.witness
                                      if result.recording is not None else None)
            runner = DemoRunner(service, db, ruleset, clock, seed)
            runner.absent = set(absent)
            runner.pace = pace
            runner.recording = result.recording
            try:
                await _play_to_the_end(runner, transcript, seats, options, max_steps)
            finally:
                await runner.drain(transcript)
                await _finish(runner, result, clock)
                transcript.write()
        finally:
            await db.close()
    return result


async def _play_to_the_end(
    runner: DemoRunner,
    transcript: Transcript,
    seats: int,
    options: dict[str, str],
    max_steps: int,
) -> None:
    result = transcript.result
    await runner.setup(seats, options)
    for _ in range(max_steps):
        await runner.drain(transcript)
        if (await runner.row()).status == Status.ENDED:
            return
        if await runner.fight_battle(transcript, max_steps):
            continue
        found = await runner.open_panel()
        if found is not None:
            await runner.play(*found)
            result.actions += 1
        elif await runner.jump_clock():
            result.clock_jumps += 1
        elif await runner.gm_moves_on():
            result.gm_advances += 1
        else:
            raise DemoFailed(
                "the game is stuck: nobody has a panel to answer and no deadline is set "
                f"(after {result.actions} actions)"
            )
    raise DemoFailed(f"the game did not end within {max_steps} steps (--max-steps)")


async def _finish(runner: DemoRunner, result: DemoResult, clock: VirtualClock) -> None:
    result.ended = clock()
    result.answer_waits = runner.answer_waits
    result.clock_jumps -= runner.answer_waits  # (counted as jumps by the main loop)
    if not runner.campaign_id:
        return
    row = await runner.row()
    result.finished = row.status == Status.ENDED
    away = await missed.away_seats(runner.db, row.id)
    result.away = [result.players[s - 1] for s in sorted(away) if 0 < s <= len(result.players)]
    if row.state is not None:
        state = runner.state_of(row)
        result.final_status = runner.ruleset.status(state, None)
        result.turns = int(getattr(state, "turn", None) or getattr(state, "round", None) or 0)
