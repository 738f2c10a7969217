"""Sample designs shipped with the bot (written for it, TOML in ``samples/``)."""

from __future__ import annotations

from importlib import resources

from bot.errors import NotFound
from bot.rules.hrft.convert import convert_toml
from bot.rules.hrft.model import Ship

# side -> sample keys, frigate, destroyer, cruiser
SIDES: dict[str, list[str]] = {
    "A": ["kestrel", "harrier", "vanguard"],
    "B": ["lynx", "jackal", "wolfhound"],
}
SAMPLE_KEYS: list[str] = [k for keys in SIDES.values() for k in keys]


def sample_text(key: str) -> str:
    if key not in SAMPLE_KEYS:
        raise NotFound(f"No sample design '{key}'. Samples: {', '.join(SAMPLE_KEYS)}.")
    return (resources.files("bot.rules.hrft") / "samples" / f"{key}.toml").read_text("utf-8")


def sample_ship(key: str) -> Ship:
    """The sample design ``key`` converted."""
    return convert_toml(sample_text(key))


def side_for(seat: int) -> str:
    """Scripted players: odd seats fly side A, even seats side B."""
    return "A" if seat % 2 else "B"
