"""Pure game rules: no discord, no database, no clock, no global random (DESIGN.md)."""
