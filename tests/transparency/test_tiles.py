"""The log as C2SP tlog-tiles (GET /v1/log/tiles/...), read by a tile client written here from the specification,
not from the server's code: the checkpoint's root recomputed from tiles of every level, inclusion proofs recomputed
from tiles equal to the proofs API's, every entry hashing to its level-0 tile, the spec's cache headers, 400 for a
path the spec does not write and 404 past the tree, and no entry naming an unlisted or private stream."""

from __future__ import annotations

import base64
import hashlib
import threading
import uuid
from collections.abc import Callable, Iterator

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import given
from hypothesis import strategies as st
from litestar.testing import TestClient
from tlog_scales.reader import TilesReader

from api.app import create_app
from domain.tournaments.commands import CreateTournament, EntryOf
from ledger.tiles import Tile, parse_tile_path
from service.matches.matches import MatchService
from service.tournaments.tournaments import TournamentService
from store.base import EventStore
from tests.adversary.test_operator_edits_the_store import sql, unlock
from tests.store.conftest import Harness
from tests.store.test_contract import ev, full_log, play, record, start

PREFIX = "/v1/log/tiles/"
IMMUTABLE = "public, max-age=31536000, immutable"


# ---- a tile client, from the specification's text --------------------------------------------------------------


def index_path(n: int) -> str:
    """tlog-tiles: N in zero-padded 3-digit elements, all but the last beginning with `x`."""
    digits = str(n)
    digits = digits.zfill(-(-len(digits) // 3) * 3)
    groups = [digits[i:i + 3] for i in range(0, len(digits), 3)]
    return "/".join([*("x" + g for g in groups[:-1]), groups[-1]])


def sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


class TileClient:
    """Reads a tree of `size` leaves from its tiles only, fetching each tile once; MTH and PATH as RFC 9162 2.1."""

    def __init__(self, fetch: Callable[[str], bytes], size: int) -> None:
        self.fetch, self.size, self.tiles = fetch, size, {}  # type: ignore[var-annotated]

    def tile_path(self, level: int, n: int, entries: bool = False) -> str:
        """The tile N of `level`, as wide as this tree makes it (a partial one: floor(size / 256**L) mod 256)."""
        count = self.size // 256 ** level
        width = "" if (n + 1) * 256 <= count else f".p/{count % 256}"
        return f"tile/{'entries' if entries else level}/{index_path(n)}{width}"

    def hash_at(self, level: int, index: int) -> bytes:
        """The `index`-th hash of tile level `level`: MTH of leaves [index·256**L, (index + 1)·256**L)."""
        n, i = divmod(index, 256)
        path = self.tile_path(level, n)
        if path not in self.tiles:
            self.tiles[path] = self.fetch(path)
        return self.tiles[path][32 * i:32 * i + 32]  # type: ignore[no-any-return]

    def perfect(self, height: int, index: int) -> bytes:
        """MTH of the 2**height leaves from index·2**height: from a tile where one holds it, else its two halves."""
        if height % 8 == 0:
            return self.hash_at(height // 8, index)
        return sha(b"\x01", self.perfect(height - 1, 2 * index), self.perfect(height - 1, 2 * index + 1))

    def mth(self, a: int, b: int) -> bytes:
        n = b - a
        if n & (n - 1) == 0 and a % n == 0:
            return self.perfect(n.bit_length() - 1, a // n)
        k = 1 << ((n - 1).bit_length() - 1)
        return sha(b"\x01", self.mth(a, a + k), self.mth(a + k, b))

    def audit_path(self, m: int, a: int, b: int) -> list[bytes]:
        """PATH(m, D[a:b]), leaf side first."""
        if b - a == 1:
            return []
        k = 1 << ((b - a - 1).bit_length() - 1)
        if m < k:
            return [*self.audit_path(m, a, a + k), self.mth(a + k, b)]
        return [*self.audit_path(m - k, a + k, b), self.mth(a, a + k)]


def opened_note(note: str, public_key: bytes) -> tuple[int, bytes]:
    """(size, root) of a checkpoint whose Ed25519 signature by `public_key` checks (signed-note: the signature line's
    base64 is a 4-byte key id and the signature over the text before the blank line)."""
    body, _, signatures = note.partition("\n\n")
    signature = base64.b64decode(signatures.splitlines()[0].split(" ")[2])[4:]
    Ed25519PublicKey.from_public_bytes(public_key).verify(signature, (body + "\n").encode())
    lines = body.split("\n")
    return int(lines[1]), base64.b64decode(lines[2])


def tile_root(tile: bytes) -> bytes:
    """MTH of a full tile's 256 hashes: the perfect subtree they are the bottom of."""
    level = [tile[i:i + 32] for i in range(0, len(tile), 32)]
    while len(level) > 1:
        level = [sha(b"\x01", level[i], level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def entries_of(bundle: bytes) -> list[bytes]:
    out, at = [], 0
    while at < len(bundle):
        size = int.from_bytes(bundle[at:at + 2], "big")
        out.append(bundle[at + 2:at + 2 + size])
        at += 2 + size
    assert at == len(bundle)
    return out


@given(st.integers(min_value=0, max_value=2**63), st.integers(min_value=0, max_value=63),
       st.integers(min_value=1, max_value=256), st.booleans())
def test_every_tile_has_one_spelling_and_the_parser_takes_it(n: int, level: int, width: int, entries: bool) -> None:
    tile = Tile(None if entries else level, n, width)
    assert tile.path() == f"tile/{'entries' if entries else level}/{index_path(n)}" + ("" if width == 256 else
                                                                                          f".p/{width}")
    assert parse_tile_path(tile.path().removeprefix("tile/")) == tile


# ---- the log --------------------------------------------------------------------------------------------------


def hidden_match(store: EventStore, visibility: str) -> str:
    rec = msgspec.structs.replace(record(str(uuid.uuid4())), visibility=visibility)
    store.create_match(rec, [ev("match.started", seats=2), ev("deck.shuffled", order=[2, 1])])
    return rec.id


@pytest.fixture
def client(harness: Harness) -> Iterator[TestClient]:
    with TestClient(create_app(harness.store)) as test_client:  # type: ignore[arg-type]
        yield test_client


@pytest.mark.parametrize("harness", ["sqlite-file"], indirect=True)
def test_a_tile_client_recomputes_the_checkpoint_and_every_proof(harness: Harness, client: TestClient) -> None:
    store = harness.store
    first, second = start(store), start(store)
    play(store, first, 2, 300)
    play(store, second, 2, 250)
    secret, unlisted = hidden_match(store, "private"), hidden_match(store, "unlisted")  # the log's last events
    size = client.app.state.log.catch_up()
    assert size == 558  # two full level-0 tiles and one of 46; a level-1 tile of 2; no level 2
    note = client.get(PREFIX + "checkpoint")
    assert (note.status_code, note.headers["content-type"]) == (200, "text/plain; charset=utf-8"), note.text
    assert note.text == client.get("/v1/log/checkpoint").json()["checkpoint"]
    assert note.headers["cache-control"] == "public, max-age=1"
    public_key = base64.b64decode(client.get("/v1/log/key").json()["public_key"])
    assert opened_note(note.text, public_key)[0] == size
    served: dict[str, bytes] = {}

    def fetch(path: str) -> bytes:
        answer = client.get(PREFIX + path)
        assert answer.status_code == 200, (path, answer.text)
        assert answer.headers["content-type"] == "application/octet-stream"
        full = ".p/" not in path
        assert answer.headers["cache-control"] == (IMMUTABLE if full else "public, max-age=60"), path
        assert len(answer.content) == (8192 if full else 32 * int(path.rsplit("/", 1)[1])) or "entries" in path
        served[path] = answer.content
        return answer.content

    tiles = TileClient(fetch, size)
    assert tiles.mth(0, size) == opened_note(note.text, public_key)[1]
    assert set(tiles.tiles) == {"tile/1/000.p/2", "tile/0/002.p/46"}  # leaves 0-511 from two level-1 hashes
    for version in range(1, 303, 37):
        proof = client.get("/v1/log/proofs/inclusion", params={"match_id": first, "version": version}).json()
        assert [h.hex() for h in tiles.audit_path(proof["leaf_index"], 0, size)] == proof["audit_path"]
        assert tiles.hash_at(0, proof["leaf_index"]).hex() == proof["leaf_hash"]
    # A level-1 hash is the MTH of the full level-0 tile below it.
    assert tiles.hash_at(1, 0) == tile_root(fetch("tile/0/000"))
    # Entries: each hashes to its level-0 tile's leaf, and is the event's stream, version and chain hash.
    events = full_log(store)
    entries = [*entries_of(fetch("tile/entries/000")), *entries_of(fetch("tile/entries/001"))]
    assert len(entries) == 512
    for index, entry in enumerate(entries):
        assert sha(b"\x00", entry) == tiles.hash_at(0, index)
        assert entry == f"{events[index].match_id}\n{events[index].version}\n{events[index].hash}".encode()
    # The last bundle names the private and the unlisted match: withheld; its hashes are in the level-0 tile.
    withheld = client.get(PREFIX + "tile/entries/002.p/46")
    assert (withheld.status_code, withheld.json()["code"]) == (403, "entries-withheld")
    for match_id in (secret, unlisted):
        assert all(match_id.encode() not in body for body in [withheld.content, *served.values()])
    assert client.get(PREFIX + "tile/entries/002.p/30").status_code == 200  # the second match's last ones only
    gzipped = client.get(PREFIX + "tile/entries/000", headers={"Accept-Encoding": "gzip"})
    plain = client.get(PREFIX + "tile/entries/000", headers={"Accept-Encoding": "identity, gzip;q=0"})
    assert (gzipped.headers["content-encoding"], gzipped.headers["vary"]) == ("gzip", "Accept-Encoding")
    assert "content-encoding" not in plain.headers and gzipped.content == plain.content == served["tile/entries/000"]
    assert gzipped.num_bytes_downloaded < plain.num_bytes_downloaded
    # Code the project did not write, from the package registry: tlog-scales's tile reader (TilesReader) agrees.
    reader = TilesReader(ThroughClient(client))
    reader.set_size(size)  # its checkpoint parser takes no extension line, and ours carry the time as one
    assert reader.calculate_root_hash() == tiles.mth(0, size)
    for index in (0, 255, 256, 300, 511, 512, size - 1):
        assert reader.get_inclusion_proof(index, size).node_hashes == tiles.audit_path(index, 0, size)
    for old in (1, 256, 300, 512, 557):
        proof = client.get("/v1/log/proofs/consistency", params={"from": old, "to": size}).json()["proof"]
        assert [h.hex() for h in reader.get_consistency_proof(old, size).node_hashes] == proof
    assert [reader.get_entry(i) for i in range(512)] == entries


class ThroughClient:
    """tlog-scales's backend protocol (`get(*path)`: the resource's bytes, or None) over the test client."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def get(self, *path: str) -> bytes | None:
        answer = self.client.get(PREFIX + "/".join(path))
        return answer.content if answer.status_code == 200 else None


@pytest.mark.parametrize("harness", ["sqlite-file"], indirect=True)
def test_bad_tile_paths_are_400_and_tiles_past_the_tree_404(harness: Harness, client: TestClient) -> None:
    play(harness.store, start(harness.store), 2, 298)  # 300 leaves: tile 0/000 full, 0/001.p/44, 1/000.p/1
    client.app.state.log.catch_up()
    for good in ("0/000", "0/001.p/44", "0/001.p/1", "1/000.p/1", "entries/001.p/44", "entries/000"):
        assert client.get(PREFIX + "tile/" + good).status_code == 200, good
    for bad in ("0/1", "0/0000", "0/x000/000", "0/x001", "0/001/002", "00/000", "01/000", "64/000", "-1/000",
                "0/000.p/0", "0/000.p/256", "0/000.p/01", "0/000.p/", "0/000.p", "0/x00a/000", "0/００１",
                "entries/0", "entries/x000/001", "entries/000.p/256", "tiles/000", "0/000.p/1/2"):
        answer = client.get(PREFIX + "tile/" + bad)
        assert (answer.status_code, answer.json()["code"]) == (400, "bad-tile-path"), (bad, answer.text)
    for beyond in ("0/001", "0/001.p/45", "0/002.p/1", "1/000", "1/000.p/2", "2/000.p/1", "7/000.p/1", "63/000",
                   "0/x999/x999/x999/x999/x999/x999/x999/999", "entries/001", "entries/001.p/45", "entries/x001/000"):
        answer = client.get(PREFIX + "tile/" + beyond)
        assert (answer.status_code, answer.json()["code"]) == (404, "beyond-tree"), (beyond, answer.text)
    anyone = client.get(PREFIX + "tile/0/000", headers={"Authorization": "Bearer not-a-token"})  # no credential read
    assert (anyone.status_code, anyone.headers["cache-control"]) == (200, IMMUTABLE) and "vary" not in anyone.headers
    assert anyone.content == client.get(PREFIX + "tile/0/000").content
    for no_index in ("0", "0/", "entries"):  # no such route
        assert client.get(PREFIX + "tile/" + no_index).json()["code"] == "not-found"
    assert "cache-control" not in client.get(PREFIX + "tile/0/001").headers  # it exists later: keep no 404


@pytest.mark.parametrize("harness", ["sqlite-file"], indirect=True)
def test_tiles_read_while_the_log_grows_are_prefixes_of_the_final_ones(harness: Harness, client: TestClient) -> None:
    """A tile is one read: whatever width a reader gets while appends and the sequencer run, it is the start of the
    tile the tree ends with, never a mix of two trees (and a full tile, once served, never changes)."""
    store, log = harness.store, client.app.state.log
    log.min_interval_s = 0  # a checkpoint for every round: the reader follows the tree closely
    match_id = start(store)
    log.catch_up()
    seen: list[bytes] = []
    done = threading.Event()

    def grow() -> None:
        version = 2
        for _ in range(30):
            version = play(store, match_id, version, 10).version
            log.catch_up()
        done.set()

    writer = threading.Thread(target=grow)
    writer.start()
    while not done.is_set():
        size = client.get(PREFIX + "checkpoint").text.split("\n")[1]
        width = min(int(size), 256)
        answer = client.get(PREFIX + "tile/0/000" + ("" if width == 256 else f".p/{width}"))
        assert answer.status_code == 200, answer.text
        seen.append(answer.content)
    writer.join()
    final = client.get(PREFIX + "tile/0/000").content
    assert len(final) == 8192 and len({len(tile) for tile in seen}) > 1  # several widths were read
    assert all(final.startswith(tile) for tile in seen)


def test_entries_name_their_streams_and_their_visibility_on_every_store(store: EventStore) -> None:
    """The store's two tile reads: a level's hashes from an index on, and leaves with their stream's visibility — a
    match's, or a tournament's for "tournament:<id>" (one query each, on both dialects)."""
    public = start(store)
    private = hidden_match(store, "private")
    tournaments = TournamentService(store, MatchService(store))
    bots = tuple(EntryOf(bot="random", name=f"r{i}") for i in range(2))
    cup = tournaments.create("club", CreateTournament(game="expect-delays", format="round-robin", entrants=bots,
                                                      seats=2, seed_commitment="", visibility="private")).loaded
    size = store.sequence_log()[0]  # type: ignore[attr-defined]
    entries = store.log_entries(0, 256)  # type: ignore[attr-defined]
    assert len(entries) == size >= 3 and [e.index for e in entries] == list(range(size))
    by_stream = {e.stream: e.visibility for e in entries}
    assert by_stream == {public: "public", private: "private", f"tournament:{cup.record.id}": "private"}
    assert store.log_entries(1, 1) == entries[1:2]  # type: ignore[attr-defined]
    assert store.log_entries(size, 5) == []  # type: ignore[attr-defined]
    leaves = store.log_nodes([(0, i) for i in range(size)])  # type: ignore[attr-defined]
    assert store.log_level(0, 0, 256) == [leaves[(0, i)] for i in range(size)]  # type: ignore[attr-defined]
    assert store.log_level(0, 1, 2) == [leaves[(0, 1)], leaves[(0, 2)]]  # type: ignore[attr-defined]
    assert store.log_level(1, 0, 256) == list(store.log_nodes([(1, i) for i in range(size // 2)]).values())  # type: ignore[attr-defined]


@pytest.mark.parametrize("harness", ["sqlite-file"], indirect=True)
def test_a_monitor_mirroring_tiles_catches_a_tree_or_an_entry_that_is_not_the_signed_one(harness: Harness,
                                                                                        client: TestClient) -> None:
    """The operator, triggers off, rewrites leaves' event hashes under a signed checkpoint — one under the full tile
    (the level-1 hash above it no longer is its MTH), one past it (the tiles no longer make the signed root): a tile
    mirror sees both. (A level-0 node is not stored: a tile of level 0 is derived from the leaves, so an entry always
    hashes to its tile, and a rewritten one shows in the hashes above it.)"""
    store = harness.store
    play(store, start(store), 2, 298)
    size = client.app.state.log.catch_up()
    public_key = base64.b64decode(client.get("/v1/log/key").json()["public_key"])
    signed_size, signed_root = opened_note(client.get(PREFIX + "checkpoint").text, public_key)

    def mirrored() -> TileClient:
        return TileClient(lambda path: client.get(PREFIX + path).content, size)

    assert (signed_size, mirrored().mth(0, size)) == (size, signed_root)
    assert mirrored().hash_at(1, 0) == tile_root(client.get(PREFIX + "tile/0/000").content)
    unlock(harness, "log_nodes", "log_leaves")
    for index in (5, 260):
        sql(harness, "UPDATE log_leaves SET hash = ? WHERE idx = ?", (f"{index:064x}", index))
    assert mirrored().mth(0, size) != signed_root
    tile = client.get(PREFIX + "tile/0/000").content
    assert mirrored().hash_at(1, 0) != tile_root(tile)
    entries = entries_of(client.get(PREFIX + "tile/entries/000").content)
    assert entries[5].endswith(f"{5:064x}".encode())  # the rewritten entry is served, hashed into its tile
    assert all(sha(b"\x00", entry) == tile[32 * i:32 * i + 32] for i, entry in enumerate(entries))

