"""What a rule set adds to the service: viewer-scoped reads, pictures, files and GM edits.

The cogs never hold a campaign's full state (DESIGN.md "The service layer"): every read here
returns what that user may see (``SeatView``), and everything that needs the whole state
(a GM edit, a scenario export, a picture's view) runs here through the rule set's optional
hooks, so the cog only passes the user's input and shows the result. One GM rule for every
cog: ``Ctx.is_gm`` (the campaign's GM, or Manage Server in its guild).
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.campaign import pictures
from bot.campaign.core import Ctx, UnitOfWork, campaign_info
from bot.campaign.gm import GmTools
from bot.campaign.lifecycle import Lifecycle
from bot.campaign.models import Actor, SeatView, ViewPicture
from bot.campaign.steps import StepEngine
from bot.campaign.submissions import Submissions
from bot.errors import InvalidInput, InvalidState, NotFound, PermissionDenied
from bot.render import registry as render_registry
from bot.rules.base import GM_SEAT, Audience, Event, Outcome
from bot.rules.words import plural
from storage.db import Tx
from storage.status import Status


def text_of(filename: str, data: bytes) -> str:
    """An uploaded file as text; InvalidInput when it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{filename} is not UTF-8 text (byte {exc.start}); save it as "
                           "UTF-8.") from exc


class RulesetFeatures:
    """What one user may see, pictures, files and the GM's edits, through ``engine``; a
    setup file becomes settings (``lifecycle``), an upload an action of the GM (``gm``) or
    of the seat (``submissions``)."""

    def __init__(self, engine: StepEngine, lifecycle: Lifecycle, gm: GmTools,
                 submissions: Submissions) -> None:
        self.engine = engine
        self.core = engine.core
        self.db = engine.core.db  # the reader: every read here is of the committed state
        self.lifecycle = lifecycle
        self.gm = gm
        self.submissions = submissions

    async def seat_view(self, actor: Actor, channel_id: int) -> SeatView:
        """The channel's campaign as ``actor`` may see it: the live one, else the latest that
        ended there (``info.status`` says which); NotFound outside one."""
        campaign_id = await self.core.id_to_read(channel_id)
        return self._seat_view(await self.core.load(self.db, campaign_id), actor)

    async def seat_view_of(self, actor: Actor, campaign_id: int) -> SeatView:
        """``seat_view`` by campaign id (a DM has no channel of its campaign)."""
        return self._seat_view(await self.core.load(self.db, campaign_id), actor)

    @staticmethod
    def _seat_view(ctx: Ctx, actor: Actor) -> SeatView:
        mine = ctx.seat_of(actor.user_id)
        seat = mine.seat if mine is not None else None
        is_gm = ctx.is_gm(actor)
        rules, state = ctx.ruleset, ctx.state
        gm_view = rules.gm_view(state) if is_gm and state is not None else None
        if state is None:
            view: dict[str, Any] = {}
        elif gm_view is not None:
            view = gm_view
        else:
            view = rules.view(state, seat)
        asked = ({seat} if seat is not None else set()) | ({GM_SEAT} if is_gm else set())
        live = state is not None and ctx.row.status == Status.RUNNING
        return SeatView(
            info=campaign_info(ctx.row, ctx.players), seat=seat, is_gm=is_gm, view=view,
            requests=[r for r in ctx.pending if r.seat in asked],
            gm_actions=list(rules.gm_actions(state)) if is_gm and live else [],
        )

    # ------------------------------------------------------------ pictures and texts

    async def picture(self, actor: Actor, channel_id: int, name: str, *,
                      focus: str | None = None, public: bool = True) -> ViewPicture:
        """A picture of the channel's campaign, checked (refusals come here, before a cog
        defers publicly) but not drawn: ``render`` draws it. ``public`` draws the public
        view (for the channel); otherwise the user's seat view."""
        ctx = await self.core.load(self.db, await self.core.id_to_read(channel_id))
        if ctx.state is None:
            raise InvalidState("The campaign has not started yet: there is nothing to show.")
        render_registry.get(ctx.row.ruleset, name)  # NotFound for a picture it does not have
        mine = ctx.seat_of(actor.user_id)
        viewer = None if public or mine is None else mine.seat
        view, title = ctx.ruleset.picture_view(ctx.state, viewer, name, focus)
        return ViewPicture(ctx.row.ruleset, name, view, title)

    async def render(self, picture: ViewPicture) -> bytes:
        """The PNG of a checked picture, drawn in a worker thread (never on the event loop)."""
        return await pictures.draw(picture.ruleset, picture.name, picture.view)

    async def texts(self, actor: Actor, channel_id: int, name: str) -> list[str]:
        """Public texts the rule set names (FTCamp ``battles``: the latest battle lists)."""
        ctx = await self.core.load(self.db, await self.core.id_to_read(channel_id))
        if not ctx.ruleset.offers_texts:
            raise NotFound(f"{ctx.ruleset.title} has no text '{name}'.")
        if ctx.state is None:
            raise InvalidState("The campaign has not started yet (the GM starts it with "
                               "/campaign start).")
        return list(ctx.ruleset.texts(ctx.state, name))

    # ------------------------------------------------------------ GM edits and files

    async def gm_edit(self, actor: Actor, channel_id: int, edit: str,
                      args: dict[str, Any]) -> str:
        """GM: one named edit of the rule set (its optional ``gm_edit(state, edit, args) ->
        (state, summary)``, e.g. FTCamp's add/move/remove a group), applied like
        ``gm_edit_state``: snapshotted for /gm undo, logged for the GM only, the step
        re-opened. Returns the summary."""

        async def run(tx: Tx, ctx: Ctx, fx: UnitOfWork) -> str:
            self.core.require_gm(ctx, actor)
            self.core.require_live(ctx)
            new_state, summary = ctx.ruleset.gm_edit(ctx.state, edit, args)
            await self.engine.begin_resolution(tx, ctx, fx)
            outcome = Outcome(state=new_state, events=[
                Event(audience=Audience.gm(), kind="gm_edit", text=f"GM edit: {summary}")])
            await self.engine.apply(tx, ctx, fx, outcome, closes_step=True)
            return str(summary)

        return await self.core.in_channel(channel_id, run)

    async def load_file(self, actor: Actor, channel_id: int, filename: str, data: bytes) -> str:
        """GM, before the start: a rule set's setup file (FTCamp scenario TOML) becomes its
        options; returns what was loaded, for the GM."""
        ctx = await self.core.load(self.db, await self.core.id_in_channel(channel_id))
        self.core.require_gm(ctx, actor)
        if not ctx.ruleset.reads_setup_file:
            raise InvalidState(f"{ctx.ruleset.title} takes no setup file.")
        if ctx.row.status != Status.SETUP:
            raise InvalidState("The campaign has started; a scenario can only be loaded "
                               "before /campaign start.")
        changes, summary, need = await asyncio.to_thread(ctx.ruleset.load_file, filename,
                                                      text_of(filename, data))
        await self.lifecycle.settings(actor, channel_id, changes)
        have = len([p for p in ctx.players if p.active])
        seats = "" if have == need else (
            f"\n{plural(have, 'player')} {'has' if have == 1 else 'have'} joined; the "
            f"campaign starts with exactly {need}.")
        return (f"Loaded {filename}: {summary}\nScenario seat n is the n-th player to join."
                f"{seats}")

    async def export_file(self, actor: Actor, channel_id: int) -> tuple[str, bytes, str]:
        """GM: (file name, bytes, note) of the campaign as a setup file (it names every
        hidden force, so only the GM gets it)."""
        ctx = await self.core.load(self.db, await self.core.id_in_channel(channel_id))
        self.core.require_gm(ctx, actor)
        seats = len([p for p in ctx.players if p.active])
        filename, text, note = ctx.ruleset.export_file(ctx.state, dict(ctx.row.options), seats)
        return filename, text.encode("utf-8"), note

    async def side_file(self, actor: Actor, channel_id: int,
                        side: int | None = None) -> tuple[str, bytes, str]:
        """(file name, bytes, note) of one side's ships as the rule set writes them (HRFT: an
        .FTFleet of the survivors), also after the battle has ended. A player gets their own
        side only; the GM any side (``side``, default their own seat)."""
        ctx = await self.core.load(self.db, await self.core.id_to_read(channel_id))
        if not ctx.ruleset.writes_side_files:
            raise InvalidState(f"{ctx.ruleset.title} has no side file to export.")
        if ctx.state is None:
            raise InvalidState("The battle has not begun: there are no ships to export yet.")
        mine = ctx.seat_of(actor.user_id)
        own = mine.seat if mine is not None else None
        if side is None and own is None:
            if ctx.is_gm(actor):
                sides = ", ".join(f"{p.seat} ({p.name})" for p in ctx.players if p.active)
                raise InvalidInput(f"Name the side to export (side: its number). Sides: "
                                   f"{sides or 'none'}.")
            raise PermissionDenied("You hold no seat in this battle: there is no side of "
                                   "yours to export.")
        if side is not None and side != own and not ctx.is_gm(actor):
            raise PermissionDenied(f"You may export only your own side (side {own})."
                                   if own is not None else "You hold no seat in this battle.")
        chosen = side if side is not None else own
        assert chosen is not None
        filename, text, note = await asyncio.to_thread(ctx.ruleset.side_file, ctx.state, chosen,
                                                       ctx.row.name, ctx.row.status == Status.ENDED,
                                                       self.core.clock())  # no clock in rules
        return filename, text.encode("utf-8"), note

    async def upload(self, actor: Actor, channel_id: int, action_type: str, filename: str,
                     data: bytes) -> list[str]:
        """An uploaded file as an action of that type (HRFT ``add_file`` for the user's seat,
        ``add_design`` for the GM): read off the loop (InvalidInput says what is wrong), then
        submitted. Returns the names the file holds."""
        view = await self.seat_view(actor, channel_id)
        ctx = await self.core.load(self.db, view.info.id)
        names = await asyncio.to_thread(ctx.ruleset.upload_names, filename, data, ctx.state,
                                        action_type)
        action = {"type": action_type, "filename": filename, "content": text_of(filename, data)}
        if view.gm_spec(action_type) is not None:
            await self.gm.gm_act(actor, channel_id, action)
        else:
            await self.submissions.submit(actor, view.info.id, view.info.step_no, action,
                                          seat=view.seat)
        return list(names)
