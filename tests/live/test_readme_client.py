"""The README's 20-line Python client follows a match to its end, also across a server that stops its streams."""

from __future__ import annotations

import contextlib
import io
import random
import re
import threading
from pathlib import Path
from typing import Any

from tests.live.conftest import Server
from tests.live.play import log

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def readme_follow() -> Any:
    """The `follow` function of the README's Python block."""
    (code,) = [block for block in re.findall(r"```python\n(.*?)```", README, flags=re.S) if "def follow(" in block]
    namespace: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102  (our own README, run as a reader would)
    return namespace["follow"]


def test_the_readme_client_prints_a_live_match_to_its_end(server: Server) -> None:
    follow = readme_follow()
    created = server.create(seed="readme-client")
    out = io.StringIO()

    def run() -> None:
        with contextlib.redirect_stdout(out):
            follow(server.url, created["id"])

    reader = threading.Thread(target=run)
    reader.start()
    server.finish(created["id"], random.Random(8))
    reader.join(20)
    assert not reader.is_alive(), "the client did not stop at the end of the match"
    printed = [line.split() for line in out.getvalue().splitlines()]
    expected = [[str(item["version"]), item["event"]["type"]] for item in log(server.url, created["id"])]
    assert printed == expected
