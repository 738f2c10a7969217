"""Settings: a TOML file plus the environment -> a validated pydantic model.

The bot token is read ONLY from the ``DISCORD_TOKEN`` environment variable, never from the
file, so a config file can be shared or committed without leaking it. Any other top-level
setting may be overridden by ``ADMIRALTY_<NAME>`` (``ADMIRALTY_DATABASE_PATH``) and a nested
one by ``ADMIRALTY_<TABLE>__<NAME>`` (``ADMIRALTY_TIMING__STEP_HOURS``).
"""

from __future__ import annotations

import codecs
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
)

from bot.errors import InvalidInput

DEFAULT_CONFIG = Path("config.toml")
CONFIG_ENV = "ADMIRALTY_CONFIG"
TOKEN_ENV = "DISCORD_TOKEN"
ENV_PREFIX = "ADMIRALTY_"
_TOKEN_KEYS = {"token", "discord_token", "bot_token"}

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
OnDeadline = Literal["default", "wait"]


def parse_reminders(text: str) -> list[float]:
    """``"12,1"`` -> ``[12.0, 1.0]``: hours before a deadline, each > 0, largest first."""
    if text.strip().lower() in ("", "none", "off"):
        return []
    hours: list[float] = []
    for part in text.split(","):
        try:
            value = float(part.strip())
        except ValueError:
            raise ValueError(
                f"'{part.strip()}' is not a number; write hours before the deadline "
                'separated by commas, e.g. "12,1" (or "none")'
            ) from None
        if value <= 0:
            raise ValueError(f"{part.strip()} is not > 0; reminders are hours before the deadline")
        hours.append(value)
    return sorted(set(hours), reverse=True)


class TimingSettings(BaseModel):
    """Defaults for new campaigns; a GM changes them per campaign with /campaign settings."""

    model_config = ConfigDict(extra="forbid")

    step_hours: float = Field(
        default=48,
        ge=0,
        allow_inf_nan=False,
        description="hours players get for each step; 0 = no deadline",
    )
    reminders: str = Field(
        default="12,1",
        description="hours before the deadline to remind players who are late: [12, 1] "
                    "or \"12,1\"",
    )
    on_deadline: OnDeadline = Field(
        default="default",
        description="'default': missing players take the default action; 'wait': the GM decides",
    )
    missed_warning: int = Field(
        default=3, ge=0, le=50,
        description="warn the GM when a seat missed this many deadlines in a row; 0 = never",
    )
    away_after: int = Field(
        default=3, ge=0, le=50,
        description="a seat that missed this many deadlines in a row is away; 0 = never",
    )

    @field_validator("reminders", mode="before")
    @classmethod
    def _hours_list_as_text(cls, value: Any) -> Any:
        """The natural TOML ``reminders = [12, 1]`` is kept as the text form "12,1" the GM's
        /campaign settings uses too; ``[]`` is no reminders."""
        if not isinstance(value, list):
            return value
        for hours in value:
            if isinstance(hours, bool) or not isinstance(hours, (int, float)):
                shown = str(hours).lower() if isinstance(hours, bool) else repr(hours)
                raise ValueError(f"{shown} is not a number of hours; write e.g. [12, 1] "
                                 "(or [] for no reminders)")
        return ",".join(f"{float(h):g}" for h in value) or "none"

    @field_validator("reminders")
    @classmethod
    def _check_reminders(cls, value: str) -> str:
        parse_reminders(value)
        return value

    def as_changes(self) -> dict[str, str]:
        """As text, the form ``CampaignService.settings(actor, channel, changes)`` takes."""
        return {
            "step_hours": f"{self.step_hours:g}",
            "reminders": self.reminders,
            "on_deadline": self.on_deadline,
            "missed_warning": str(self.missed_warning),
            "away_after": str(self.away_after),
        }

    def as_stored(self) -> dict[str, Any]:
        """Parsed, the form the service keeps per campaign (``bot.campaign.settings``)."""
        return {
            "step_hours": float(self.step_hours),
            "reminders": parse_reminders(self.reminders),
            "on_deadline": self.on_deadline,
            "missed_warning": self.missed_warning,
            "away_after": self.away_after,
        }


class OutboxSettings(BaseModel):
    """How hard the dispatcher tries to deliver a message before giving up on it."""

    model_config = ConfigDict(extra="forbid")

    max_attempts: int = Field(default=8, ge=1, le=100, description="tries before 'failed'")
    retry_base_seconds: float = Field(
        default=10, gt=0, allow_inf_nan=False, description="wait after the first failure"
    )
    retry_max_seconds: float = Field(
        default=1800, gt=0, allow_inf_nan=False, description="longest wait between tries"
    )


class ServiceSettings(BaseModel):
    """Bounds on what the service keeps: undo history on disk, campaigns in memory."""

    model_config = ConfigDict(extra="forbid")

    undo_depth: int = Field(
        default=10, ge=1, le=1000, description="resolutions /gm undo can take back, newest first"
    )
    cache_campaigns: int = Field(
        default=200, ge=1, le=100_000, description="campaigns kept in memory between commands"
    )
    panel_idle_minutes: float = Field(
        default=10, ge=0, le=1440, allow_inf_nan=False,
        description="a player who acted less than this ago gets their next panel as an edit "
                    "of their panel DM; otherwise as a new DM (0: always a new DM)",
    )


class Settings(BaseModel):
    """Everything the bot reads at start-up."""

    model_config = ConfigDict(extra="forbid")

    database_path: Path = Field(default=Path("data/admiralty.db"), description="SQLite file")
    log_level: LogLevel = "INFO"
    guild_ids: list[int] = Field(
        default_factory=list,
        description="dev guilds: commands sync to these instantly instead of globally",
    )
    demo_output: Path = Field(default=Path("demo-out"), description="folder for demo transcripts")
    timing: TimingSettings = Field(default_factory=TimingSettings)
    outbox: OutboxSettings = Field(default_factory=OutboxSettings)
    service: ServiceSettings = Field(default_factory=ServiceSettings)
    # Never from the file (see load_settings); excluded so it is never dumped or logged.
    token: SecretStr | None = Field(default=None, exclude=True, repr=False)

    @property
    def db_path(self) -> Path:
        """Alias of ``database_path`` (the name bot.client reads)."""
        return self.database_path

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value

    @field_validator("guild_ids")
    @classmethod
    def _positive_ids(cls, value: list[int]) -> list[int]:
        for gid in value:
            if gid <= 0:
                raise ValueError(f"{gid} is not a Discord guild id (a positive number)")
        return value


_TABLES: dict[str, type[BaseModel]] = {
    "timing": TimingSettings, "outbox": OutboxSettings, "service": ServiceSettings,
}


def _allowed(model: type[BaseModel]) -> str:
    return ", ".join(k for k in model.model_fields if k != "token")


def _describe(error: Any) -> str:
    """A pydantic error as ``key: problem``, worded for someone editing a TOML file."""
    loc = [str(p) for p in error["loc"]]
    key = ".".join(loc)
    kind = error["type"]
    ctx = error.get("ctx", {})
    if kind == "extra_forbidden":
        parent: type[BaseModel] = Settings
        if len(loc) > 1 and loc[0] in _TABLES:
            parent = _TABLES[loc[0]]
        return f"unknown key '{key}' (allowed: {_allowed(parent)})"
    words = {
        "greater_than_equal": "must be >= {ge}",
        "greater_than": "must be > {gt}",
        "less_than_equal": "must be <= {le}",
        "less_than": "must be < {lt}",
        "literal_error": "must be one of {expected}",
        "model_type": "must be a table ([{key}] section)",
        "list_type": "must be a list, e.g. [123, 456]",
        "finite_number": "must be a finite number",
    }
    if kind in words:
        # 0.0 -> 0: a bound of a float field reads better as the number the user would type.
        tidy = {k: f"{v:g}" if isinstance(v, float) else v for k, v in ctx.items()}
        return f"{key}: " + words[kind].format(key=key, **tidy)
    if kind == "value_error":
        return f"{key}: {ctx.get('error', error['msg'])}"
    return f"{key}: {error['msg'][0].lower()}{error['msg'][1:]} (got {error['input']!r})"


def _env_overrides(env: Mapping[str, str]) -> dict[str, Any]:
    """``ADMIRALTY_X`` / ``ADMIRALTY_T__X`` variables as a nested dict (values stay strings)."""
    out: dict[str, Any] = {}
    for name, value in env.items():
        if not name.startswith(ENV_PREFIX) or name == CONFIG_ENV:
            continue
        parts = name[len(ENV_PREFIX) :].lower().split("__")
        if parts[-1] == "guild_ids":
            value_any: Any = [p.strip() for p in value.split(",") if p.strip()]
        else:
            value_any = value
        target = out
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = value_any
    return out


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


# Byte-order marks a Windows editor may write: a UTF-8 one is dropped; UTF-16 and UTF-32 ones
# say unambiguously how the file is encoded, so it is decoded as such rather than refused.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _decode(path: Path, raw: bytes) -> tuple[str | None, str | None]:
    """The file's text, or the problem: TOML files are UTF-8 (a BOM names another encoding)."""
    encoding = next((enc for bom, enc in _BOMS if raw.startswith(bom)), None)
    if encoding is None and b"\x00" in raw:
        return None, _nul_problem(path, raw)
    try:
        return raw.decode(encoding or "utf-8"), None
    except UnicodeDecodeError as exc:
        bad = raw[exc.start : exc.start + 1].hex()
        line = raw[: exc.start].count(b"\n") + 1  # a UTF-16 file's lines: close enough
        return None, (
            f"{path}: not {encoding or 'UTF-8'} text: byte 0x{bad} on line {line} "
            "cannot be read; save it as UTF-8"
        )


def _looks_like_utf16(raw: bytes) -> bool:
    """ASCII text in UTF-16 without a BOM: a NUL in every other byte (odd or even ones)."""
    sample = raw[:4096]
    if len(sample) < 2:
        return False
    for start in (0, 1):
        half = sample[start::2]
        if half and half.count(0) >= 0.9 * len(half):
            return True
    return False


def _nul_problem(path: Path, raw: bytes) -> str:
    """A NUL byte: UTF-16 saved without its BOM, or a stray NUL in a UTF-8 file (which TOML
    does not allow), said as such with its line."""
    if _looks_like_utf16(raw):
        return f"{path}: not UTF-8 text (it looks like UTF-16); save it as UTF-8"
    at = raw.index(b"\x00")
    line = raw[:at].count(b"\n") + 1
    return (f"{path}: line {line} holds a NUL byte (0x00), which a TOML file may not contain; "
            "remove it")


def _read_toml(path: Path) -> tuple[dict[str, Any], list[str]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}, [f"{path}: file not found"]
    except OSError as exc:
        return {}, [f"{path}: cannot read: {exc.strerror}"]
    text, problem = _decode(path, raw)
    if text is None:
        return {}, [problem or f"{path}: cannot be read"]
    try:
        return tomllib.loads(text), []
    except tomllib.TOMLDecodeError as exc:
        return {}, [f"{path}: not valid TOML: {exc}"]
    except RecursionError:
        return {}, [f"{path}: not valid TOML: arrays or tables nested too deep"]


def _env_sources(env: Mapping[str, str]) -> dict[str, str]:
    """Dotted key -> the ADMIRALTY_* variable that set it, to say where a bad value came from."""
    return {
        name[len(ENV_PREFIX) :].lower().replace("__", "."): name
        for name in env
        if name.startswith(ENV_PREFIX) and name != CONFIG_ENV
    }


def _blame(problems: list[str], sources: dict[str, str]) -> list[str]:
    """Each problem with the variable that set its key, or a table or list holding it (a
    bad ``guild_ids.1`` came from ADMIRALTY_GUILD_IDS)."""
    out = []
    for problem in problems:
        key = problem.split(":", 1)[0]
        if problem.startswith("unknown key '"):
            key = problem.split("'")[1]
        source = next((sources[k] for k in sorted(sources, key=len, reverse=True)
                       if key == k or key.startswith(k + ".")), None)
        out.append(f"{problem} (from {source})" if source else problem)
    return out


def _validate(data: dict[str, Any]) -> tuple[Settings | None, list[str]]:
    problems: list[str] = []
    for key in sorted(_TOKEN_KEYS & data.keys()):
        problems.append(
            f"{key}: the bot token is never read from the config file; "
            f"set the {TOKEN_ENV} environment variable instead"
        )
        data = {k: v for k, v in data.items() if k != key}
    try:
        settings = Settings.model_validate(data)
    except ValidationError as exc:
        problems.extend(_describe(err) for err in exc.errors())
        return None, problems
    return (None if problems else settings), problems


def config_problems(path: Path, env: Mapping[str, str] | None = None) -> list[str]:
    """Every problem of a config file (plus ADMIRALTY_* overrides), each with its key."""
    data, problems = _read_toml(path)
    if problems:
        return problems
    if env is None:
        return _validate(data)[1]
    return _blame(_validate(_merge(data, _env_overrides(env)))[1], _env_sources(env))


def resolve_config_path(path: Path | None, env: Mapping[str, str]) -> Path | None:
    """The file to read: the one given, else $ADMIRALTY_CONFIG, else ./config.toml if present."""
    if path is not None:
        return path
    if env.get(CONFIG_ENV):
        return Path(env[CONFIG_ENV])
    return DEFAULT_CONFIG if DEFAULT_CONFIG.is_file() else None


def load_settings(path: Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Read settings; raise ``InvalidInput`` listing every problem (one per line)."""
    env = os.environ if env is None else env
    given = path
    path = resolve_config_path(path, env)
    data: dict[str, Any] = {}
    if path is not None:
        data, problems = _read_toml(path)
        if problems:
            if given is None and env.get(CONFIG_ENV):
                problems = [f"{p} (from {CONFIG_ENV})" for p in problems]
            raise InvalidInput("\n".join(problems))
    settings, problems = _validate(_merge(data, _env_overrides(env)))
    problems = _blame(problems, _env_sources(env))
    if settings is None:
        where = f" in {path}" if path is not None else ""
        raise InvalidInput(f"Bad settings{where}:\n" + "\n".join(problems))
    token = env.get(TOKEN_ENV, "").strip()
    return settings.model_copy(update={"token": SecretStr(token) if token else None})
