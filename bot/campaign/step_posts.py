"""A step's messages in its channel: the step tracker (one message per step, kept up to date
with who is owed and when it is due) and the posts below it, laid out so the channel reads in
the order things happened (``tracker.Layout``); the mentions of whose turn it is (P-34)."""

from __future__ import annotations

from collections.abc import Callable

from bot.campaign import embed_messages, messages
from bot.campaign.battle_child import war_title
from bot.campaign.core import Ctx, UnitOfWork
from bot.campaign.mail import Mail, PublicItem
from bot.campaign.tracker import Layout, Tracker
from bot.rules.base import GM_SEAT, step_name
from storage import campaigns, intent_rows, timers
from storage.db import Tx
from storage.outbox import NewMessage, TrackerRow
from storage.status import LIVE, DeadlineStatus, Status


def _ref_key(ref: str) -> str:
    return " ".join(ref.lower().replace(",", " ").replace("/", " ").split())


def in_threads(ctx: Ctx) -> list[str]:
    """P-18: the refs of the battles the step waits for in their threads."""
    return list(ctx.ruleset.battles_in_threads(ctx.state)) if ctx.state is not None else []


async def _thread_wait(tx: Tx, ctx: Ctx) -> str:
    """P-18: the tracker's line for a step that waits for battles fought in their
    threads, each linked; '' when it waits for none."""
    refs = {_ref_key(r) for r in in_threads(ctx)}
    if not refs:
        return ""
    threads = [c for c in await campaigns.live_children(tx, ctx.row.id)
               if c.parent_ref and _ref_key(c.parent_ref) in refs]
    where = messages.names([f"<#{c.channel_id}> ({war_title(c.name, c.parent_ref)})"
                            for c in threads]) or "its thread"
    return f"Waiting for the battle fought in {where}; no deadline here meanwhile."


async def post_public(tx: Tx, ctx: Ctx, fx: UnitOfWork, mail: Mail) -> Callable[[], None]:
    """Lines before the first post belong to the tracker the intent started in; when
    the step (key) changed, the lines after a post belong to the new step's tracker.
    The channel reads in order (``tracker.Layout``): a tracker with a post below it
    takes no more lines, they go on in a fresh tracker message under that post.
    Returns the turn notices to send once the seats have their DMs."""
    row = ctx.row
    rows = await fx.rows(ctx)
    stored = rows.tracker()
    cur = Tracker.from_data(stored.key, stored.outbox_id, stored.data) if stored else None
    target = None
    if row.status in LIVE and ctx.pending:
        sn = step_name(ctx.ruleset, ctx.state, ctx.pending)
        target = (sn.key or f"step-{row.step_no}", sn.name)
    closing = cur if cur is not None and target is not None and cur.key != target[0] else None
    new = (Tracker(target[0], target[1], row.name, acted_step=row.step_no)
           if target is not None and (cur is None or closing is not None) else None)
    if target is None and cur is not None:
        cur.close()  # the game is over (or nothing is asked): nobody is owed
    first = cur or new
    if first is not None:
        _note_acted(ctx, first, mail.acted, closing=first is closing)
    layout = Layout(sink=first, live=new or (cur if target is not None else None),
                    closing=closing, new=new, title=target[1] if target else None,
                    last_post=rows.last_post(row.channel_id))
    last_post = max((i for i, item in enumerate(mail.items) if item.post), default=-1)
    for i, item in enumerate(mail.items):
        if not item.post and layout.line(item.text):
            continue
        if item.embed is not None:
            # H-D46, O-D28: a result rides on the step's message; the last one of an
            # intent that opens a new message is taken by that message instead
            posts = embed_posts(ctx, item)
            if row.status == Status.ENDED or item.alone:
                layout.post(posts)  # the game's closing word is a post of its own
            elif len(posts) == 1 and i == last_post and layout.opens_new:
                layout.post(posts)
                layout.candidate = posts[0]
            elif len(posts) != 1 or not layout.attach(posts[0]):
                layout.post(posts)
            continue
        last = layout.out[-1] if layout.out else None
        if (isinstance(last, NewMessage) and not item.pictures and not last.embeds
                and len(last.content) + len(item.text) < messages.MESSAGE_LIMIT):
            last.content += f"\n{item.text}"  # posts in a row without pictures: one
            continue
        layout.post([NewMessage(row.id, "channel", part, channel_id=row.channel_id,
                                pictures=item.pictures[:10] if i == 0 else [])
                     for i, part in enumerate(messages.split(item.text))])
    layout.finish(target[1] if target is not None else None)
    live = layout.live
    fresh = live is not None and live.outbox_id is None  # its first post mentions
    newly = await _tracker_status(tx, ctx, rows, live) if live is not None else []
    if live is not None:  # a seat owed again is waited for, not "acted" (P-30)
        owed = {ctx.name(s) for s in live.owed_seats}
        live.acted = [n for n in live.acted if n not in owed]
    for entry in layout.out:
        if isinstance(entry, NewMessage):
            fx.send(entry)
            continue
        content = entry.render()
        shown = f"{content}\x00{entry.media}" if entry.media else content
        # every version carries the results riding on it: an edit is the whole message
        if entry.outbox_id is None:
            entry.outbox_id = fx.send(NewMessage(
                row.id, "channel", content, channel_id=row.channel_id,
                mentions=entry.owed_users, embeds=entry.embeds,
                pictures=entry.picture_list()))
        elif shown != entry.shown:
            fx.send(NewMessage(
                row.id, "channel", content, channel_id=row.channel_id,
                edit_of=entry.outbox_id, mentions=entry.owed_users, embeds=entry.embeds,
                pictures=entry.picture_list()))
        entry.shown = shown
    keep = live or layout.sink
    if keep is None or row.status == Status.ENDED:
        rows.drop_tracker()
        return lambda: None
    assert keep.outbox_id is not None
    rows.put_tracker(TrackerRow(row.id, keep.key, keep.outbox_id, keep.data()))
    if live is not None and not fresh:
        return lambda: _turn_notices(ctx, fx, live, newly)
    return lambda: None


def _note_acted(ctx: Ctx, first: Tracker, seats: set[int], *, closing: bool) -> None:
    """Acted is per step (P-30): names gathered in an earlier step of the tracker's turn
    are dropped once the step moves on. Seats that acted in the step this intent closed
    are kept only by a tracker that closes with it (it waits for nobody)."""
    step = ctx.row.step_no
    moved = first.acted_step is not None and first.acted_step != step
    if moved and not closing:
        first.acted = []
    if not moved or closing:
        for seat in sorted(seats):
            first.add_acted(ctx.name(seat))
    if not closing:
        first.acted_step = step


def embed_posts(ctx: Ctx, item: PublicItem) -> list[NewMessage]:
    """A result's embed (split within Discord's limits) with its picture inside; any
    other picture of the event rides on the first message."""
    assert item.embed is not None
    inside = item.pictures[0] if item.pictures and item.embed.image else None
    rest = [p for p in item.pictures if p is not inside]
    out = [NewMessage(ctx.row.id, "channel", "", channel_id=ctx.row.channel_id,
                      pictures=pictures, embeds=stored)
           for stored, pictures in embed_messages.messages([(item.embed, inside)])]
    if out and rest:
        out[0].pictures = [*rest[: 10 - len(out[0].pictures)], *out[0].pictures]
    return out


async def _tracker_status(tx: Tx, ctx: Ctx, rows: intent_rows.CampaignRows,
                          live: Tracker) -> list[int]:
    """Sets the open step's name, who is owed and the deadline; returns the seats newly
    owed (their turn starts now)."""
    row = ctx.row
    title = step_name(ctx.ruleset, ctx.state, ctx.pending).name
    marker = f"*{title}*"  # the next phase of the same turn begins
    # only where it fits and reads in order (no post below): the tracker's title names
    # the new phase anyway, and a full tracker must stay within its limit
    said = live.lines[-1] if live.lines and not live.embeds else ""
    if (title != live.title and live.lines and live.fits(marker) and not live.passed
            and title.split(": ", 1)[-1] not in said):  # (the rules just named it)
        live.add_line(marker)
    live.title = title
    owing = list(dict.fromkeys(r.seat for r in ctx.owing()))
    newly = [s for s in owing if s not in live.owed_seats]
    live.owed_seats = owing
    live.owed = [_mention(ctx, s) for s in owing]
    # the owed players are the only ones its post pings (P-34): names in it do not; nor
    # does it ping an away seat's player (P-26: told once, their defaults come at once)
    away = rows.away_seats()
    live.owed_users = [u for u in (_holder(ctx, s) for s in owing if s not in away)
                       if u is not None]
    dl = (rows.deadline() if rows.deadline_known(row.step_no)
          else await timers.get(tx, row.id, row.step_no))
    live.deadline = dl.due_at if dl is not None and dl.status == DeadlineStatus.OPEN else None
    live.waits = await _thread_wait(tx, ctx)
    return newly


def _holder(ctx: Ctx, seat: int) -> int | None:
    """Who a mention of the seat pings: its active holder, the GM for the GM's seat."""
    if seat == GM_SEAT:
        return ctx.row.gm_user_id
    p = ctx.player(seat)
    return p.user_id if p is not None and p.active else None


def _mention(ctx: Ctx, seat: int) -> str:
    if seat == GM_SEAT:
        return messages.mention(ctx.row.gm_user_id)
    p = ctx.player(seat)
    return messages.mention(p.user_id) if p is not None and p.active else ctx.name(seat)


def _turn_notices(ctx: Ctx, fx: UnitOfWork, live: Tracker, newly: list[int]) -> None:
    """A mention in an EDIT notifies nobody on Discord. A seat whose turn starts in a
    tracker already posted learns it from its DM panel: a new DM (which notifies) when
    the player was idle, an edit of the panel they have just used when they were active
    (P-1, ``panel_idle_minutes``). One that gets no DMs gets a short channel post with
    the mention instead (the tracker's first post mentions the seats owed when it
    opens)."""
    for seat in newly:
        p = ctx.player(seat)
        if seat == GM_SEAT or p is None or not p.active or p.dm_ok:
            continue
        fx.channel(ctx, f"{messages.mention(p.user_id)}: your turn in **{ctx.row.name}** "
                        f"({live.title}). Use /orders here.", mentions=[p.user_id])
