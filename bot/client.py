"""The discord.py Bot: opens the database, builds the service, loads the cogs, and turns every
refusal into an ephemeral reply through ONE app-command error handler."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import storage
from bot import command_sync, gc_pacing
from bot.campaign import CampaignService
from bot.campaign.cache import LruCache
from bot.campaign.outbox import RetryPolicy
from bot.rules.base import Dice
from bot.rules.dice import SeededDice
from bot.settings import ServiceSettings
from cogs.answers import answer_failure
from cogs.background_loops import Loops
from cogs.refusals import LAST_RULINGS_KEPT

log = logging.getLogger(__name__)

# Loaded in this order, each extension's setup() building its cog with what it needs from the
# bot (the service, the /roll dice); the background loops are built by setup_hook itself.
COGS = (
    "cogs.panels",
    "cogs.campaign",
    "cogs.orders",
    "cogs.gm",
    "cogs.roll",
    "cogs.help",
    "cogs.orbits",
    "cogs.battle",
    "cogs.ftcamp",
)
# P-36: by default nothing the bot sends pings anyone (no user, role, @everyone or replied
# user), so a name or note typed by a player never pings. A send that means to ping names its
# users in its own allowed_mentions, which discord.py merges over this default (the outbox's
# rows, P-34; the seats of a battle's opening post).
NO_PINGS = discord.AllowedMentions.none()
STOP_GRACE = 10.0  # seconds per stage of a graceful stop (systemd waits 90 s by default)


def _db_path(config: Any) -> str:
    """The database path from Settings (``db_path``) or from a plain path."""
    if isinstance(config, (str, os.PathLike)):
        return str(Path(config))
    path = getattr(config, "db_path", None)
    if path is None:
        raise TypeError("AdmiraltyBot needs Settings with db_path, or a database path")
    return str(path)


def _scope_words(guild_id: int | None) -> str:
    return "every server (global)" if guild_id is None else f"guild {guild_id}"


def _http_reason(exc: discord.HTTPException) -> str:
    """Discord's status and its own words, e.g. ``403 Missing Access`` for a guild the bot
    is not in or was invited to without the applications.commands scope."""
    text = (exc.text or "").strip()
    return f"{exc.status} {text}".strip() if text else f"HTTP {exc.status}"


async def sync_now(config: Any, token: str) -> dict[str, list[str]]:
    """``python -m bot sync``: logs in over HTTP only (no gateway), syncs every scope even
    if unchanged, and closes. What was synced and what Discord refused, in words."""
    bot = AdmiraltyBot(config, force_sync=True)
    async with bot:
        await bot.login(token)  # runs setup_hook, which syncs
    return {"synced": bot.synced_scopes, "problems": bot.sync_problems}


class AdmiraltyBot(commands.Bot):
    """Admiralty's client. ``clock`` and ``roll_dice`` are injected so tests control time and
    dice; everything else comes from the settings (or just a database path). ``force_sync``
    syncs the commands even when their hash is unchanged (``python -m bot sync``)."""

    def __init__(
        self,
        config: Any,
        *,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        roll_dice: Dice | None = None,
        force_sync: bool = False,
    ) -> None:
        # The bot has no voice: discord.py's "PyNaCl / davey is not installed" warnings at
        # every start would only worry whoever reads the log.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        intents.dm_messages = True  # DM channels are cached; no message content is needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, allowed_mentions=NO_PINGS)
        self.config = config
        self.db_path = _db_path(config)
        self.clock = clock
        # /roll is not part of any campaign, so its dice come from a fresh secret seed.
        self.roll_dice: Dice = roll_dice or SeededDice(secrets.randbits(64), "roll")
        # user id -> ruling id of their last refusal, for `/help rule` (cogs.refusals)
        self.last_rulings: LruCache[str] = LruCache(LAST_RULINGS_KEPT)
        self.db: Any = None
        self._service: CampaignService | None = None
        self.loops: Loops | None = None  # the outbox and scheduler loops, once set up
        self._close_lock = asyncio.Lock()
        self._stopped = False
        self._gc_paced = False  # gc_pacing.install() is in force for this bot
        self.gc_collector = gc_pacing.QuietCollector()  # full collections at rest
        self._signal_stop: asyncio.Task[None] | None = None
        self.force_sync = force_sync  # `python -m bot sync`: sync even an unchanged tree
        self.synced_scopes: list[str] = []  # what the last sync changed, in words
        self.sync_problems: list[str] = []  # what Discord refused, in words
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        # P-37: the bot is installed to servers, never to a user's account; each command says
        # where it may be used (cogs: guild_only, or allowed_contexts with DMs for /orders,
        # /help, /roll and /orbits).
        self.tree.allowed_installs = app_commands.AppInstallationType(guild=True, user=False)

    @property
    def service(self) -> CampaignService:
        if self._service is None:
            raise RuntimeError("the bot is not set up yet")
        return self._service

    async def setup_hook(self) -> None:
        service = await self.open_service()
        self.loops = Loops(self, service, self.clock, at_rest=self.gc_collector.at_rest)
        await self.add_cog(self.loops)
        for name in COGS:
            await self.load_extension(name)
        self.sync_problems = await self.sync_commands(force=self.force_sync)
        gc_pacing.freeze_startup_objects()
        if not self._gc_paced:
            gc_pacing.install()  # full collections between intents (undone in close)
            self._gc_paced = True

    async def open_service(self) -> CampaignService:
        """Opens the database and builds the service the cogs are given; the first part of
        ``setup_hook`` (alone in tests that only read the command tree)."""
        self.db = await storage.open_database(self.db_path)
        timing = getattr(self.config, "timing", None)  # a bare database path keeps defaults
        outbox = getattr(self.config, "outbox", None)
        bounds = getattr(self.config, "service", None) or ServiceSettings()
        self._service = CampaignService(
            self.db, clock=self.clock, wake=self.wake_loops,
            timing_defaults=timing.as_stored() if timing is not None else None,
            outbox_policy=RetryPolicy(outbox.max_attempts, outbox.retry_base_seconds,
                                      outbox.retry_max_seconds) if outbox is not None else None,
            undo_depth=bounds.undo_depth, cache_campaigns=bounds.cache_campaigns,
            panel_idle_minutes=bounds.panel_idle_minutes,
        )
        return self._service

    async def sync_commands(self, *, force: bool = False) -> list[str]:
        """Registers the commands where Discord needs them (P-38): globally, or (settings
        ``guild_ids``) as copies in those guilds only, never both. A scope whose payload hash
        matches the stored record is left alone unless ``force``; a scope synced before that
        is no longer wanted is emptied, so no command shows twice. Returns one line per scope
        Discord refused (logged too); the bot runs on with what Discord had."""
        path = command_sync.record_path(self.db_path)
        record = command_sync.load_record(path, self.application_id)
        guild_ids = list(dict.fromkeys(getattr(self.config, "guild_ids", None) or []))
        wanted: list[int | None] = list(guild_ids) or [None]
        problems: list[str] = []
        for guild_id in wanted:
            guild = discord.Object(id=guild_id) if guild_id is not None else None
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            scope = command_sync.scope_name(guild_id)
            digest = command_sync.payload_hash(
                [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)])
            if not force and record.scopes.get(scope) == digest:
                continue
            record.scopes.pop(scope, None)
            try:
                await self.tree.sync(guild=guild)
            except discord.HTTPException as exc:
                problems.append(f"{_scope_words(guild_id)}: {_http_reason(exc)}")
                continue
            record.scopes[scope] = digest
            self.synced_scopes.append(_scope_words(guild_id))
        keep = {command_sync.scope_name(g) for g in wanted}
        stale = [s for s in record.scopes if s not in keep]
        if guild_ids and force and command_sync.GLOBAL not in stale:
            stale.append(command_sync.GLOBAL)  # a global set from before the record existed
        for scope in stale:
            problems += await self._empty_scope(scope)
            record.scopes.pop(scope, None)
        command_sync.save_record(path, record)
        for problem in problems:
            log.error("slash commands not synced for %s; `python -m bot sync` tries again",
                      problem)
        return problems

    async def _empty_scope(self, scope: str) -> list[str]:
        """Removes the commands of a scope no longer synced (the globals when development
        guilds are set, a guild dropped from ``guild_ids``)."""
        assert self.application_id is not None
        guild_id = None if scope == command_sync.GLOBAL else int(scope.partition(":")[2])
        try:
            if guild_id is None:
                await self.http.bulk_upsert_global_commands(self.application_id, payload=[])
            else:
                await self.http.bulk_upsert_guild_commands(self.application_id, guild_id,
                                                           payload=[])
        except discord.HTTPException as exc:
            return [f"removing the old commands of {_scope_words(guild_id)}: "
                    f"{_http_reason(exc)}"]
        self.synced_scopes.append(f"removed from {_scope_words(guild_id)}")
        return []

    def wake_loops(self) -> None:
        """Called by the service after a commit that queued messages or moved a deadline."""
        if self.loops is not None:
            self.loops.wake()

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        self.install_stop_signals()
        await super().start(token, reconnect=reconnect)

    def install_stop_signals(self) -> None:
        """SIGTERM (systemd's stop) and SIGINT (Ctrl-C) stop the bot gracefully (P-38)."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
                loop.add_signal_handler(sig, self._stop_on_signal, sig)

    def _stop_on_signal(self, sig: signal.Signals) -> None:
        if self._signal_stop is None:
            log.info("%s: stopping once the work under way is done", sig.name)
            self._signal_stop = asyncio.get_running_loop().create_task(self.close())

    async def close(self) -> None:
        """A graceful stop (P-38): the scheduler ends its pass, new intents are refused and
        the running ones finish, the messages already due are sent; then the database and the
        gateway close. Each stage waits at most STOP_GRACE seconds. A second call (discord.py
        closes again when ``start`` returns) waits for the first."""
        async with self._close_lock:
            if not self._stopped:
                self._stopped = True
                await self._finish_work()
            # The database closes before the gateway: once the gateway is closed, run()
            # returns and asyncio cancels whatever is left, a close of the database included.
            if self.db is not None:
                await self.db.close()
                self.db = None
            if self._gc_paced:
                gc_pacing.uninstall()
                self._gc_paced = False
            await super().close()

    async def _finish_work(self) -> None:
        loops = self.loops
        if loops is not None:
            await loops.end_scheduler(STOP_GRACE)
        if self._service is not None and not await self._service.intents.close(STOP_GRACE):
            log.warning("stopping with %s intent(s) still running; they are rolled back",
                        self._service.intents.running)
        if loops is not None:
            await loops.flush_outbox(STOP_GRACE)
            await loops.stop()

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Commands go by the one error ladder (``cogs.answers``), as components do."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        name = interaction.command.qualified_name if interaction.command else "?"
        await answer_failure(interaction, cause, f"command {name}")
