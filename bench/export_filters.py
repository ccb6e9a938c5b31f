"""The bulk export's filters that find few or no matches, timed on a store filled by bench/export_fill.py, with the
store code of a tree of your choosing (issue 42: before and after the span of a time range and SQLite's
match_players; see bench/README.md, "ninth sitting").

    # fill (with the code of the tree the store must start from), then time, with each tree in turn:
    uv run python bench/export_filters.py fill sqlite:////tmp/NAME.db --to 100000 [--from 10000] [--tree DIR]
    uv run python bench/export_filters.py time sqlite:////tmp/NAME.db --size 100000 [--tree DIR]

`--tree` (default: this checkout) is put first on the import path, so another tree's store code (e.g. a
`git archive` of an older commit) is the one timed; opening a store with newer code migrates it, so time the older
code first. Each case is one request of 100 lines' matches (`Exports.pages`: with a time range, its span read first),
best of five, in ms; with `list_matches` (GET /v1/matches?player=) beside them. One JSON line on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["fill", "time"])
    parser.add_argument("url")
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--from", dest="have", type=int, default=0, help="fill: matches the store holds already")
    parser.add_argument("--to", type=int, help="fill: matches to grow it to")
    parser.add_argument("--size", type=int, help="time: matches the store holds")
    args = parser.parse_args()
    sys.path.insert(0, args.tree)
    from ledger.notes import Signer
    from service.log.transparency import DEFAULT_ORIGIN, Transparency
    from store.factory import open_store

    store: Any = open_store(args.url)
    try:
        if args.mode == "fill":
            from bench.export_fill import templates
            from bench.export_scale import grow

            log = Transparency(store, Signer.generate(DEFAULT_ORIGIN), min_interval_s=0)
            grow(store, log, args.have, args.to, templates(40, store))
        else:
            print(json.dumps({"tree": args.tree, "store": args.url.rsplit("/", 1)[-1], "size": args.size,
                              "load": os.getloadavg()[0], "ms": timed(store, args.size)}))
    finally:
        store.close()


def timed(store: Any, size: int) -> dict[str, tuple[float, int]]:
    """Each case's best time in ms and how many matches it gave."""
    from bench.export_fill import START
    from bench.export_scale import _ms, log_order
    from service.reads.audit import Audit
    from service.reads.exports import Exports
    from store.exports import ExportQuery

    exports = Exports(store, Audit(store))
    hundredth = max(1, size // 100)
    early, late = START + timedelta(seconds=hundredth), START + timedelta(seconds=size - hundredth)
    with store._reading() as conn:  # the cursor of an export `until=early` at its last line
        row = conn.execute(store.dialect.sql(
            "SELECT events.position FROM events WHERE type = 'match.ended' AND recorded_at < ? "
            f"ORDER BY {log_order(store, descending=True)} LIMIT 1"), (store.dialect.time(early),)).fetchone()
    cases = {
        "until 1 %, its last page": (ExportQuery(until=early), int(row[0])),
        "since 99 %, its first page": (ExportQuery(since=late), 0),
        "since after the last": (ExportQuery(since=START + timedelta(seconds=size, days=1)), 0),
        "a player in none": (ExportQuery(player="nobody-plays-here"), 0),
        "a game with none": (ExportQuery(game="terminus"), 0),
        "no filter, first page": (ExportQuery(), 0),
        "the game of all, first page": (ExportQuery(game="expect-delays"), 0),
    }
    out: dict[str, tuple[float, int]] = {}
    for name, (query, after) in cases.items():
        def request(query: ExportQuery = query, after: int = after) -> list[Any]:
            return list(exports.pages(query, after, 100))

        out[name] = (min(_ms(request) for _ in range(5)), sum(len(page) for page in request()))
    someone = store.list_matches(limit=1)[0].seats[0].player
    for name, player in (("list_matches player in none", "nobody-plays-here"),
                         ("list_matches player, first page", someone)):
        out[name] = (min(_ms(lambda player=player: store.list_matches(player=player)) for _ in range(5)),
                     len(store.list_matches(player=player)))
    return out


if __name__ == "__main__":
    main()
