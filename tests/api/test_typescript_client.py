"""The README's TypeScript client, as an integrator makes it: `openapi-typescript` and `openapi-fetch` from npm on
the committed OpenAPI document, and the README's own program type-checked with `tsc --strict`.

It needs npm and the npm registry; without npm it is skipped, unless TURNSTILE_REQUIRE_SERVICES=1 (CI installs it:
.ci/run). npm gets an empty cache of the test's own, so a warm cache on the machine is never what passes it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECTION = (ROOT / "README.md").read_text().split("### A TypeScript client\n", 1)[1].split("\n## ", 1)[0]


def test_the_readmes_typescript_program_type_checks_against_the_generated_client(tmp_path: Path) -> None:
    if shutil.which("npm") is None:
        if os.environ.get("TURNSTILE_REQUIRE_SERVICES") == "1":
            pytest.fail("the TypeScript client test needs npm (CI installs it: .ci/run)")
        pytest.skip("the TypeScript client test needs npm")
    (commands,) = re.findall(r"```shell\n(.*?)```", SECTION, flags=re.S)
    (program,) = re.findall(r"```ts\n(.*?)```", SECTION, flags=re.S)
    (tmp_path / "openapi").mkdir()
    shutil.copy(ROOT / "openapi" / "openapi.json", tmp_path / "openapi" / "openapi.json")
    (tmp_path / "play.ts").write_text(program)
    env = {**os.environ, "npm_config_cache": str(tmp_path / "npm-cache"), "npm_config_audit": "false",
           "npm_config_fund": "false", "npm_config_update_notifier": "false"}
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + commands], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    # The same check fails a program that reads a field the generated types do not have: it checks something.
    (tmp_path / "play.ts").write_text(program.replace("legal.moves.length", "legal.movez.length"))
    tsc = commands.strip().splitlines()[-1]
    wrong = subprocess.run(["bash", "-c", tsc], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                           check=False)
    assert wrong.returncode != 0 and "movez" in wrong.stdout, wrong.stdout + wrong.stderr

