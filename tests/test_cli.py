"""The command line: run without a token, check-config, migrate, demo."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from bot.settings import Settings

REPO = Path(__file__).resolve().parent.parent


def run(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, env=env or {}, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


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
    assert run_bot.startswith("python3 -m venv .venv && .venv/bin/pip install -e . && ")
    assert run_bot.endswith(".venv/bin/python -m bot") and "DISCORD_TOKEN=" in run_bot
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    test_command = run_tests.split(" && ")[-1]
    assert test_command == ".venv/bin/python -m pytest -q"
    assert test_command in ci
    assert '.venv/bin/pip install -e ".[test]"' in ci and '-e ".[test]"' in run_tests


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
