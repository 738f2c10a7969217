"""The hosting files (P-39, P-40): the systemd units parse and say what the README says, and
every ``python -m bot ...`` the README shows is a command line the bot accepts."""

from __future__ import annotations

import asyncio
import configparser
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import build_parser
from storage import migrate

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
README = (REPO / "README.md").read_text(encoding="utf-8")
UNITS = ["admiralty.service", "admiralty-backup.service", "admiralty-backup.timer"]


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string((DEPLOY / name).read_text(encoding="utf-8"), source=name)
    return parser


def test_the_service_restarts_on_failure_reads_the_token_from_a_file_and_stops_on_sigterm() -> None:
    service = unit("admiralty.service")["Service"]
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"
    assert service["EnvironmentFile"] == "/etc/admiralty/admiralty.env"
    assert service["User"] == service["Group"] == "admiralty"
    assert service["WorkingDirectory"] == "/opt/admiralty"
    assert service["ExecStart"] == "/opt/admiralty/.venv/bin/python -m bot run"
    assert service["RestartPreventExitStatus"] == "2"  # no token: the bot's EXIT_USAGE
    assert "DISCORD_TOKEN" not in service.get("Environment", "")  # never in the unit itself
    database = service["Environment"].removeprefix("ADMIRALTY_DATABASE_PATH=")
    assert database == f"/var/lib/{service['StateDirectory']}/admiralty.db"
    assert unit("admiralty.service")["Install"]["WantedBy"] == "multi-user.target"
    assert unit("admiralty-backup.timer")["Timer"]["OnCalendar"]
    example = (DEPLOY / "admiralty.env.example").read_text(encoding="utf-8")
    assert re.search(r"^DISCORD_TOKEN=$", example, re.M)


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_the_units_parse_and_systemd_analyze_verify_accepts_them(tmp_path: Path) -> None:
    """Verified as systemd reads them where systemd-analyze is installed (the interpreter path
    points at this test's Python, since verify checks that the command exists); everywhere,
    each parses as an INI file with its unit's sections."""
    for name in UNITS:
        sections = set(unit(name).sections())
        assert {"Unit", "Timer" if name.endswith(".timer") else "Service"} <= sections
        text = (DEPLOY / name).read_text(encoding="utf-8")
        python = "/opt/admiralty/.venv/bin/python"
        (tmp_path / name).write_text(text.replace(python, sys.executable), encoding="utf-8")
    if shutil.which("systemd-analyze") is None:
        return
    proc = subprocess.run(
        ["systemd-analyze", "verify", *(str(tmp_path / n) for n in UNITS)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


def _systemd_command(line: str) -> list[str]:
    """An ExecStart as systemd runs it: its own quoting, `$$` and `%%` for `$` and `%`."""
    return [w.replace("$$", "$").replace("%%", "%") for w in shlex.split(line)]


@pytest.mark.slow  # runs python -m bot (or a tool) in a process
def test_the_backup_units_command_makes_a_dated_backup(tmp_path: Path) -> None:
    service = unit("admiralty-backup.service")["Service"]
    live = tmp_path / "state" / "admiralty.db"
    asyncio.run(migrate(live))
    command = _systemd_command(service["ExecStart"])
    assert command[:2] == ["/bin/sh", "-c"]
    script = (
        command[2]
        .replace("/opt/admiralty/.venv/bin/python", shlex.quote(sys.executable))
        .replace("/var/lib/admiralty", str(tmp_path / "state"))
    )
    proc = subprocess.run(
        ["/bin/sh", "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    made = list((tmp_path / "state" / "backups").iterdir())
    assert len(made) == 1 and re.fullmatch(r"admiralty-\d{8}T\d{6}Z\.db", made[0].name)
    with sqlite3.connect(made[0]) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    prune = _systemd_command(service["ExecStartPost"])
    assert prune[:2] == ["/usr/bin/find", "/var/lib/admiralty/backups"]
    assert "-delete" in prune and "admiralty-*.db" in prune


def _subcommands() -> set[str]:
    parser = build_parser()
    for action in parser._actions:
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            return set(action.choices)
    raise AssertionError("no subcommands")


def test_the_readme_command_table_lists_exactly_the_commands_that_exist() -> None:
    table = README.split("## Command line", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\| `python -m bot ([a-z-]+)", table, re.M))
    assert named == _subcommands() - {"run"}


def test_every_python_m_bot_line_in_the_readme_is_accepted_by_the_parser() -> None:
    blocks = README.split("```")[1::2]
    lines = [
        line.split("python -m bot", 1)[1]
        for block in blocks
        for piece in block.splitlines()
        for line in piece.split(" && ")
        if "python -m bot" in line
    ]
    assert any(line.startswith(" backup ") for line in lines)
    assert any(line.startswith(" restore ") for line in lines)
    for args in lines:
        build_parser().parse_args(shlex.split(args))  # a usage error raises SystemExit


def test_the_readme_hosting_section_names_the_files_in_deploy() -> None:
    hosting = README.split("## Hosting", 1)[1].split("\n## ", 1)[0]
    for name in [*UNITS, "admiralty.env.example"]:
        assert name in hosting and (DEPLOY / name).is_file()
    assert "SIGTERM" in hosting and "/var/lib/admiralty/admiralty.db" in hosting
    assert "refuses a database a newer one has" in hosting
