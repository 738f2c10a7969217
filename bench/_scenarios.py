"""Real games for the benches: scripted players drive a campaign through the real service.

``drive`` plays a campaign of a real rule set step by step, as ``python -m bot demo`` does
(bot/campaign/demo.py: the rule set's scripted players, a virtual clock, a pinned seed), and
stops at the first step whose resolution a ``target`` predicate picks (it is shown the state
and the outcome the pure rules predict for the step's actions). ``clone`` then copies that
campaign inside the closed database file, so a bench gets many campaigns at exactly the same
point (same state, seed and step) without playing each one.

While driving, every outbox message is handled as the dispatcher would (``dispatch``: its
pictures got, then marked sent). Unless asked for real pictures (footprint.py), a stub
renderer (registered through bot.render's public ``register`` and put back after) draws
them, so reaching a late Orbits turn costs the rules, not ~30 s of maps; the measured
rounds use the real renderers.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _common  # noqa: F401, I001  (puts the repository on sys.path)

from bot.campaign import Actor, CampaignService, Panel
from bot.campaign.demo import DemoRunner, VirtualClock
from bot.campaign.demo_record import CHANNEL_ID
from bot.render import registry as render_registry
from bot.rules import registry as rules_registry
from bot.rules.base import GM_SEAT, Outcome
from bot.rules.dice import SeededDice
from storage import open_database
from storage.status import Status

SEED = 1
# Every built-in picture: render.py draws each, the stub stands in for each while driving.
RENDERERS = (("orbits", "map"), ("ftcamp", "hexmap"), ("ftcamp", "sector"), ("hrft", "sheet"))
Target = Callable[[Any, Outcome], bool]


@dataclass
class Move:
    """One input of the target step: who sends which action on which panel."""

    actor: Actor
    seat: int
    action: dict[str, Any]


@dataclass
class Point:
    """A campaign stopped just before a step's input: its database and the step's moves."""

    path: Path
    campaign_id: int
    step_no: int
    moves: list[Move]
    now: Any  # the virtual clock's time at the stop
    state: Any
    predicted: Outcome | None  # None when the game was played to its end
    state_json_bytes: int
    seen: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)


def _stub_png(view: dict[str, Any]) -> bytes:
    return b"\x89PNG stub"


@contextmanager
def stub_renderers() -> Iterator[None]:
    originals = {key: render_registry.get(*key) for key in RENDERERS}
    for key in RENDERERS:
        render_registry.register(*key, _stub_png)
    try:
        yield
    finally:
        for key, fn in originals.items():
            render_registry.register(*key, fn)


def ftcamp_scenario(groups: int) -> str:
    """The demo scenario tiled over a bigger map until it has at least ``groups`` groups
    (12 per tile: the same three contested hexes in every tile)."""
    from bot.rules.ftcamp.demo import demo_state
    from bot.rules.ftcamp.model import HexMap, State
    from bot.rules.ftcamp.scenario import export_scenario

    base = demo_state()
    tiles = -(-groups // len(base.groups))
    across = min(tiles, 6)
    down = -(-tiles // across)

    def moved(hex_name: str, tx: int, ty: int) -> str:
        col, row = int(hex_name[:2]), int(hex_name[2:])
        return f"{col + 8 * tx:02d}{row + 6 * ty:02d}"  # 8 columns: odd-q parity is kept

    groups_out, systems = {}, []
    for t in range(tiles):
        tx, ty = t % across, t // across
        for g in base.groups.values():
            name = g.name if t == 0 else f"{g.name} {t + 1}"
            groups_out[name] = g.model_copy(update={"name": name, "hex": moved(g.hex, tx, ty)})
        for s in base.map.systems:
            systems.append(s.model_copy(update={
                "hex": moved(s.hex, tx, ty), "name": s.name if t == 0 else f"{s.name} {t + 1}"}))
    state = State(name=f"{base.name} x{tiles}", players=base.players, alliances=base.alliances,
                  map=HexMap(columns=8 * across, rows=6 * down, systems=systems),
                  groups=groups_out)
    return export_scenario(state)


def _player_action(ruleset: Any, state: Any, panel: Panel, players: dict[int, Any],
                   dice: dict[int, SeededDice]) -> dict[str, Any]:
    seat = panel.seat
    if seat not in players:
        players[seat] = ruleset.scripted_player(seat)
        dice[seat] = SeededDice(SEED, f"demo-player:{seat}")
    viewer = None if seat == GM_SEAT else seat
    return players[seat].choose(ruleset.view(state, viewer), panel.request, dice[seat])


async def drive(
    path: Path, ruleset_name: str, seats: int, target: Target | None, *,
    options: dict[str, str] | None = None, max_steps: int = 3000,
    observe: Callable[[Any, Outcome], None] | None = None, stub: bool = True,
) -> Point:
    """Plays a new campaign on the database at ``path`` until ``target`` picks a step; with
    ``target`` None to the end of the game (or ``max_steps``), pictures drawn for real
    unless ``stub``."""
    ruleset = rules_registry.get(ruleset_name)
    clock = VirtualClock()
    db = await open_database(path)
    try:
        service = CampaignService(db, clock=clock, seed_source=lambda: SEED)
        runner = DemoRunner(service, db, ruleset, clock, SEED)
        with stub_renderers() if stub else nullcontext():
            await runner.setup(seats, {**getattr(ruleset, "demo_options", {}), **(options or {})})
            point = await _play_until(service, runner, ruleset, target, max_steps, observe,
                                      draw=not stub)
        point.path, point.now = path, clock.now
        return point
    finally:
        await db.close()


async def _open_panels(service: CampaignService, runner: DemoRunner) -> list[tuple[Actor, Panel]]:
    found = []
    for actor in (runner.gm, *runner.players):
        for panel in await service.panels_for(runner.campaign_id, actor.user_id):
            if panel.submitted is None:
                found.append((actor, panel))
    return found


async def _play_until(service: CampaignService, runner: DemoRunner, ruleset: Any,
                      target: Target | None, max_steps: int,
                      observe: Callable[[Any, Outcome], None] | None, draw: bool) -> Point:
    players: dict[int, Any] = {}
    dice: dict[int, SeededDice] = {}
    cid = runner.campaign_id
    for _ in range(max_steps):
        await dispatch(service, draw=draw)
        ctx = await service.snapshot(cid)
        if ctx.row.status == Status.ENDED and target is None:
            return _point(ctx, [], None)
        if ctx.row.status == Status.ENDED:
            raise RuntimeError(f"the {ruleset.name} game ended before the bench's target step")
        panels = await _open_panels(service, runner)
        if not panels:
            if not await runner.jump_clock():
                raise RuntimeError(f"the {ruleset.name} game is stuck")
            continue
        state = ctx.state
        if panels[0][1].request.kind == "sealed":
            step = [(a, p) for a, p in panels if p.request.kind == "sealed"]
        else:
            step = panels[:1]
        moves = [Move(a, p.seat, _player_action(ruleset, state, p, players, dice))
                 for a, p in step]
        rolls = SeededDice(ctx.row.seed, str(ctx.row.resolution_no + 1))
        if step[0][1].request.kind == "sealed":
            predicted = None
            if not ctx.submitted:  # a fresh step: the prediction is the step's resolution
                predicted = ruleset.resolve(state, {m.seat: m.action for m in moves}, rolls)
        else:
            predicted = ruleset.act(state, moves[0].seat, moves[0].action, rolls)
        if predicted is not None:
            if observe is not None:
                observe(state, predicted)
            if target is not None and target(state, predicted):
                return _point(ctx, moves, predicted)
        for move in moves:
            await service.submit(move.actor, cid, ctx.row.step_no, move.action, seat=move.seat)
    if target is None:  # cut short: the last step's messages go out as well
        await dispatch(service, draw=draw)
        return _point(await service.snapshot(cid), [], None)
    raise RuntimeError(f"no target step within {max_steps} steps of {ruleset.name}")


async def files_of(service: CampaignService, message: Any) -> list[tuple[str, bytes]]:
    """A message's pictures as the dispatcher gets them: from the service's draw step
    (``outbox_files``, pictures drawn after commit) where it has one, else from the message."""
    draw = getattr(service, "outbox_files", None)
    if draw is not None:
        return list(await draw(message))
    return list(getattr(message, "files", []))


async def dispatch(service: CampaignService, *, draw: bool = True) -> int:
    """Does what the dispatcher does with every due message, minus Discord: gets its
    pictures (unless ``draw`` is off) and marks it sent. Returns the pictures it got."""
    got = 0
    while batch := await service.outbox_pending(100):
        for message in batch:
            if draw:
                got += len(await files_of(service, message))
            await service.outbox_sent(message.id, message.id)
    return got


def _point(ctx: Any, moves: list[Move], predicted: Outcome | None) -> Point:
    return Point(Path(), ctx.row.id, ctx.row.step_no, moves, None, ctx.state, predicted,
                 len(_json(ctx.row.state)))


def _json(value: Any) -> str:
    import json
    return json.dumps(value, separators=(",", ":"))


def images(outcome: Outcome) -> int:
    return sum(1 for e in outcome.events if e.image is not None)


def deployment_end(turn: int) -> Target:
    """The Orbits submit that ends a Deployment at or after ``turn`` (it draws the maps)."""
    return lambda state, out: state.phase == "deployment" and state.turn >= turn \
        and images(out) > 0


def clone(path: Path, campaign_id: int, count: int) -> list[int]:
    """Copies the campaign ``count`` times in the (closed) database file; returns the ids,
    the original first. Schema-generic: every table with a ``campaign_id`` column is copied
    except the outbox (messages already sent); each copy gets its own channel."""
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        ids = [campaign_id]
        top_id, top_channel = con.execute(
            "SELECT MAX(id), MAX(channel_id) FROM campaigns").fetchone()
        camp_cols = [r[1] for r in con.execute("PRAGMA table_info(campaigns)")]
        rest = [c for c in camp_cols if c not in ("id", "channel_id")]
        for i in range(1, count):
            new_id, channel = top_id + i, max(top_channel, CHANNEL_ID) + i
            con.execute(
                f"INSERT INTO campaigns (id, channel_id, {', '.join(rest)})"
                f" SELECT ?, ?, {', '.join(rest)} FROM campaigns WHERE id = ?",
                (new_id, channel, campaign_id))
            for table in tables:
                info = list(con.execute(f"PRAGMA table_info({table})"))
                cols = [r[1] for r in info]
                if table in ("campaigns", "outbox") or "campaign_id" not in cols:
                    continue
                # an INTEGER PRIMARY KEY of its own (events.id) is numbered afresh
                keep = [r[1] for r in info if not (r[5] and r[1] == "id")]
                picked = ", ".join("?" if c == "campaign_id" else c for c in keep)
                con.execute(f"INSERT INTO {table} ({', '.join(keep)}) SELECT {picked}"
                            f" FROM {table} WHERE campaign_id = ?", (new_id, campaign_id))
            ids.append(new_id)
        con.commit()
    finally:
        con.close()
    return ids


def copy_db(src: Path, dst: Path) -> Path:
    """A consistent copy of a closed database (sqlite's backup: the WAL included)."""
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    a.close()
    b.close()
    return dst
