"""Command line: ``python -m bot`` runs the bot; ``sync`` registers its slash commands now;
subcommands check, migrate, back up, restore and demo work offline.

Exit status: 0 done, 1 the work failed (bad config, demo did not finish), 2 usage problem
(bad arguments, no token).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from bot.errors import UserError
from bot.settings import (
    CONFIG_ENV,
    TOKEN_ENV,
    Settings,
    config_problems,
    load_settings,
    resolve_config_path,
)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

NO_TOKEN_MESSAGE = f"""\
No bot token: set the {TOKEN_ENV} environment variable to your bot's token, e.g.

    {TOKEN_ENV}=your-token-here python -m bot

The token comes from the Discord developer portal (your application -> Bot -> Reset Token).
It is read only from the environment, never from the config file, so keep it out of
config.toml and out of git.

To try the game offline without Discord, run a demo campaign with scripted players:

    python -m bot demo orbits
"""

BAD_TOKEN_MESSAGE = f"""\
Discord refused the token in {TOKEN_ENV}. Copy it again from the developer portal (your
application -> Bot -> Reset Token) and set {TOKEN_ENV} to it; the application id or the client
secret will not work in its place.
"""


NO_ROUTE_MESSAGE = (
    "Cannot reach Discord ({cause}); check this machine's network (DNS, firewall, proxy) and "
    "start the bot again.\n"
)

# discord.py logs every HTTP request and response body (DMs with hands and sealed orders), every
# gateway event (interactions carry what players typed into a modal) and webhook URLs (an
# interaction's token) at DEBUG. They stay at INFO whatever log_level says, so DEBUG logs can
# be shared to report a bug without leaking a game's secrets.
PAYLOAD_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook")


def configure_logging(level: str) -> None:
    """The root logger at ``level``; discord.py's payload loggers never below INFO."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    floor = max(logging.INFO, logging.getLevelName(level))
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(floor)


def _version() -> str:
    """The installed package's version (pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("admiralty")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    defaults = Settings()  # the defaults the help texts name: the real ones
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Admiralty, a Discord game master for space-wargame campaigns. "
        f"Without a subcommand, runs the bot (needs {TOKEN_ENV}).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="settings file (default: $ADMIRALTY_CONFIG, else ./config.toml if present)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("run", help=f"run the bot (the default; needs {TOKEN_ENV})")
    sub.add_parser(
        "sync",
        help="register the slash commands with Discord now, even if unchanged (the bot "
        f"itself syncs only a changed command tree; needs {TOKEN_ENV})",
    )

    check = sub.add_parser("check-config", help="list every problem of a config file")
    check.add_argument("path", nargs="?", type=Path, help="file to check (default as --config)")

    migrate = sub.add_parser("migrate", help="bring the database schema up to date")
    migrate.add_argument(
        "--db", type=Path, default=None,
        help=f"SQLite file (default: the database_path setting, {defaults.database_path})",
    )

    _add_backup_commands(sub)

    demo = sub.add_parser(
        "demo",
        help="play a whole campaign offline with scripted players; write a transcript",
    )
    demo.add_argument("ruleset", help="rule set to play, e.g. orbits, ftcamp, hrft")
    demo.add_argument(
        "--out", type=Path, default=None,
        help=f"transcript folder (default: {defaults.demo_output}/RULESET, or RULESET in "
        "the demo_output setting's folder)",
    )
    demo.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    demo.add_argument("--players", type=int, default=None, help="players (default: the minimum)")
    demo.add_argument(
        "--max-steps", type=int, default=2000, help="give up after this many steps (default 2000)"
    )
    demo.add_argument(
        "--absent",
        type=int,
        action="append",
        default=[],
        metavar="SEAT",
        help="a seat that never acts, so deadlines, reminders and defaults show (repeatable)",
    )
    demo.add_argument(
        "--pace", choices=("instant", "human"), default="instant",
        help="instant: players act at once; human: after seeded random delays (minutes to "
             "most of the deadline), so panels go idle as in real play",
    )
    demo.add_argument(
        "--set",
        dest="options",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a campaign setting or rule-set option, as /campaign settings takes (repeatable)",
    )
    return parser


def _add_backup_commands(sub: argparse._SubParsersAction) -> None:
    backup = sub.add_parser("backup", help="copy the database, safely while the bot runs")
    backup.add_argument("file", type=Path, help="the new backup file")
    backup.add_argument("--db", type=Path, default=None, help="SQLite file (default: settings)")
    restore = sub.add_parser(
        "restore", help="check a backup and put it in place of the database (bot stopped)"
    )
    restore.add_argument("file", type=Path, help="the backup file to restore")
    restore.add_argument("--db", type=Path, default=None, help="SQLite file (default: settings)")


def cmd_backup(args: argparse.Namespace, env: Mapping[str, str], out: TextIO, err: TextIO) -> int:
    """``backup`` and ``restore`` (storage/backup.py does the work, P-39)."""
    from storage.backup import BackupRefused, backup, restore

    path = _database_path(args, env, err)
    if path is None:
        return EXIT_FAILED
    try:
        if args.command == "backup":
            made = backup(path, args.file)
            print(f"{path} backed up to {made.path} (schema version {made.schema})", file=out)
        else:
            done = restore(args.file, path)
            print(
                f"{args.file} restored into {path} (schema version {done.schema}); "
                "start the bot (on start, migrations bring an older schema up to date)",
                file=out,
            )
            if done.kept:
                print(f"the database it replaced is kept as {done.kept}", file=out)
    except BackupRefused as exc:
        print(str(exc), file=err)
        return EXIT_FAILED
    return EXIT_OK


def _database_path(args: argparse.Namespace, env: Mapping[str, str], err: TextIO) -> Path | None:
    """``--db``, else the database_path setting; None when the settings were refused (said)."""
    if args.db is not None:
        return Path(args.db)
    settings = _settings_or_report(args.config, env, err)
    return settings.database_path if settings is not None else None


def _settings_or_report(path: Path | None, env: Mapping[str, str], err: TextIO) -> Settings | None:
    try:
        return load_settings(path, env)
    except UserError as exc:
        print(exc.message, file=err)
        print("Run `python -m bot check-config` for the list of problems.", file=err)
        return None


def _online_settings(args: argparse.Namespace, env: Mapping[str, str], err: TextIO
                     ) -> Settings | int:
    """The settings of a subcommand that talks to Discord (logging set up), or its exit
    status when there is no token or the config is bad."""
    if not env.get(TOKEN_ENV, "").strip():
        print(NO_TOKEN_MESSAGE, file=err, end="")
        return EXIT_USAGE
    settings = _settings_or_report(args.config, env, err)
    if settings is None:
        return EXIT_FAILED
    configure_logging(settings.log_level)
    return settings


def cmd_run(args: argparse.Namespace, env: Mapping[str, str], err: TextIO) -> int:
    settings = _online_settings(args, env, err)
    if isinstance(settings, int):
        return settings
    # Imported here so that the offline subcommands never import discord.py or the cogs.
    from bot.client import AdmiraltyBot

    client = AdmiraltyBot(settings)
    token = settings.token.get_secret_value() if settings.token else ""
    return _with_discord(lambda: client.run(token, log_handler=None), err)


def _with_discord(work: Callable[[], object], err: TextIO) -> int:
    """Runs ``work`` (which talks to Discord) and turns each way it can fail into one line."""
    import aiohttp
    import discord

    from storage import SchemaTooNew, StorageError

    try:
        work()
    except discord.LoginFailure:
        print(BAD_TOKEN_MESSAGE, file=err, end="")
        return EXIT_USAGE
    except discord.HTTPException as exc:  # e.g. a 5xx while logging in
        print(f"Discord refused to log in: {exc.status} {exc.text or ''}".rstrip(), file=err)
        return EXIT_FAILED
    except (discord.GatewayNotFound, discord.ConnectionClosed) as exc:
        print(f"Discord closed the connection: {_cause(exc)}", file=err)
        return EXIT_FAILED
    except (StorageError, SchemaTooNew) as exc:
        # opened in setup_hook: a damaged database, a full disk or a newer schema
        print(str(exc), file=err)
        return EXIT_FAILED
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        if isinstance(exc, OSError) and exc.filename and not isinstance(exc, aiohttp.ClientError):
            # a file of the bot's own (the database folder cannot be created...)
            print(f"{exc.filename}: {exc.strerror or exc}", file=err)
            return EXIT_FAILED
        # no DNS, no route, refused, TLS failure, timeout: one line, not aiohttp's traceback
        print(NO_ROUTE_MESSAGE.format(cause=_cause(exc)), file=err, end="")
        return EXIT_FAILED
    return EXIT_OK


def cmd_sync(args: argparse.Namespace, env: Mapping[str, str], out: TextIO, err: TextIO) -> int:
    """Logs in (no gateway), syncs every scope whatever the stored hashes say (P-38)."""
    settings = _online_settings(args, env, err)
    if isinstance(settings, int):
        return settings
    from bot.client import sync_now

    token = settings.token.get_secret_value() if settings.token else ""
    report: dict[str, list[str]] = {}
    status = _with_discord(lambda: report.update(asyncio.run(sync_now(settings, token))), err)
    if status != EXIT_OK:
        return status
    for problem in report.get("problems", []):
        print(f"Discord refused the slash commands for {problem}", file=err)
    if report.get("problems"):
        return EXIT_FAILED
    print("Slash commands synced: " + "; ".join(report.get("synced", [])), file=out)
    return EXIT_OK


def _cause(exc: BaseException) -> str:
    """A short reason for a failed connection (aiohttp's text, else the OS's)."""
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def cmd_check_config(
    args: argparse.Namespace, env: Mapping[str, str], out: TextIO, err: TextIO
) -> int:
    path = args.path or resolve_config_path(args.config, env)
    if path is None:
        print("No config file (./config.toml not found); the defaults apply. config OK", file=out)
        return EXIT_OK
    problems = config_problems(path, env)
    if problems:
        origin = (f" (named by {CONFIG_ENV})"
                  if args.path is None and args.config is None and env.get(CONFIG_ENV) else "")
        print(f"{path}{origin}: {len(problems)} problem(s):", file=err)
        for problem in problems:
            print(f"  {problem}", file=err)
        return EXIT_FAILED
    print(f"{path}: config OK", file=out)
    return EXIT_OK


def cmd_migrate(args: argparse.Namespace, env: Mapping[str, str], out: TextIO, err: TextIO) -> int:
    from storage import SchemaTooNew, StorageError, migrate

    path = _database_path(args, env, err)
    if path is None:
        return EXIT_FAILED
    try:
        old, new = asyncio.run(migrate(path))
    except (SchemaTooNew, StorageError) as exc:
        print(str(exc), file=err)
        return EXIT_FAILED
    except OSError as exc:  # e.g. the folder cannot be created
        print(f"{path}: cannot open: {exc.strerror or exc}", file=err)
        return EXIT_FAILED
    if old == new:
        print(f"{path}: schema version {new}, already up to date", file=out)
    else:
        print(f"{path}: schema version {old} -> {new}", file=out)
    return EXIT_OK


def cmd_demo(args: argparse.Namespace, env: Mapping[str, str], out: TextIO, err: TextIO) -> int:
    from bot.campaign.demo import DemoFailed, run_demo

    settings = _settings_or_report(args.config, env, err)
    if settings is None:
        return EXIT_FAILED
    folder = args.out or settings.demo_output / args.ruleset
    options: dict[str, str] = {}
    for item in args.options:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            print(f"--set takes KEY=VALUE, got '{item}'", file=err)
            return EXIT_USAGE
        options[key.strip()] = value.strip()
    try:
        result = asyncio.run(
            run_demo(
                args.ruleset,
                folder,
                seed=args.seed,
                players=args.players,
                max_steps=args.max_steps,
                options=options,
                absent=set(args.absent),
                pace=args.pace,
            )
        )
    except DemoFailed as exc:
        print(f"demo failed: {exc}", file=err)
        return EXIT_FAILED
    except UserError as exc:
        print(exc.message, file=err)
        return EXIT_USAGE
    print(result.summary(), file=out)
    print(f"transcript written to {folder}/", file=out)
    return EXIT_OK


def main(
    argv: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Entry point (also the ``admiralty`` console script); returns the exit status."""
    env = os.environ if env is None else env
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    args = build_parser().parse_args(argv)
    if args.command == "check-config":
        return cmd_check_config(args, env, out, err)
    if args.command == "migrate":
        return cmd_migrate(args, env, out, err)
    if args.command == "demo":
        return cmd_demo(args, env, out, err)
    if args.command in ("backup", "restore"):
        return cmd_backup(args, env, out, err)
    if args.command == "sync":
        return cmd_sync(args, env, out, err)
    return cmd_run(args, env, err)


if __name__ == "__main__":
    sys.exit(main())
