"""Monthly dumps: each match in exactly one dump, files as their manifest says, every line verifying, never recut."""

from __future__ import annotations

import gzip
import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from ledger.verify import verify_text
from service.reads.dumps import DumpError, cut, manifests, month_end
from tests.api.test_exports import finish


def dumped(folder: Path) -> list[str]:
    """The match ids of every dump in `folder`, checking each file against its manifest and each record."""
    ids = []
    for manifest in manifests(folder):
        for file in manifest.files:
            data = (folder / manifest.month / file.name).read_bytes()
            assert (len(data), hashlib.sha256(data).hexdigest()) == (file.bytes, file.sha256)
            lines = [json.loads(line) for line in gzip.decompress(data).splitlines()]
            assert len(lines) == file.records
            for line in lines:
                assert verify_text(line["record"]).ok
                header = json.loads(line["record"].split("\n", 1)[0])
                assert header["game"] == file.game
                ids.append(header["match_id"])
    return ids


def test_a_match_finished_after_its_months_dump_goes_into_the_next(client: TestClient, tmp_path: Path) -> None:
    """Two dumps cut in turn hold every finished public match once; the later one takes matches that ended in the
    earlier month after it was cut. A month not over, a dump cut already, or one out of order is refused."""
    service, exports = client.app.state.service, client.app.state.exports
    month = datetime.now(UTC).strftime("%Y-%m")
    following = month_end(month).strftime("%Y-%m")
    early = [finish(service, game, ["ada", "bob"]) for game in ("expect-delays", "terminus")]
    finish(service, "terminus", ["ada", "bob"], owner="tests", visibility="private")  # never in a dump
    with pytest.raises(DumpError, match="not over"):
        cut(exports, tmp_path, month, datetime.now(UTC), None)
    first = cut(exports, tmp_path, month, month_end(month) + timedelta(days=1), None)
    assert sorted(f.game for f in first.files) == ["expect-delays", "terminus"] and first.after == 0
    late = finish(service, "expect-delays", ["cy", "dee"])  # ended this month, after its dump was cut
    with pytest.raises(DumpError, match="cut already"):
        cut(exports, tmp_path, month, month_end(month) + timedelta(days=1), None)
    second = cut(exports, tmp_path, following, month_end(following) + timedelta(days=1), "a checkpoint")
    assert second.after == first.cut and second.checkpoint == "a checkpoint"
    assert dumped(tmp_path) == [*early, late]
    with pytest.raises(DumpError, match="in order"):
        cut(exports, tmp_path, "2020-01", datetime.now(UTC), None)


def test_the_dump_command_cuts_a_month(client: TestClient, store: Any, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`turnstile dump --month` cuts from the configured store (an empty past month: a manifest and no files) and
    refuses a malformed month."""
    from cli import main

    if type(store).__name__ != "SqliteStore":
        pytest.skip("the command is the same on either store; the cut itself is tested on both above")
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", f"sqlite:///{tmp_path / 'store.db'}")
    assert main(["dump", "--month", "2020-02", "--out", str(tmp_path / "dumps")]) == 0
    assert [m.month for m in manifests(tmp_path / "dumps")] == ["2020-02"]
    assert main(["dump", "--month", "2020-13", "--out", str(tmp_path / "dumps")]) == 2
    assert "not a month" in capsys.readouterr().err


def test_dump_files_are_served_whole_or_by_range_and_cached_for_good(store: Any, tmp_path: Path) -> None:
    """GET /v1/dumps lists the manifests; a file comes whole or by one byte range (206, Content-Range), 416 past its
    end, with immutable caching; only files a manifest lists are served, never a path built from the request."""
    from api.app import create_app

    folder = tmp_path / "dumps"
    with TestClient(create_app(store, dumps_dir=str(folder))) as client:
        month = datetime.now(UTC).strftime("%Y-%m")
        finish(client.app.state.service, "terminus", ["ada", "bob"])
        cut(client.app.state.exports, folder, month, month_end(month) + timedelta(days=1), None)
        (listed,) = client.get("/v1/dumps").json()["items"]
        (file,) = listed["files"]
        url = f"/v1/dumps/{month}/{file['name']}"
        whole = client.get(url)
        assert whole.status_code == 200 and hashlib.sha256(whole.content).hexdigest() == file["sha256"]
        assert whole.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert whole.headers["etag"] == f'"{file["sha256"]}"' and whole.headers["accept-ranges"] == "bytes"
        size = len(whole.content)
        for asked, part in (("bytes=0-9", whole.content[:10]), ("bytes=10-", whole.content[10:]),
                            ("bytes=-7", whole.content[-7:]), (f"bytes=5-{size + 99}", whole.content[5:])):
            answer = client.get(url, headers={"Range": asked})
            assert (answer.status_code, answer.content) == (206, part), asked
            assert answer.headers["content-range"].endswith(f"/{size}")
        assert client.get(url, headers={"Range": "bytes=0-1,5-9"}).content == whole.content  # several: whole file
        assert client.get(url, headers={"Range": f"bytes={size}-"}).json()["code"] == "range-not-satisfiable"
        assert client.get(url, headers={"Range": f"bytes={size}-"}).status_code == 416
        for bad in (f"/v1/dumps/{month}/manifest.json", f"/v1/dumps/{month}/..%2F..%2Fstore.db",
                    f"/v1/dumps/..%2F{month}/{file['name']}", "/v1/dumps/2020-01/x.gz"):
            assert client.get(bad).json()["code"] in ("unknown-dump", "not-found"), bad
            assert client.get(bad).status_code == 404
    with TestClient(create_app(store)) as client:
        assert client.get("/v1/dumps").json() == {"items": []}
        assert client.get(url).status_code == 404


def test_two_cuts_of_one_month_at_once_leave_one_dump(client: TestClient, tmp_path: Path) -> None:
    """Two processes cutting the same month at once: one dump is written whole, the other cut is refused, and no
    staging folder is left behind."""
    from concurrent.futures import ThreadPoolExecutor

    service, exports = client.app.state.service, client.app.state.exports
    for game in ("expect-delays", "terminus", "touched-on"):
        finish(service, game, ["ada", "bob"])
    month = datetime.now(UTC).strftime("%Y-%m")
    later = month_end(month) + timedelta(days=1)

    folder = tmp_path / "dumps"

    def attempt(_: int) -> str:
        try:
            return cut(exports, folder, month, later, None).month
        except DumpError as exc:
            return str(exc)

    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(attempt, range(2)))
    assert sorted(outcomes)[0] == month and "cut already" in sorted(outcomes)[1]
    assert len(dumped(folder)) == 3 and [p.name for p in folder.iterdir()] == [month]
