"""docs/threat-model.md points only at tests that exist (issue 39).

Its table has one row per (party x power x property); each row must name at least one test as a pytest node id
(`tests/<path>.py::test_name`, no parametrisation), and each named test must be a module-level function of that file
(read with `ast`, never imported), so the page cannot point at a test renamed or removed. Every party the "Parties"
section names must be the attacker of at least one row.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "threat-model.md"

NODE_ID = re.compile(r"`(tests/[^`\s:]+\.py)::([A-Za-z_][A-Za-z0-9_]*)(\[[^`]*\])?`")
PARTY = re.compile(r"^- \*\*(.+?)\*\*", flags=re.M)


@dataclass(frozen=True)
class Row:
    parties: tuple[str, ...]
    cells: tuple[str, ...]
    tests: tuple[tuple[str, str], ...]  # (file, function)
    parametrised: bool


def section(text: str, title: str) -> str:
    """The text from a `## title` heading to the next `## ` heading."""
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else None]


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def table_rows(text: str) -> list[Row]:
    """The body rows of the first Markdown table of the "The table" section, the header and rule skipped."""
    lines = [line for line in section(text, "The table").splitlines() if line.lstrip().startswith("|")]
    header, body = cells(lines[0]), lines[2:]
    test_column = next(i for i, name in enumerate(header) if name.lower().startswith("test"))
    rows = []
    for line in body:
        row = cells(line)
        found = NODE_ID.findall(row[test_column]) if len(row) > test_column else []
        rows.append(Row(parties=tuple(p.strip() for p in row[0].split("+")), cells=tuple(row),
                        tests=tuple((path, name) for path, name, _ in found),
                        parametrised=any(params for _, _, params in found)))
    return rows


def parties(text: str) -> list[str]:
    return PARTY.findall(section(text, "Parties"))


@cache
def module_functions(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return frozenset(node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))


def problems(text: str, root: Path = ROOT) -> list[str]:
    """Everything wrong with a threat model's table: rows without a test, tests that do not exist, parametrised ids,
    parties named in the Parties section that attack in no row, and rows whose party is not one of them."""
    found: list[str] = []
    rows = table_rows(text)
    named = parties(text)
    if not rows:
        found.append("the table has no rows")
    for row in rows:
        label = " | ".join(row.cells[:2])
        if not row.tests:
            found.append(f"no test reference: {label}")
        if row.parametrised:
            found.append(f"a parametrised node id (drop the [...]): {label}")
        for party in row.parties:
            if party not in named:
                found.append(f"a party the Parties section does not name: {party!r} in {label}")
        for path, name in row.tests:
            file = root / path
            if not file.is_file():
                found.append(f"no such test file: {path} (in {label})")
            elif name not in module_functions(file):
                found.append(f"no such test: {path}::{name} (in {label})")
    attacking = {party for row in rows for party in row.parties}
    found.extend(f"a party with no row: {party}" for party in named if party not in attacking)
    return found


def test_every_row_names_tests_that_exist() -> None:
    assert problems(DOC.read_text()) == []


def test_the_table_covers_every_party_named_in_the_parties_section() -> None:
    text = DOC.read_text()
    named = parties(text)
    assert {"Operator", "App", "Seat", "Organiser", "Spectator", "Network attacker", "Witness"} <= set(named)
    attacking = {party for row in table_rows(text) for party in row.parties}
    assert set(named) <= attacking, set(named) - attacking


def test_the_seat_tokens_section_says_where_they_live() -> None:
    where = section(DOC.read_text(), "Where seat tokens live")
    assert "pruned from the stored body once delivered" in where and "feed derives them" in where


SAMPLE = """# Threat model

## Parties

- **Operator** — runs it.
- **Seat** — plays.
- **Witness** — watches.

## The table

| Party | Power | Property | Check | Test | Residual |
| --- | --- | --- | --- | --- | --- |
| Operator | edits an event | Record integrity | at load | `tests/test_threat_model.py::test_the_sample_passes` | — |
| Seat | {power} | Hidden information | redaction | {test} | — |
"""


def sample(power: str = "reads a hand", test: str = "`tests/test_threat_model.py::test_the_sample_passes`") -> str:
    return SAMPLE.format(power=power, test=test)


def test_the_sample_passes() -> None:
    assert problems(sample()) == ["a party with no row: Witness"]
    with_witness = sample() + "| Witness | lies | Append-only log | none | `tests/audit/test_trust.py::" \
                              "test_a_spliced_last_event_is_a_head_mismatch` | trusted |\n"
    assert problems(with_witness) == []


def test_a_row_without_a_test_fails() -> None:
    assert "no test reference: Seat | reads a hand" in problems(sample(test="none, see above"))
    assert "no test reference: Seat | reads a hand" in problems(sample(test="tests/audit/test_trust.py"))


def test_a_test_that_does_not_exist_fails() -> None:
    gone = problems(sample(test="`tests/test_threat_model.py::test_renamed_long_ago`"))
    assert any(p.startswith("no such test: tests/test_threat_model.py::test_renamed_long_ago") for p in gone)
    missing = problems(sample(test="`tests/nowhere/test_gone.py::test_anything`"))
    assert any(p.startswith("no such test file: tests/nowhere/test_gone.py") for p in missing)


class _Holder:
    def test_nested_method(self) -> None:
        """Not collected (the class is not `Test*`): a name that exists in the file, but not at module level."""


def test_a_name_that_is_not_at_module_level_fails() -> None:
    nested = problems(sample(test="`tests/test_threat_model.py::test_nested_method`"))
    assert any(p.startswith("no such test: tests/test_threat_model.py::test_nested_method") for p in nested)


def test_a_parametrised_id_fails() -> None:
    found = problems(sample(test="`tests/test_threat_model.py::test_the_sample_passes[x]`"))
    assert any(p.startswith("a parametrised node id") for p in found)


def test_a_party_not_named_in_the_parties_section_fails() -> None:
    text = sample().replace("| Seat | reads", "| Cheater | reads")
    assert any("'Cheater'" in p for p in problems(text))
