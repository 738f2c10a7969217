"""Reading uploaded ship files: ``.FTDesign`` / ``.FTFleet`` JSON (Fleet Manager) and the
bot's TOML form (H-17). Everything unreadable is refused with ``InvalidInput``."""

from __future__ import annotations

import json
from typing import Any

from bot.errors import InvalidInput
from bot.rules.hrft.convert import convert_design, convert_fleet, convert_toml
from bot.rules.hrft.model import Ship

MAX_BYTES = 512_000
KINDS = ".FTDesign, .FTFleet, .json or .toml"


def _text(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    if len(data) > MAX_BYTES:
        raise InvalidInput(f"The file is larger than {MAX_BYTES // 1000} kB.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput("The file is not UTF-8 text.") from None


def _from_json(obj: Any) -> list[Ship]:
    if isinstance(obj, dict) and isinstance(obj.get("ships"), list):
        return convert_fleet(obj)
    if isinstance(obj, dict) and isinstance(obj.get("designs"), list):
        return [convert_design(d) for d in obj["designs"]]
    if isinstance(obj, dict) and isinstance(obj.get("design"), dict):
        return [convert_design(obj["design"])]
    return [convert_design(obj)]


def ships_from_file(filename: str, data: bytes | str) -> list[Ship]:
    """The ships in an uploaded file, by its extension."""
    text = _text(data)
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if ext == "toml":
        return [convert_toml(text)]
    if ext in ("ftdesign", "ftfleet", "json"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"'{filename}' is not valid JSON: {exc.msg} (line "
                               f"{exc.lineno}).") from None
        ships = _from_json(obj)
        if not ships:
            raise InvalidInput(f"'{filename}' holds no ships.")
        return ships
    raise InvalidInput(f"Cannot read '{filename}': upload a {KINDS} file.")
