"""``python -m bot backup FILE`` and ``restore FILE`` (P-39): exit status and what they say."""

from __future__ import annotations

import contextlib
import io
import sqlite3
from pathlib import Path

from bot.__main__ import EXIT_FAILED, EXIT_OK, main
from storage import code_version


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
