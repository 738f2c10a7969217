"""The command line: run without a token, check-config, migrate, demo."""

from __future__ import annotations

import codecs
import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from bot.settings import Settings
from tests.support.rest_stub import RestStub

REPO = Path(__file__).resolve().parent.parent


def run(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, env=env or {}, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_python_m_bot_without_token_exits_2_with_help(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr
    assert "never from the config file" in proc.stderr
    assert "python -m bot demo orbits" in proc.stderr
    assert proc.stdout == ""
    # The offline path must not even import discord.py.
    assert "Traceback" not in proc.stderr


def test_run_without_token_never_imports_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "bot.client", raising=False)
    code, out, err = run([], env={"DISCORD_TOKEN": "  "})
    assert code == EXIT_USAGE
    assert "No bot token" in err
    assert "bot.client" not in sys.modules


def test_run_with_bad_config_lists_problems_before_connecting(tmp_path: Path) -> None:
    bad = tmp_path / "c.toml"
    bad.write_text("[timing]\nstep_hours = -2\n")
    code, _, err = run(["--config", str(bad), "run"], env={"DISCORD_TOKEN": "x"})
    assert code == EXIT_FAILED
    assert "timing.step_hours: must be >= 0" in err


def test_check_config_good_file(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('log_level = "DEBUG"\n[timing]\nstep_hours = 24\n')
    code, out, err = run(["check-config", str(good)])
    assert code == EXIT_OK
    assert "config OK" in out and err == ""


def test_check_config_example_file() -> None:
    code, out, _ = run(["check-config", str(REPO / "config.example.toml")])
    assert code == EXIT_OK and "config OK" in out


def test_check_config_bad_file_prints_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('foo = 1\ntoken = "t"\n[timing]\nstep_hours = -1\non_deadline = "x"\n')
    code, out, err = run(["check-config", str(bad)])
    assert code == EXIT_FAILED
    assert out == ""
    assert "4 problem(s)" in err
    for fragment in (
        "unknown key 'foo' (allowed:",
        "token: the bot token is never read from the config file",
        "timing.step_hours: must be >= 0",
        "timing.on_deadline: must be one of 'default' or 'wait'",
    ):
        assert fragment in err


def test_check_config_without_file_uses_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["check-config"])
    assert code == EXIT_OK and "defaults apply" in out


def test_migrate_creates_and_reports_versions(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "a.db"
    code, out, err = run(["migrate", "--db", str(db)])
    assert code == EXIT_OK, err
    assert "schema version 0 -> " in out
    with sqlite3.connect(db) as conn:
        version = conn.execute("SELECT version FROM schema_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert version >= 1 and {"campaigns", "outbox"} <= tables
    code, out, _ = run(["migrate", "--db", str(db)])
    assert code == EXIT_OK
    assert f"schema version {version}, already up to date" in out


def test_migrate_refuses_a_newer_database(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO schema_version VALUES (999)")
    code, _, err = run(["migrate", "--db", str(db)])
    assert code == EXIT_FAILED
    assert "999" in err


def test_migrate_uses_the_configured_path(tmp_path: Path) -> None:
    db = tmp_path / "from-env.db"
    code, out, _ = run(["migrate"], env={"ADMIRALTY_DATABASE_PATH": str(db)})
    assert code == EXIT_OK and db.exists() and str(db) in out


def test_unknown_subcommand_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        run(["frobnicate"])
    assert info.value.code == 2


def test_run_with_token_builds_the_client_from_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wiring only: the real client gets the settings and the token (no network here)."""
    import bot.client

    seen: dict[str, object] = {}

    class FakeBot:
        def __init__(self, config: object) -> None:
            seen["config"] = config

        def run(self, token: str, log_handler: object = "unset") -> None:
            seen["token"] = token
            seen["log_handler"] = log_handler

    monkeypatch.setattr(bot.client, "AdmiraltyBot", FakeBot)
    config = tmp_path / "c.toml"
    config.write_text(f'database_path = "{tmp_path / "x.db"}"\n')
    code, _, err = run(["--config", str(config)], env={"DISCORD_TOKEN": "tok"})
    assert code == EXIT_OK, err
    assert seen["token"] == "tok"
    assert seen["log_handler"] is None  # logging is configured once, by the CLI
    settings = seen["config"]
    assert isinstance(settings, Settings)
    assert settings.db_path == tmp_path / "x.db"  # the name bot.client reads


def test_readme_opens_with_the_two_commands_ci_runs() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    first_block = text.split("```")[1].strip().splitlines()
    assert len(first_block) == 2
    run_bot, run_tests = first_block
    # both install the locked versions, hashes checked, then the bot itself (P-40)
    assert run_bot.startswith(
        "python3 -m venv .venv && .venv/bin/pip install --require-hashes -r requirements.lock"
        " && .venv/bin/pip install --no-deps -e . && "
    )
    assert run_bot.endswith(".venv/bin/python -m bot") and "DISCORD_TOKEN=" in run_bot
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    install_tests, install_bot, test_command = run_tests.split(" && ")[1:]
    assert test_command == ".venv/bin/python -m pytest -q"
    assert test_command in ci
    assert install_tests == ".venv/bin/pip install --require-hashes -r requirements-test.lock"
    assert install_tests in ci and install_bot in ci
    assert install_bot == ".venv/bin/pip install --no-deps -e ."


def test_a_refused_token_is_a_usage_error_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import discord

    import bot.client

    class RefusedBot:
        def __init__(self, config: object) -> None:
            pass

        def run(self, token: str, log_handler: object = None) -> None:
            raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(bot.client, "AdmiraltyBot", RefusedBot)
    monkeypatch.chdir(tmp_path)
    code, _, err = run([], env={"DISCORD_TOKEN": "not-a-token"})
    assert code == EXIT_USAGE
    assert "Discord refused the token in DISCORD_TOKEN" in err


def test_readme_permission_integer_matches_the_permissions_it_names() -> None:
    import discord

    wanted = discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        embed_links=True,
        attach_files=True,
        read_message_history=True,
    )
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"**{wanted.value}**" in text
    assert f"permissions={wanted.value}" in text


# --- failing cleanly (issue 8): encodings, non-databases, no route, secrets in DEBUG logs ---

CLEAN_CONFIG = 'log_level = "WARNING"\n[timing]\nstep_hours = 12\n'


def python_m_bot(args: list[str], cwd: Path, env: dict[str, str] | None = None,
                 prelude: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in a fresh process (``prelude`` runs first, e.g. to point
    discord.py at a local server); never waits more than 60 s."""
    base = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    code = f"import sys\n{prelude}\nfrom bot.__main__ import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True,
        env={**base, "PYTHONPATH": str(REPO), **(env or {})}, timeout=60,
    )


@pytest.mark.parametrize(
    ("bom", "encoding"),
    [(b"", "utf-8-sig"), (b"", "utf-16"), (codecs.BOM_UTF16_BE, "utf-16-be"), (b"", "utf-32")],
)
def test_a_config_file_with_a_byte_order_mark_is_read(
    tmp_path: Path, bom: bytes, encoding: str
) -> None:
    """Windows editors write a BOM; it names the encoding, so the file is read as written."""
    path = tmp_path / "c.toml"
    path.write_bytes(bom + CLEAN_CONFIG.encode(encoding))
    assert path.read_bytes()[:2] in (b"\xef\xbb", b"\xff\xfe", b"\xfe\xff")
    code, out, err = run(["check-config", str(path)])
    assert (code, err) == (EXIT_OK, "") and "config OK" in out
    from bot.settings import load_settings

    settings = load_settings(path, env={})
    assert settings.log_level == "WARNING" and settings.timing.step_hours == 12


@pytest.mark.parametrize(
    ("data", "cause"),
    [
        (CLEAN_CONFIG.encode("utf-16-le"),
         "not UTF-8 text (it looks like UTF-16); save it as UTF-8"),
        ('# menu\nlog_level = "caf\xe9"\n'.encode("latin-1"),
         "not UTF-8 text: byte 0xe9 on line 2 cannot be read; save it as UTF-8"),
        (b"\xff\xfe" + b"a\x00=\x00\x00\xd8",
         "not utf-16 text: byte 0x00 on line 1 cannot be read; save it as UTF-8"),
    ],
    ids=["utf16-no-bom", "latin1", "broken-utf16"],
)
def test_a_config_file_in_another_encoding_is_a_config_problem(
    tmp_path: Path, data: bytes, cause: str
) -> None:
    path = tmp_path / "c.toml"
    path.write_bytes(data)
    code, out, err = run(["check-config", str(path)])
    assert code == EXIT_FAILED and out == ""
    assert f"{path}: {cause}" in err
    for argv in (["--config", str(path), "run"], ["--config", str(path), "demo", "orbits"]):
        code, out, err = run(argv, env={"DISCORD_TOKEN": "x"})
        assert code == EXIT_FAILED, argv
        assert err.splitlines()[0] == f"{path}: {cause}"
        assert "Traceback" not in err


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_a_utf16_config_in_a_real_process_is_one_line_and_exit_1(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_bytes(CLEAN_CONFIG.encode("utf-16-le"))
    for args in (["check-config"], ["run"], ["demo", "orbits"]):
        proc = python_m_bot(args, tmp_path, env={"DISCORD_TOKEN": "x"})
        assert proc.returncode == EXIT_FAILED, (args, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert "save it as UTF-8" in proc.stderr.splitlines()[-1 if args == ["check-config"]
                                                               else 0]


def test_a_config_nested_too_deep_is_a_config_problem(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("guild_ids = " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    code, _, err = run(["check-config", str(path)])
    assert code == EXIT_FAILED and "nested too deep" in err


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_migrate_on_a_file_that_is_not_a_database_says_so_and_exits(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: milk, eggs\n" * 100, encoding="utf-8")
    proc = python_m_bot(["migrate", "--db", str(notes)], tmp_path)  # hung before: timeout
    assert proc.returncode == EXIT_FAILED
    assert proc.stderr.strip().splitlines() == [
        f"{notes} is not an SQLite database (or its first page is damaged); point "
        "database_path (or --db) at the bot's database file."
    ]
    assert notes.read_text(encoding="utf-8") == "shopping: milk, eggs\n" * 100


def test_migrate_on_a_damaged_database_refuses_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    assert run(["migrate", "--db", str(db)])[0] == EXIT_OK
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE filler (data TEXT)")
    conn.executemany("INSERT INTO filler VALUES (?)", [("x" * 400,) for _ in range(400)])
    conn.commit()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    with db.open("r+b") as handle:
        handle.seek((pages // 2 - 1) * 4096)
        handle.write(b"\xff" * 64)
    code, out, err = run(["migrate", "--db", str(db)])
    assert code == EXIT_FAILED and out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(f"Database {db} is damaged (") and "restore it from a backup" in err


def test_run_refuses_a_damaged_database_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot opens its database in setup_hook: a DatabaseDamaged from there is one line."""
    import bot.client
    from storage import DatabaseDamaged

    class DamagedBot:
        def __init__(self, config: object) -> None:
            pass

        def run(self, token: str, log_handler: object = None) -> None:
            raise DatabaseDamaged("Database x.db is damaged (page 3). Restore it from a backup.")

    monkeypatch.setattr(bot.client, "AdmiraltyBot", DamagedBot)
    monkeypatch.chdir(tmp_path)
    code, _, err = run([], env={"DISCORD_TOKEN": "tok"})
    assert code == EXIT_FAILED
    assert err == "Database x.db is damaged (page 3). Restore it from a backup.\n"


def closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when the block ends


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_run_with_no_route_to_discord_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """discord.py pointed at a closed local port: the real aiohttp ClientConnectorError."""
    prelude = f"import discord.http\ndiscord.http.Route.BASE = 'http://127.0.0.1:{closed_port()}'"
    (tmp_path / "config.toml").write_text(f'database_path = "{tmp_path / "b.db"}"\n')
    proc = python_m_bot([], tmp_path, env={"DISCORD_TOKEN": "a.b.c"}, prelude=prelude)
    assert proc.returncode == EXIT_FAILED
    assert "Traceback" not in proc.stderr
    problem = [line for line in proc.stderr.splitlines() if " discord.client: " not in line]
    assert len(problem) == 1, proc.stderr
    assert problem[0].startswith("Cannot reach Discord (Cannot connect to host 127.0.0.1:")
    assert problem[0].endswith("check this machine's network (DNS, firewall, proxy) and start "
                               "the bot again.")


class FakeDiscord(RestStub):
    """A local HTTP server that answers every request like Discord does a bad token (401),
    and remembers what it was sent."""

    def __init__(self) -> None:
        super().__init__(lambda method, path, body: (
            401, {"message": "401: Unauthorized", "code": 0}))


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_a_token_discord_refuses_is_one_message_and_exit_2_and_debug_logs_no_payload(
    tmp_path: Path,
) -> None:
    """A real 401 from a local stand-in for Discord, with log_level DEBUG: discord.py raises
    its own LoginFailure; the DEBUG log has the bot's lines but no request or response."""
    fake = FakeDiscord()
    try:
        (tmp_path / "config.toml").write_text(
            f'log_level = "DEBUG"\ndatabase_path = "{tmp_path / "b.db"}"\n'
        )
        prelude = f"import discord.http\ndiscord.http.Route.BASE = {fake.base!r}"
        proc = python_m_bot([], tmp_path, env={"DISCORD_TOKEN": "secret.tok.en"},
                            prelude=prelude)
    finally:
        fake.close()
    assert fake.paths() == ["/api/v10/users/@me"]  # it did ask "Discord"
    assert proc.returncode == EXIT_USAGE
    assert "Discord refused the token in DISCORD_TOKEN" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert " DEBUG asyncio: Using selector" in proc.stderr  # DEBUG is on for the rest
    assert "/users/@me" not in proc.stderr and "401: Unauthorized" not in proc.stderr
    assert "secret.tok.en" not in proc.stderr


def test_debug_keeps_discord_payload_loggers_at_info(monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    from bot.__main__ import PAYLOAD_LOGGERS, configure_logging

    names = [*PAYLOAD_LOGGERS, "discord.webhook.async_", "discord.webhook.sync", "discord.client"]
    saved = {n: logging.getLogger(n).level for n in names}
    root = logging.getLogger()
    monkeypatch.setattr(root, "level", root.level)
    try:
        configure_logging("DEBUG")
        root.setLevel(logging.DEBUG)  # basicConfig leaves a configured root (pytest's) alone
        for name in ("discord.http", "discord.gateway", "discord.webhook.async_",
                     "discord.webhook.sync"):
            logger = logging.getLogger(name)
            assert logger.getEffectiveLevel() == logging.INFO, name
            assert not logger.isEnabledFor(logging.DEBUG)
        assert logging.getLogger("discord.client").isEnabledFor(logging.DEBUG)
        configure_logging("WARNING")
        assert logging.getLogger("discord.http").getEffectiveLevel() == logging.WARNING
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


def test_the_example_config_says_why_discord_payloads_stay_at_info() -> None:
    text = (REPO / "config.example.toml").read_text(encoding="utf-8")
    comment = text.split("log_level =")[0].rsplit("\n\n", 1)[-1]
    assert "discord.http" in comment and "INFO" in comment and "sealed orders" in comment


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_migrate_on_a_folder_says_so_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    proc = python_m_bot(["migrate", "--db", str(folder)], tmp_path)
    assert proc.returncode == EXIT_FAILED
    assert proc.stderr.strip().splitlines() == [
        f"Database {folder}: unable to open database file; check the path is a file (not a "
        "folder) that the bot's user may read and write, in a folder it may write."
    ]


def test_run_with_a_database_folder_it_cannot_create_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An OSError about the bot's own file is not reported as 'cannot reach Discord'."""
    import bot.client

    class NoFolderBot:
        def __init__(self, config: object) -> None:
            pass

        def run(self, token: str, log_handler: object = None) -> None:
            raise PermissionError(13, "Permission denied", "/srv/data")

    monkeypatch.setattr(bot.client, "AdmiraltyBot", NoFolderBot)
    monkeypatch.chdir(tmp_path)
    code, _, err = run([], env={"DISCORD_TOKEN": "tok"})
    assert (code, err) == (EXIT_FAILED, "/srv/data: Permission denied\n")


class FakeDiscordApi(RestStub):
    """A local stand-in for Discord's REST API that logs a bot in and takes command syncs;
    it refuses the commands of ``refused_guild`` with 403 Missing Access."""

    APP_ID = 1234567890123456789

    def __init__(self, refused_guild: int | None = None) -> None:
        app_id = self.APP_ID
        user = {"id": "42", "username": "admiralty", "discriminator": "0", "avatar": None,
                "bot": True}

        def answer(method: str, path: str, body: Any) -> tuple[int, Any]:
            if method == "PUT":
                if refused_guild is not None and f"/guilds/{refused_guild}/" in path:
                    return 403, {"message": "Missing Access", "code": 50001}
                return 200, [{**c, "id": str(1000 + i), "application_id": str(app_id),
                              "version": "1"} for i, c in enumerate(body)]
            if path.endswith("/users/@me"):
                return 200, user
            if path.endswith("/oauth2/applications/@me"):
                return 200, {"id": str(app_id), "name": "Admiralty", "icon": None,
                             "description": "", "verify_key": "k", "bot_public": True,
                             "bot_require_code_grant": False, "owner": user, "flags": 0}
            return 404, {"message": "Unknown", "code": 0}

        super().__init__(answer)

    @property
    def prelude(self) -> str:
        return f"import discord.http\ndiscord.http.Route.BASE = {self.base!r}"

    def puts(self) -> list[str]:
        return [path for method, path in self.requests if method == "PUT"]


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_p38_python_m_bot_sync_syncs_an_unchanged_tree_again(tmp_path: Path) -> None:
    """``python -m bot sync`` against a local stand-in for Discord: each development guild
    once (named twice in the config), and again when run again though nothing changed."""
    fake = FakeDiscordApi()
    try:
        (tmp_path / "config.toml").write_text(
            f'database_path = "{tmp_path / "b.db"}"\nguild_ids = [11, 22, 11]\n')
        first = python_m_bot(["sync"], tmp_path, env={"DISCORD_TOKEN": "a.b.c"},
                             prelude=fake.prelude)
        second = python_m_bot(["sync"], tmp_path, env={"DISCORD_TOKEN": "a.b.c"},
                              prelude=fake.prelude)
    finally:
        fake.close()
    assert first.returncode == EXIT_OK, first.stderr
    assert first.stdout.startswith("Slash commands synced: guild 11; guild 22")
    app = FakeDiscordApi.APP_ID
    guild_puts = [f"/api/v10/applications/{app}/guilds/{g}/commands" for g in (11, 22)]
    # each guild once per run; the global set emptied (no command shows twice)
    assert fake.puts() == [*guild_puts, f"/api/v10/applications/{app}/commands"] * 2
    assert second.returncode == EXIT_OK, second.stderr
    assert (tmp_path / "b.db.commands.json").exists()


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_p38_a_refused_sync_says_so_and_exits_1(tmp_path: Path) -> None:
    fake = FakeDiscordApi(refused_guild=22)
    try:
        (tmp_path / "config.toml").write_text(
            f'database_path = "{tmp_path / "b.db"}"\nguild_ids = [11, 22]\n')
        proc = python_m_bot(["sync"], tmp_path, env={"DISCORD_TOKEN": "a.b.c"},
                            prelude=fake.prelude)
    finally:
        fake.close()
    assert proc.returncode == EXIT_FAILED
    assert "Discord refused the slash commands for guild 22: 403 Missing Access" in proc.stderr
    assert "refused to log in" not in proc.stderr and "Traceback" not in proc.stderr


def test_sync_without_token_is_a_usage_error() -> None:
    code, out, err = run(["sync"], env={})
    assert code == EXIT_USAGE and "No bot token" in err and out == ""


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_version_prints_the_package_version() -> None:
    from importlib.metadata import version

    proc = python_m_bot(["--version"], REPO)
    assert proc.returncode == EXIT_OK, proc.stderr
    assert proc.stdout.strip() == f"python -m bot {version('admiralty')}"


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_demo_help_names_the_folder_a_demo_really_writes_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    import bot.campaign.demo as demo

    help_text = " ".join(python_m_bot(["demo", "--help"], tmp_path).stdout.split())
    named = re.search(r"\(default: (\S+)/RULESET", help_text)
    assert named, help_text
    seen: dict[str, Path] = {}

    class Done:
        def summary(self) -> str:
            return "done"

    async def fake_demo(ruleset: str, folder: Path, **_: object) -> Done:
        seen["folder"] = folder
        return Done()

    monkeypatch.setattr(demo, "run_demo", fake_demo)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["demo", "orbits"])
    assert code == EXIT_OK, err
    assert seen["folder"] == Path(named.group(1)) / "orbits"
    assert f"transcript written to {Path(named.group(1)) / 'orbits'}/" in out


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_migrate_help_names_the_real_database_default(tmp_path: Path) -> None:
    help_text = " ".join(python_m_bot(["migrate", "--help"], tmp_path).stdout.split())
    assert f"default: the database_path setting, {Settings().database_path}" in help_text


def test_the_bot_logs_no_voice_warnings(caplog: pytest.LogCaptureFixture,
                                        monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    """PyNaCl and davey are not installed (the bot has no voice): discord.py would warn of
    each once per process, at the first client."""
    import logging

    import discord

    from bot.client import AdmiraltyBot

    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.DEBUG):
        AdmiraltyBot(tmp_path / "x.db")
    assert [r.getMessage() for r in caplog.records if "voice" in r.getMessage()] == []


def test_check_config_of_a_file_named_by_the_environment_says_so(tmp_path: Path) -> None:
    missing = tmp_path / "gone.toml"
    code, _, err = run(["check-config"], env={"ADMIRALTY_CONFIG": str(missing)})
    assert code == EXIT_FAILED
    assert err.splitlines()[0] == f"{missing} (named by ADMIRALTY_CONFIG): 1 problem(s):"


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_sync_with_a_token_discord_refuses_is_one_message_and_exit_2(tmp_path: Path) -> None:
    fake = FakeDiscord()
    try:
        (tmp_path / "config.toml").write_text(f'database_path = "{tmp_path / "b.db"}"\n')
        prelude = f"import discord.http\ndiscord.http.Route.BASE = {fake.base!r}"
        proc = python_m_bot(["sync"], tmp_path, env={"DISCORD_TOKEN": "secret.tok.en"},
                            prelude=prelude)
    finally:
        fake.close()
    assert proc.returncode == EXIT_USAGE
    assert "Discord refused the token in DISCORD_TOKEN" in proc.stderr
    assert "Traceback" not in proc.stderr and "secret.tok.en" not in proc.stderr
