"""The help of every command: each option's default shown once, and never as "None"."""

from __future__ import annotations

import argparse


class Defaults(argparse.ArgumentDefaultsHelpFormatter):
    """Appends "(default: X)" to an option's help unless the help already says its default or there is none (None:
    the help says where the value comes from instead, e.g. "(default: all)")."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default is None or "(default" in text:
            return text
        return super()._get_help_string(action)
