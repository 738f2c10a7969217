"""An empty database at the newest schema, migrated once and copied for each test (issue 17
item 8).

Migrating a fresh file (every migration, each in its own transaction, then the checks) is
most of what opening a new database costs; a copy of a file migrated once opens like a bot's
restart does: the same integrity check and schema check, no migration left to run. Fresh-file
migration keeps its own tests (tests/storage, the CLI and process tests, every demo).
"""

from __future__ import annotations

import asyncio
import shutil
import threading
from pathlib import Path

import storage


def make_template(folder: Path) -> Path:
    """Migrates a new database in ``folder``; its path. Run in a thread of its own, so it
    works whether or not an event loop is running in the caller's."""
    path = folder / "template.db"
    failed: list[BaseException] = []

    def migrate() -> None:
        try:
            asyncio.run(storage.migrate(path))
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(exc)

    worker = threading.Thread(target=migrate, name="template-db")
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return path


def copy_of(template: Path, path: Path) -> Path:
    """``path`` (its folder created) holding a copy of the migrated template."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)
    return path
