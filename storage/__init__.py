"""SQLite storage: the connection, numbered migrations, one repository module per table group."""

from __future__ import annotations

from storage.db import Database, SchemaTooNew, Tx, code_version, migrate, open_database
from storage.health import DatabaseDamaged, StorageError, StorageFull, StorageIOError

__all__ = [
    "Database", "DatabaseDamaged", "SchemaTooNew", "StorageError", "StorageFull",
    "StorageIOError", "Tx", "code_version", "migrate", "open_database",
]
