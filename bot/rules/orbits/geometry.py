"""Areas of the table and distances between them (O-2, O-3)."""

from __future__ import annotations

from bot.errors import InvalidInput


def home(seat: int) -> str:
    return f"home:{seat}"


def orbit(n: int) -> str:
    return f"orbit:{n}"


def all_areas(orbits: int, seats: list[int]) -> list[str]:
    """Homes first (seat order), then orbits from the innermost (O-2)."""
    return [home(s) for s in seats] + [orbit(n) for n in range(1, orbits + 1)]


def parse_area(area: str, orbits: int) -> tuple[str, int]:
    """Splits ``home:2`` / ``orbit:3`` into kind and number, checking the orbit range."""
    kind, _, num = area.partition(":")
    if kind not in ("home", "orbit") or not num.isdigit() or int(num) < 1:
        raise InvalidInput(f"'{area}' is not an area. Use home:<seat> or orbit:<1..{orbits}>.")
    n = int(num)
    if kind == "orbit" and n > orbits:
        raise InvalidInput(f"There is no orbit {n}: this system has orbits 1 to {orbits}.",
                           ruling="O-2")
    return kind, n


def _depth(kind: str, n: int) -> int:
    """Steps out from the inner ellipse: homes are 0, orbit n is n."""
    return 0 if kind == "home" else n


def _gaps(k: int) -> int:
    """Sum of the gaps from the inner ellipse out to orbit k: 1 + 2 + ... + k (O-3)."""
    return k * (k + 1) // 2


def distance(orbits: int, a: str, b: str, home_to_home: int = 1) -> int:
    """Transit tokens from area ``a`` to area ``b`` (O-3).

    Gap inner ellipse -> orbit 1 is 1, orbit k-1 -> orbit k is k; the distance is the sum of
    the gaps crossed. Between two different home areas it is ``home_to_home`` (option)."""
    ka, na = parse_area(a, orbits)
    kb, nb = parse_area(b, orbits)
    if (ka, na) == (kb, nb):
        return 0
    if ka == kb == "home":
        return home_to_home
    da, db = _depth(ka, na), _depth(kb, nb)
    return abs(_gaps(da) - _gaps(db))


def label(area: str, names: dict[int, str] | None = None) -> str:
    """``Orbit 2`` / ``Home of Alice`` (or ``Home 1`` without names)."""
    kind, _, num = area.partition(":")
    if kind == "orbit":
        return f"Orbit {num}"
    if names and int(num) in names:
        return f"Home of {names[int(num)]}"
    return f"Home {num}"
