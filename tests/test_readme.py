"""The README runs as written, every section of it, against a live `turnstile serve`, so it cannot drift; no block
uses a variable nothing set.

Its ```sh blocks are this test's script, in order, in one shell: the variables set by a block are used by the next.
Only the port changes (the README says 8000; the test takes a free one), and `simulate` plays 2 matches, not 20
(20 take over a minute here). The only blocks left out are those of the
sections in NOT_RUN, each with its reason. The README's problem table is the one the code has (`turnstile problems`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.problem_codes import table
from tests.serving import serving

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    """The README's text from a `## title` heading to the next `## ` heading."""
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else None]


def subsection(title: str) -> str:
    """The README's text from a `### title` heading to the next `## ` or `### ` heading."""
    start = README.index(f"### {title}\n")
    end = re.compile(r"\n#{2,3} ").search(README, start + 1)
    return README[start:end.start() if end else None]


def shell_blocks(text: str) -> list[str]:
    """The ```sh blocks of a text, in order."""
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)


WRITTEN = ("match.ndjson", "fair.ndjson", "cup.json", "log.pub", "kept.checkpoint", "witness.checkpoint")

# The sections whose blocks need what a test cannot start: everything else in the README is run.
NOT_RUN = {
    "Two commands": "starts the server and the whole test suite (the session below runs against a server)",
    "The full stack": "needs a Docker engine",
    "Running it in production": "needs a PostgreSQL primary and its replica on named hosts",
}


def run_blocks() -> list[str]:
    """The ```sh blocks of every `## ` section of the README but those of NOT_RUN, in the README's order."""
    parts = re.split(r"\n(?=## )", README)
    titles = [part.split("\n", 1)[0].removeprefix("## ") for part in parts]
    assert set(NOT_RUN) <= set(titles), "NOT_RUN names a section the README no longer has"
    return [block for title, part in zip(titles, parts, strict=True) if title not in NOT_RUN
            for block in shell_blocks(part)]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """`turnstile serve` on a free port over a fresh SQLite file: its base URL and the environment it reads."""
    with serving(tmp_path / "readme.db", TURNSTILE_WEBHOOK_ALLOW_PRIVATE="1") as server:  # the local receiver
        yield server


def test_every_section_runs_as_written(served: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    """Every block of every section (but NOT_RUN's) succeeds in order; the answers it prints are the ones the README
    shows. Found: the transparency section was not run, and its kept-checkpoint recipe failed as written."""
    missing = [tool for tool in ("curl", "jq", "uv") if shutil.which(tool) is None]
    if missing:
        message = f"the README's session needs {', '.join(missing)}"
        if os.environ.get("TURNSTILE_REQUIRE_SERVICES") == "1":
            pytest.fail(message + " (CI installs them: .ci/run)")
        pytest.skip(message)
    base, env = served
    blocks = run_blocks()
    assert set(shell_blocks(section("Using the API"))) | set(shell_blocks(section("Transparency log"))) <= set(blocks)
    script = "set -euo pipefail\n" + "\n".join(blocks).replace("http://127.0.0.1:8000", base)
    script = script.replace("simulate --game expect-delays --matches 20", "simulate --game expect-delays --matches 2")
    scratch = tmp_path / "scratch"  # where the README's `cd "$(mktemp -d)"` goes: files stay out of the clone
    scratch.mkdir()
    before = {path: path.exists() for path in (ROOT / name for name in WRITTEN)}
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env={**env, "TMPDIR": str(scratch)}, capture_output=True,
                          text=True, timeout=300, check=False)
    assert {path: path.exists() for path in before} == before, "the session wrote into the clone"
    assert all(any(scratch.glob(f"*/{name}")) for name in WRITTEN), "the session did not write in a scratch folder"
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for shown in ('"seed_source":"server+client"', '"visibility":"public"', '"you":0', '"duplicate":false',
                  '{"duplicate":true}', '{"status":409,"code":"version-conflict"}',
                  '["expect-delays","mass-transit","metro-x","terminus","touched-on"]',
                  '{"player":"bot:random","token":false}', '{"to_move":[0]}',
                  '{"status":"open","version":1}', '{"seat":1,"player":"grace","status":"active","token":true}',
                  '{"players":["bot:random","bot:random","ada"],"linked":true}', '{"rematch":true}',
                  '{"status":"dealing","seed_source":"server+seats","version":1,"committed":64}',
                  '{"seat":0,"status":"dealing"}', '{"status":409,"code":"entropy-already-added"}',
                  '{"seat":1,"status":"active","to_move":[0]}',
                  '["match.started","match.entropy-added","match.entropy-added","match.entropy-closed",'
                  '"expect-delays.game-set-up"]',
                  'the revealed server part opens the commitment noted before the entropy',
                  '{"code":"verified","checked":["seed","entropy"]}',
                  '{"status":"finished","rounds":3,"places":[1,2,3,4,5],"tiebreaks":["buchholz","sonneborn-berger"],'
                  '"entropy":"dice: 4 6 1"}',
                  '{"tournament":"verified"}',

                  '{"version":5,"status":"active"}',
                  '{"url":"http://127.0.0.1:8080/turnstile","kinds":["turn","match.ended"],"status":"active",'
                  '"secret":true}',
                  '{"current":"2","editions":["1","2"]}', '{"rules_version":"1"}',
                  'consistent with the kept checkpoint of', "cache-control: public, max-age=",
                  'id: 7\nevent: expect-delays.action-taken\n'):
        assert shown in out, (shown, out)
    assert re.search(r'"types":\["match.started","expect-delays.game-set-up"', out), out


def test_the_readme_lists_every_problem_code() -> None:
    """The README's table is the one `turnstile problems` prints from the code."""
    block = README.split("<!-- problems:start -->\n", 1)[1].split("<!-- problems:end -->", 1)[0]
    assert block == table(), "README.md's problem table is stale: paste the output of `uv run turnstile problems`"
    done = subprocess.run([sys.executable, "-m", "cli", "problems"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert (done.returncode, done.stdout) == (0, table()), "`turnstile problems` prints the table"


ENVIRONMENT = {"PWD", "TURNSTILE_DATABASE_URL"}  # set by the shell, or by the reader (a default is given)


def unset_variables(blocks: list[str]) -> list[tuple[str, str]]:
    """(variable, line) for each `$VARIABLE` a shell block uses before any block, or its own line, sets it."""
    assigned: set[str] = set(ENVIRONMENT)
    unset = []
    for block in blocks:
        for line in block.splitlines():
            used = set(re.findall(r"\$\{?([A-Z_][A-Z0-9_]*)", line))
            new = set(re.findall(r"(?:^|[\s(;])([A-Z_][A-Z0-9_]*)=", line))
            unset += [(name, line.strip()) for name in sorted(used - assigned - new)]
            assigned |= new
    return unset


def test_every_variable_a_readme_block_uses_is_set_by_the_blocks_before() -> None:
    """Found: the webhook block used `$HOOK` and `$DELIVERY`, which nothing set."""
    assert unset_variables(shell_blocks(README)) == []
    assert unset_variables(["curl /v1/webhooks/$HOOK", "HOOK=1"]) == [("HOOK", "curl /v1/webhooks/$HOOK")]


def test_the_readme_says_up_front_what_a_local_webhook_receiver_needs_and_how_long_the_tests_take() -> None:
    webhooks = section("Webhooks")
    assert webhooks.index("TURNSTILE_WEBHOOK_ALLOW_PRIVATE=1") < webhooks.index("```sh")
    assert re.search(r"uv run pytest .*about \d+ minutes", section("Two commands"))
