"""Reading uploaded ship files: ``.FTDesign`` / ``.FTFleet`` JSON (Fleet Manager) and the
bot's TOML form (H-17). Everything unreadable is refused with ``InvalidInput``; the file is
read by ``safe_load`` (size, encoding, nesting, number sizes) and its designs and ships are
counted against the caps (H-D33) before any is converted.

Fleet Manager 2 writes ``{"schema_version": 2, "kind": "FTDesign" | "FTFleet", ...}``; the
version and kind are checked first (H-D34). A catalog (``{"schema_version": 1, "designs":
[...]}``, no kind) the GM uploads becomes a design source for the battle's fleets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.errors import InvalidInput
from bot.rules import safe_load
from bot.rules.hrft.convert import convert_design, convert_toml, fleet_ships
from bot.rules.hrft.model import MAX_FILE_SHIPS, MAX_TOML_BYTES, Ship

MAX_BYTES = safe_load.MAX_BYTES
KINDS = ".FTDesign, .FTFleet, .json or .toml"
SCHEMA = 2  # the newest Fleet Manager file schema this bot reads
FILE_KINDS = ("FTDesign", "FTFleet")
MAX_CATALOG = 150  # designs a battle keeps from uploaded catalogs (FB1 has 65)
# what convert_design reads of a catalog design: the rest (sources, notes) is not kept
_DESIGN_KEYS = ("id", "ruleset", "name", "type_code", "hull_kind", "tmf", "hull_boxes",
                "armour", "hull_rows", "thrust", "ftl", "systems")


@dataclass
class Imported:
    """The ships a file adds, the fleet ships it leaves out ("Name (hulk)"), the remedy for
    ships whose designs are missing, and a fleet file's own document to keep (H-D51)."""

    ships: list[Ship]
    left_out: list[str] = field(default_factory=list)
    remedy: str = ""
    fleet_doc: dict[str, Any] | None = None


def _fleet(fleet: dict[str, Any], obj: dict[str, Any],
           catalog: dict[str, dict[str, Any]] | None) -> Imported:
    """A fleet object (``designs`` and ``factions`` from ``obj``, the file around it)."""
    designs = obj.get("designs") or []
    read = fleet_ships({**fleet, "designs": designs}, catalog)
    own = {k: v for k, v in fleet.items() if k != "designs" or fleet is not obj}
    doc = {"schema_version": SCHEMA, "kind": "FTFleet", "fleet": own, "designs": designs,
           "factions": obj.get("factions") or []}
    return Imported(read.ships, read.left_out, read.remedy, doc)


def _check_header(obj: dict[str, Any], name: str) -> str | None:
    """The file's kind (None for the older unwrapped shapes); refuses a newer schema or a
    kind the bot does not read."""
    version = obj.get("schema_version")
    if version is not None:
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise InvalidInput(f"'{name}': 'schema_version' must be a whole number such as "
                               f"{SCHEMA}.")
        if version > SCHEMA:
            raise InvalidInput(f"'{name}': this file was written by a newer Fleet Manager "
                               f"(schema {version}); this bot reads schema up to {SCHEMA}.")
    kind = obj.get("kind")
    if kind is None:
        return None
    if kind == "FTBackup":
        raise InvalidInput(f"'{name}' is a Fleet Manager backup of a whole library; export "
                           "one fleet (.FTFleet) or one design (.FTDesign) and upload that.")
    if kind not in FILE_KINDS:
        shown = repr(kind)[:40]
        raise InvalidInput(f"'{name}' is a file of kind {shown}; the bot reads Fleet Manager "
                           f"files of kind {' and '.join(FILE_KINDS)}.")
    return str(kind)


def is_catalog(obj: Any) -> bool:
    """A Fleet Manager catalog: a ``designs`` list with no kind, fleet or ships."""
    return (isinstance(obj, dict) and isinstance(obj.get("designs"), list)
            and not any(k in obj for k in ("kind", "fleet", "ships", "design")))


def _from_json(obj: Any, name: str, catalog: dict[str, dict[str, Any]] | None) -> Imported:
    if not isinstance(obj, dict):
        return Imported([convert_design(obj)])
    kind = _check_header(obj, name)
    if kind == "FTFleet":
        fleet = obj.get("fleet")
        if not isinstance(fleet, dict) or not isinstance(fleet.get("ships"), list):
            raise InvalidInput(f"'{name}' is an FTFleet file without a fleet: it needs "
                               "\"fleet\": {..., \"ships\": [...]}.")
        # the fleet's custom designs sit beside it; built-in ones are named by id only
        return _fleet(fleet, obj, catalog)
    if kind == "FTDesign":
        if not isinstance(obj.get("design"), dict):
            raise InvalidInput(f"'{name}' is an FTDesign file without a design: it needs "
                               "\"design\": {...}.")
        return Imported([convert_design(obj["design"])])
    # older and hand-made shapes: a bare fleet, a list of designs, a wrapped or bare design
    if isinstance(obj.get("ships"), list):
        return _fleet(obj, obj, catalog)
    fleet = obj.get("fleet")
    if isinstance(fleet, dict) and isinstance(fleet.get("ships"), list):
        return _fleet(fleet, obj, catalog)
    if isinstance(obj.get("designs"), list):
        designs = obj["designs"]
        if len(designs) > MAX_FILE_SHIPS:
            raise InvalidInput(f"The file holds {len(designs)} designs; a file may add at most "
                               f"{MAX_FILE_SHIPS} ships (as many as one side may bring).")
        return Imported([convert_design(d) for d in designs])
    if isinstance(obj.get("design"), dict):
        return Imported([convert_design(obj["design"])])
    return Imported([convert_design(obj)])


def _extension(filename: str) -> str:
    return filename.rsplit(".", 1)[-1].lower() if "." in filename else ""


def read_file(filename: str, data: bytes | str,
              catalog: dict[str, dict[str, Any]] | None = None) -> Imported:
    """The ships in an uploaded file, by its extension; ``catalog``: designs by id that
    fleets may name besides their own (the GM's uploaded catalogs)."""
    name = filename[:100]
    ext = _extension(filename)
    if ext == "toml":
        return Imported([convert_toml(safe_load.decode(data, f"'{name}'", MAX_TOML_BYTES))])
    if ext in ("ftdesign", "ftfleet", "json"):
        result = _from_json(safe_load.load_json(data, f"'{name}'", MAX_BYTES), name, catalog)
        docked = any(e.endswith("(docked: the GM may bring it in)") for e in result.left_out)
        if not result.ships and not (docked and result.fleet_doc):  # H-D54: kept for the GM
            if result.left_out:
                raise InvalidInput(f"'{name}' holds no ship that can fight: "
                                   f"{', '.join(result.left_out)}." +
                                   (f" {result.remedy}" if result.remedy else ""))
            raise InvalidInput(f"'{name}' holds no ships.")
        return result
    raise InvalidInput(f"Cannot read '{name}': upload a {KINDS} file.")


def ships_from_file(filename: str, data: bytes | str,
                    catalog: dict[str, dict[str, Any]] | None = None) -> list[Ship]:
    """The ships in an uploaded file (see ``read_file``)."""
    return read_file(filename, data, catalog).ships


@dataclass
class CatalogRead:
    """A catalog's convertible designs by id (only the fields conversion reads), and the
    designs it skipped, each "Name (why)" (H-D55)."""

    designs: dict[str, dict[str, Any]]
    skipped: list[str] = field(default_factory=list)


def _skip_reason(exc: InvalidInput) -> str:
    text = str(exc)
    if "HRFT converts Fleet Book designs" in text:
        return "not a Fleet Book design: HRFT converts ruleset 'fb' only"
    return text.split(": ", 1)[-1].rstrip(".")[:160]


def read_catalog(filename: str, data: bytes | str) -> CatalogRead | None:
    """The designs of a catalog file, or None when the file is not a catalog. Refuses a
    catalog no design of which converts, naming why each was skipped."""
    if _extension(filename) not in ("json", "ftdesign", "ftfleet"):
        return None
    name = filename[:100]
    obj = safe_load.load_json(data, f"'{name}'", MAX_BYTES)
    if not is_catalog(obj):
        return None
    _check_header(obj, name)
    designs = obj["designs"]
    if len(designs) > MAX_CATALOG:
        raise InvalidInput(f"'{name}' holds {len(designs)} designs; a battle keeps at most "
                           f"{MAX_CATALOG} catalog designs.")
    read = CatalogRead({})
    for n, design in enumerate(designs, start=1):
        label = (str(design.get("name") or design.get("id") or f"design {n}")[:80]
                 if isinstance(design, dict) else f"design {n}")
        if not isinstance(design, dict) or not isinstance(design.get("id"), str):
            read.skipped.append(f"{label} (it has no id)")
            continue
        try:
            convert_design(design)
        except InvalidInput as exc:  # e.g. an FT2 design: HRFT converts Fleet Book ones only
            read.skipped.append(f"{label} ({_skip_reason(exc)})")
            continue
        read.designs[design["id"][:80]] = {k: design[k] for k in _DESIGN_KEYS if k in design}
    if not read.designs:
        raise InvalidInput(f"'{name}' is a catalog of {len(designs)} designs, none of which "
                           "HRFT can convert (it converts Fleet Book designs, ruleset 'fb'): "
                           + "; ".join(read.skipped[:10])
                           + (f"; and {len(read.skipped) - 10} more" if len(read.skipped) > 10
                              else "") + ".")
    return read


def skipped_text(read: CatalogRead) -> str:
    """' Skipped: A (why); B (why).' or ''."""
    if not read.skipped:
        return ""
    more = f"; and {len(read.skipped) - 12} more" if len(read.skipped) > 12 else ""
    return f" Skipped: {'; '.join(read.skipped[:12])}{more}."


def catalog_from_file(filename: str, data: bytes | str) -> dict[str, dict[str, Any]] | None:
    """The convertible designs of a catalog file by id (see ``read_catalog``)."""
    read = read_catalog(filename, data)
    return None if read is None else read.designs
