"""Pure image rendering: a view (dict) in, PNG bytes out. No discord, no database."""
