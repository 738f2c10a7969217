"""Dependencies (P-40): compatible ranges in pyproject.toml, every package locked with hashes."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
RUNTIME = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
TEST = [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"]["test"]]
_PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^ ;\\]+)")


def locked(name: str) -> dict[str, tuple[str, int]]:
    """Package -> (version, number of hashes) from a lock file."""
    found: dict[str, tuple[str, int]] = {}
    current = ""
    for line in (REPO / name).read_text(encoding="utf-8").splitlines():
        match = _PIN.match(line)
        if match:
            current = str(canonicalize_name(match.group(1)))
            found[current] = (match.group(2), 0)
        elif line.strip().startswith("--hash=sha256:") and current:
            version, hashes = found[current]
            found[current] = (version, hashes + 1)
        elif line and not line.startswith(" ") and not line.startswith("#"):
            raise AssertionError(f"{name}: a line that is neither a pin nor a hash: {line}")
    return found


@pytest.mark.parametrize("requirement", RUNTIME + TEST, ids=str)
def test_each_direct_dependency_is_a_range_with_an_upper_bound(requirement: Requirement) -> None:
    operators = {spec.operator for spec in requirement.specifier}
    assert ">=" in operators and "<" in operators, requirement
    assert "==" not in operators


@pytest.mark.parametrize(
    ("lock", "wanted"),
    [("requirements.lock", RUNTIME), ("requirements-test.lock", RUNTIME + TEST)],
)
def test_the_lock_pins_every_package_in_its_range_with_hashes(
    lock: str, wanted: list[Requirement]
) -> None:
    pins = locked(lock)
    for requirement in wanted:
        version, _ = pins[str(canonicalize_name(requirement.name))]
        assert requirement.specifier.contains(version), (requirement, version)
    assert all(hashes >= 1 for _, hashes in pins.values()), pins
    assert len(pins) > len(wanted)  # transitive packages are pinned too


def test_the_runtime_lock_agrees_with_the_test_lock() -> None:
    runtime, test = locked("requirements.lock"), locked("requirements-test.lock")
    assert {name: pin[0] for name, pin in runtime.items()} == {
        name: test[name][0] for name in runtime
    }
