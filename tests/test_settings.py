"""Settings: TOML + environment, every problem reported with its key, token only from env."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.errors import InvalidInput
from bot.settings import Settings, config_problems, load_settings, parse_reminders

REPO = Path(__file__).resolve().parent.parent

BAD = """
foo = 1
token = "abc"
log_level = "LOUD"
guild_ids = [1, -5]

[timing]
step_hours = -1
reminders = "12,x"
on_deadline = "never"
bar = 2

[outbox]
max_attempts = 0
"""


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no ./config.toml here
    settings = load_settings(env={})
    assert settings.database_path == Path("data/admiralty.db")
    assert settings.log_level == "INFO"
    assert settings.guild_ids == []
    assert settings.timing.step_hours == 48
    assert settings.timing.reminders == "12,1"
    assert settings.timing.on_deadline == "default"
    assert settings.token is None


def test_every_problem_is_reported_with_its_key(tmp_path: Path) -> None:
    problems = config_problems(write(tmp_path, BAD))
    assert len(problems) == 9, problems
    text = "\n".join(problems)
    assert "unknown key 'foo' (allowed: database_path, log_level, guild_ids" in text
    assert ("unknown key 'timing.bar' (allowed: step_hours, reminders, on_deadline, "
            "missed_warning, away_after)") in text
    assert "token: the bot token is never read from the config file" in text
    assert "DISCORD_TOKEN" in text
    assert "log_level: must be one of 'DEBUG'" in text
    assert "guild_ids: -5 is not a Discord guild id" in text
    assert "timing.step_hours: must be >= 0" in problems
    assert "timing.reminders: 'x' is not a number" in text
    assert "timing.on_deadline: must be one of 'default' or 'wait'" in problems
    assert "outbox.max_attempts: must be >= 1" in problems


def test_load_settings_raises_with_all_problems(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput) as info:
        load_settings(write(tmp_path, BAD), env={})
    assert info.value.message.count("\n") == 9
    assert "timing.step_hours" in info.value.message and "unknown key 'foo'" in info.value.message


def test_bad_toml_names_the_file_and_line(tmp_path: Path) -> None:
    problems = config_problems(write(tmp_path, "log_level = \n"))
    assert len(problems) == 1
    assert "not valid TOML" in problems[0] and "line 1" in problems[0]


def test_missing_file(tmp_path: Path) -> None:
    assert config_problems(tmp_path / "nope.toml") == [f"{tmp_path / 'nope.toml'}: file not found"]


def test_token_only_from_environment(tmp_path: Path) -> None:
    path = write(tmp_path, 'log_level = "debug"\n')
    settings = load_settings(path, env={"DISCORD_TOKEN": " secret-token "})
    assert settings.log_level == "DEBUG"
    assert settings.token is not None and settings.token.get_secret_value() == "secret-token"
    # The token never shows in a dump or a repr (logs, check-config output).
    assert "secret-token" not in repr(settings)
    assert "token" not in settings.model_dump()


def test_environment_overrides_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'database_path = "a.db"\n[timing]\nstep_hours = 12\n')
    env = {
        "ADMIRALTY_DATABASE_PATH": "b.db",
        "ADMIRALTY_TIMING__REMINDERS": "6",
        "ADMIRALTY_GUILD_IDS": "11, 22",
    }
    settings = load_settings(path, env=env)
    assert settings.database_path == Path("b.db")
    assert settings.timing.step_hours == 12
    assert settings.timing.reminders == "6"
    assert settings.guild_ids == [11, 22]


def test_bad_environment_override_is_reported_with_its_key(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    env = {"ADMIRALTY_TIMING__STEP_HOURS": "-3", "ADMIRALTY_COLOUR": "red"}
    problems = config_problems(path, env=env)
    assert problems == [
        "timing.step_hours: must be >= 0 (from ADMIRALTY_TIMING__STEP_HOURS)",
        "unknown key 'colour' (allowed: database_path, log_level, guild_ids, demo_output, "
        "timing, outbox, service) (from ADMIRALTY_COLOUR)",
    ]
    with pytest.raises(InvalidInput, match="from ADMIRALTY_TIMING__STEP_HOURS"):
        load_settings(path, env=env)


def test_config_path_from_environment_and_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, 'log_level = "WARNING"\n')
    assert load_settings(env={}).log_level == "WARNING"
    other = write(tmp_path, 'log_level = "ERROR"\n', name="other.toml")
    assert load_settings(env={"ADMIRALTY_CONFIG": str(other)}).log_level == "ERROR"


def test_reminders_parse() -> None:
    assert parse_reminders("1, 12") == [12.0, 1.0]
    assert parse_reminders("") == []
    with pytest.raises(ValueError, match="is not > 0"):
        parse_reminders("0")


def test_example_config_is_complete_and_valid() -> None:
    """config.example.toml names every setting (uncommented) and passes the check."""
    path = REPO / "config.example.toml"
    assert config_problems(path) == []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    top = {k for k in Settings.model_fields if k != "token"}
    assert set(data) == top
    for table in ("timing", "outbox"):
        assert set(data[table]) == set(Settings.model_fields[table].annotation.model_fields)
    # The example holds the defaults, so copying it changes nothing.
    assert Settings.model_validate(data) == Settings()


def test_infinite_hours_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "[timing]\nstep_hours = inf\n[outbox]\nretry_max_seconds = nan\n")
    assert config_problems(path) == [
        "timing.step_hours: must be a finite number",
        "outbox.retry_max_seconds: must be a finite number",
    ]


def test_timing_defaults_agree_with_the_service(tmp_path: Path) -> None:
    """The [timing] defaults and the service's defaults for a new campaign are the same, in
    both the stored form and the text form /campaign settings takes."""
    from bot.campaign.settings import TIMING_DEFAULTS, parse_timing

    timing = Settings().timing
    assert timing.as_stored() == TIMING_DEFAULTS
    parsed = {k: parse_timing(k, v) for k, v in timing.as_changes().items()}
    assert parsed == TIMING_DEFAULTS
    empty = write(tmp_path, "")
    custom = load_settings(empty, env={"ADMIRALTY_TIMING__REMINDERS": "1, 24"})
    assert custom.timing.as_stored()["reminders"] == parse_timing("reminders", "1,24") == [24, 1]


def test_service_bounds_are_read_and_checked(tmp_path: Path) -> None:
    """[service]: how many resolutions /gm undo keeps and how many campaigns stay in memory."""
    assert load_settings(write(tmp_path, ""), env={}).service.undo_depth == 10
    path = write(tmp_path, "[service]\nundo_depth = 3\ncache_campaigns = 50\n")
    settings = load_settings(path, env={"ADMIRALTY_SERVICE__CACHE_CAMPAIGNS": "7"})
    assert (settings.service.undo_depth, settings.service.cache_campaigns) == (3, 7)
    bad = write(tmp_path, "[service]\nundo_depth = 0\ncache_campaigns = 0\nsize = 1\n")
    assert config_problems(bad) == [
        "service.undo_depth: must be >= 1",
        "service.cache_campaigns: must be >= 1",
        "unknown key 'service.size' (allowed: undo_depth, cache_campaigns, "
        "panel_idle_minutes)",
    ]


def test_panel_idle_minutes_is_read_and_bounded(tmp_path: Path) -> None:
    """[service] panel_idle_minutes (P-12): 0 to 1440, default 10; NaN and negatives refused."""
    assert load_settings(write(tmp_path, ""), env={}).service.panel_idle_minutes == 10
    ok = write(tmp_path, "[service]\npanel_idle_minutes = 0\n")
    assert load_settings(ok, env={}).service.panel_idle_minutes == 0
    for value in ("-1", "1441", "nan"):
        bad = write(tmp_path, f"[service]\npanel_idle_minutes = {value}\n")
        problems = config_problems(bad)
        assert len(problems) == 1 and problems[0].startswith("service.panel_idle_minutes: "), (
            value, problems)


def test_a_bom_is_read_and_a_foreign_encoding_is_a_problem_with_its_cause(tmp_path: Path) -> None:
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + b'log_level = "ERROR"\n')
    assert config_problems(bom) == []
    assert load_settings(bom, env={}).log_level == "ERROR"
    wide = tmp_path / "wide.toml"
    wide.write_bytes('log_level = "ERROR"\n'.encode("utf-16-le"))
    assert config_problems(wide) == [
        f"{wide}: not UTF-8 text (it looks like UTF-16); save it as UTF-8"]
    with pytest.raises(InvalidInput, match="save it as UTF-8"):
        load_settings(wide, env={})


def test_reminders_as_a_toml_array_or_as_text(tmp_path: Path) -> None:
    """The natural TOML ``reminders = [12, 1]`` is read; the text form "12,1" still is."""
    path = tmp_path / "c.toml"
    for written, hours in [("[12, 1]", [12.0, 1.0]), ("[1, 0.5, 12]", [12.0, 1.0, 0.5]),
                           ('"12,1"', [12.0, 1.0]), ("[]", []), ('"none"', [])]:
        path.write_text(f"[timing]\nreminders = {written}\n", encoding="utf-8")
        assert config_problems(path) == [], written
        assert load_settings(path, env={}).timing.as_stored()["reminders"] == hours, written
    for written, problem in [
        ('[12, "x"]', "timing.reminders: 'x' is not a number of hours; write e.g. [12, 1]"),
        ("[true]", "timing.reminders: true is not a number of hours"),
        ("[12, 0]", "timing.reminders: 0 is not > 0"),
    ]:
        path.write_text(f"[timing]\nreminders = {written}\n", encoding="utf-8")
        (found,) = config_problems(path)
        assert found.startswith(problem), found


def test_a_nul_byte_in_a_utf8_file_is_refused_as_such(tmp_path: Path) -> None:
    """Valid UTF-8 with one NUL (TOML forbids it) is not mistaken for UTF-16."""
    path = tmp_path / "nul.toml"
    path.write_bytes('# Flottenführer\nlog_level = "ERROR"\n\x00\n'.encode())
    assert config_problems(path) == [
        f"{path}: line 3 holds a NUL byte (0x00), which a TOML file may not contain; remove it"]
    wide = tmp_path / "wide.toml"
    wide.write_bytes('log_level = "ERROR"\n[timing]\nstep_hours = 4\n'.encode("utf-16-be"))
    assert config_problems(wide) == [
        f"{wide}: not UTF-8 text (it looks like UTF-16); save it as UTF-8"]


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({"ADMIRALTY_GUILD_IDS": "12,abc"}, "guild_ids.1: input should be a valid integer"),
        ({"ADMIRALTY_GUILD_IDS": "-5"}, "guild_ids: -5 is not a Discord guild id"),
        ({"ADMIRALTY_TIMING__REMINDERS": "12,x"}, "timing.reminders: 'x' is not a number"),
        ({"ADMIRALTY_TIMING": "3"}, "timing: must be a table"),
        ({"ADMIRALTY_COLOUR": "blue"}, "unknown key 'colour'"),
    ],
)
def test_every_environment_error_names_its_variable(env: dict[str, str], problem: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        load_settings(None, env=env)
    (line,) = caught.value.message.splitlines()[1:]
    assert line.startswith(problem), line
    assert line.endswith(f"(from {next(iter(env))})"), line


def test_a_missing_config_file_from_the_environment_names_the_variable(tmp_path: Path) -> None:
    missing = tmp_path / "gone.toml"
    with pytest.raises(InvalidInput) as caught:
        load_settings(None, env={"ADMIRALTY_CONFIG": str(missing)})
    assert caught.value.message == f"{missing}: file not found (from ADMIRALTY_CONFIG)"
