"""The error the command line reports as the user's to fix (its own module: every command imports it from here)."""

from __future__ import annotations


class UserError(Exception):
    """A mistake the user can fix: printed as one line, exit status 2."""
