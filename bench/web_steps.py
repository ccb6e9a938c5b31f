"""How long one step of the match page takes on the server: `table.svg` of a long match at random versions.

    uv run python bench/web_steps.py      # prints events in the match, then p50 / p95 / max ms per picture
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from litestar.testing import TestClient

from api.app import create_app
from domain.catalog import by_slug
from service.matches.simulate import play_random_match
from store.factory import open_store


def main() -> None:
    """Plays one long Expect Delays match and times pictures of it."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{Path(folder) / 'bench.db'}")
        with TestClient(create_app(store)) as client:
            game = by_slug("expect-delays")
            assert game is not None
            match_id = play_random_match(client.app.state.service, game, ["ada", "grace"], random.Random(1))
            latest = client.get(f"/v1/matches/{match_id}").json()["version"]
            rng, took = random.Random(2), []
            for _ in range(60):
                began = time.perf_counter()
                assert client.get(f"/web/matches/{match_id}/table.svg?version={rng.randint(1, latest)}").is_success
                took.append((time.perf_counter() - began) * 1000)
            took.sort()
            print(f"{latest} events; table.svg p50 {statistics.median(took):.1f} ms, "
                  f"p95 {took[int(len(took) * 0.95)]:.1f} ms, max {took[-1]:.1f} ms")
        store.close()


if __name__ == "__main__":
    main()
