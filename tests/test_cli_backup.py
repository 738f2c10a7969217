"""``python -m bot backup FILE`` and ``restore FILE`` (P-39): exit status and what they say."""

from __future__ import annotations

import contextlib
import io
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import EXIT_FAILED, EXIT_OK, main
from storage import code_version
from tests.support.rest_stub import RestStub


def run(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, env=env or {}, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_backup_then_restore_through_the_configured_database(tmp_path: Path) -> None:
    db = tmp_path / "data" / "admiralty.db"
    env = {"ADMIRALTY_DATABASE_PATH": str(db)}
    assert run(["migrate"], env)[0] == EXIT_OK
    copy = tmp_path / "backups" / "b.db"

    code, out, err = run(["backup", str(copy)], env)
    assert (code, err) == (EXIT_OK, "")
    assert out == f"{db} backed up to {copy} (schema version {code_version()})\n"

    code, out, err = run(["restore", str(copy)], env)
    assert (code, err) == (EXIT_OK, "")
    assert f"{copy} restored into {db} (schema version {code_version()})" in out
    kept = list(db.parent.glob("admiralty.db.before-restore-*"))
    assert len(kept) == 1 and f"the database it replaced is kept as {kept[0]}" in out


def test_refusals_exit_1_with_the_reason(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    assert run(["migrate", "--db", str(db)])[0] == EXIT_OK
    code, out, err = run(["restore", "--db", str(db), str(tmp_path / "none.db")])
    assert (code, out) == (EXIT_FAILED, "")
    assert "none.db: no such file" in err
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text)")
    conn.close()
    code, _, err = run(["restore", "--db", str(db), str(other)])
    assert code == EXIT_FAILED and "not an Admiralty one" in err
    code, _, err = run(["backup", "--db", str(tmp_path / "missing.db"), str(tmp_path / "b.db")])
    assert code == EXIT_FAILED and "no such file" in err


def test_help_names_both_commands() -> None:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.suppress(SystemExit):
        main(["--help"])
    assert "backup" in buffer.getvalue() and "restore" in buffer.getvalue()


class LoginOnlyDiscord(RestStub):
    """A local stand-in for Discord's HTTP API that lets the bot log in (the bot user and its
    application), so a real ``python -m bot`` gets as far as opening its database."""

    ANSWERS = {
        "/api/v10/users/@me": {"id": "1", "username": "bot", "discriminator": "0",
                               "avatar": None, "bot": True},
        "/api/v10/oauth2/applications/@me": {
            "id": "1", "name": "bot", "icon": None, "description": "", "bot_public": True,
            "bot_require_code_grant": False, "verify_key": "00", "flags": 0,
            "owner": {"id": "2", "username": "owner", "discriminator": "0", "avatar": None},
        },
    }

    def __init__(self) -> None:
        answers = self.ANSWERS
        super().__init__(lambda method, path, body: (
            (200, answers[path]) if path in answers
            else (404, {"message": "404: Not Found", "code": 0})))


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_the_bot_refuses_to_start_on_a_database_from_a_newer_bot(tmp_path: Path) -> None:
    """An upgrade's way back (P-40): a real ``python -m bot`` logs in, opens its database,
    finds a newer schema and stops with both versions, exit 1, the database unchanged."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parent.parent
    db = tmp_path / "admiralty.db"
    assert run(["migrate", "--db", str(db)])[0] == EXIT_OK
    newer = code_version() + 1
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE schema_version SET version = ?", (newer,))
    conn.close()
    before = db.read_bytes()
    fake = LoginOnlyDiscord()
    prelude = f"import discord.http\ndiscord.http.Route.BASE = {fake.base!r}"
    code = f"import sys\n{prelude}\nfrom bot.__main__ import main\nsys.exit(main(sys.argv[1:]))"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADMIRALTY_")}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
            env={**env, "PYTHONPATH": str(repo), "DISCORD_TOKEN": "a.b.c",
                 "ADMIRALTY_DATABASE_PATH": str(db)},
            timeout=120,
        )
    finally:
        fake.close()
    assert "/api/v10/users/@me" in fake.paths()  # it did log in first
    assert proc.returncode == EXIT_FAILED, proc.stderr
    assert (
        f"Database {db} has schema version {newer}, but this version of the bot only knows "
        f"up to {code_version()}. Upgrade the bot"
    ) in proc.stderr
    assert "Traceback" not in proc.stderr
    assert db.read_bytes() == before
