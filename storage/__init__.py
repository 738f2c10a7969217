"""SQLite storage: the connection, numbered migrations, one repository module per table group."""

from __future__ import annotations

from storage.db import Database, SchemaTooNew, Tx, code_version, migrate, open_database

__all__ = ["Database", "SchemaTooNew", "Tx", "code_version", "migrate", "open_database"]
