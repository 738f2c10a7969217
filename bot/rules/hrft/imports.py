"""Reading uploaded ship files: ``.FTDesign`` / ``.FTFleet`` JSON (Fleet Manager) and the
bot's TOML form (H-17). Everything unreadable is refused with ``InvalidInput``; the file is
read by ``safe_load`` (size, encoding, nesting, number sizes) and its designs and ships are
counted against the caps (H-D33) before any is converted."""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidInput
from bot.rules import safe_load
from bot.rules.hrft.convert import convert_design, convert_fleet, convert_toml
from bot.rules.hrft.model import MAX_FILE_SHIPS, MAX_TOML_BYTES, Ship

MAX_BYTES = safe_load.MAX_BYTES
KINDS = ".FTDesign, .FTFleet, .json or .toml"


def _from_json(obj: Any) -> list[Ship]:
    if isinstance(obj, dict) and isinstance(obj.get("ships"), list):
        return convert_fleet(obj)
    fleet = obj.get("fleet") if isinstance(obj, dict) else None
    if isinstance(fleet, dict) and isinstance(fleet.get("ships"), list):
        # the Fleet Manager's export wraps the fleet; its custom designs sit beside it
        return convert_fleet({**fleet, "designs": obj.get("designs") or []})
    if isinstance(obj, dict) and isinstance(obj.get("designs"), list):
        designs = obj["designs"]
        if len(designs) > MAX_FILE_SHIPS:
            raise InvalidInput(f"The file holds {len(designs)} designs; a file may add at most "
                               f"{MAX_FILE_SHIPS} ships (as many as one side may bring).")
        return [convert_design(d) for d in designs]
    if isinstance(obj, dict) and isinstance(obj.get("design"), dict):
        return [convert_design(obj["design"])]
    return [convert_design(obj)]


def ships_from_file(filename: str, data: bytes | str) -> list[Ship]:
    """The ships in an uploaded file, by its extension."""
    name = filename[:100]
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if ext == "toml":
        return [convert_toml(safe_load.decode(data, f"'{name}'", MAX_TOML_BYTES))]
    if ext in ("ftdesign", "ftfleet", "json"):
        ships = _from_json(safe_load.load_json(data, f"'{name}'", MAX_BYTES))
        if not ships:
            raise InvalidInput(f"'{name}' holds no ships.")
        return ships
    raise InvalidInput(f"Cannot read '{name}': upload a {KINDS} file.")
