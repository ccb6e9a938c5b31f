"""Every command's help shows an option's default once, and never as "None"."""

from __future__ import annotations

import argparse
import re

import pytest

import cli


def commands() -> dict[str, argparse.ArgumentParser]:
    """Each command (and sub-command) by name."""
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    found[f"{prefix}{name}"] = child
                    walk(child, f"{prefix}{name} ")

    walk(cli.parser(), "")
    return found


@pytest.mark.parametrize("command", sorted(commands()))
def test_no_option_shows_its_default_twice_or_as_none(command: str) -> None:
    """Found: `projections --help` printed "(default: all) (default: None)"."""
    text = " ".join(commands()[command].format_help().split())
    assert "(default: None)" not in text
    assert not re.search(r"\(default[^)]*\)\s*\(default", text), text
    assert "projections" not in command or "(default: all)" in text
