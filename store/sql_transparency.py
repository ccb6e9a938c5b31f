"""The transparency log's half of the SQL adapters (store/transparency.py): one SQL shape for both dialects."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from ledger.merkle import (
    TOURNAMENT_STREAM,
    Hash,
    Node,
    appended_nodes,
    event_leaf,
    fold_parts,
    leaf_hash,
    perfect_parts,
)
from store.dialect import Dialect
from store.transparency import LogCheckpoint, LogEntry, LogLeaf, Signer

_LEAF_COLUMNS = "idx, match_id, version, hash"
_CHECKPOINT_COLUMNS = "size, root, note, signed_at"


class SqlTransparency:
    """Leaves, nodes and checkpoints over the connections an adapter holds (mixed into `store.sql.SqlStore`)."""

    dialect: Dialect
    # What locks the sequencer's row for its transaction, or skips it when another sequencer holds it.
    log_lock: str = ""

    def _reading(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _log_entries(self, conn: Any, after: int, limit: int) -> list[tuple[str, int, str, int]]:
        """(match id, version, chain hash, position) of up to `limit` events of the global log after the one at
        `after`, in `read_all`'s order and below its horizon: what a leaf needs, not the events' payloads."""
        return conn.execute(self.dialect.sql("SELECT match_id, version, hash, position FROM events WHERE position > ? "
                                             "ORDER BY position LIMIT ?"), (after, limit)).fetchall()  # type: ignore[no-any-return]

    def _tournament_entries(self, conn: Any, limit: int) -> list[tuple[str, int, str, int]]:
        """(stream, version, chain hash, 0) of up to `limit` tournament events not yet in the log, each tournament's in
        version order from the first it lacks. A tournament's appends lock its row, so its events commit in version
        order: what this transaction cannot see yet is taken by a later one, never skipped."""
        rows = conn.execute(self.dialect.sql(
            "SELECT t.id, e.version, e.hash FROM tournaments t JOIN tournament_events e ON e.tournament_id = t.id "
            "AND e.version > t.logged_version WHERE t.version > t.logged_version ORDER BY t.id, e.version LIMIT ?"),
            (limit,)).fetchall()
        return [(TOURNAMENT_STREAM + r[0], int(r[1]), r[2], 0) for r in rows]

    def sequence_log(self, limit: int = 1000, sign: Signer | None = None) -> tuple[int, Hash] | None:
        """Append leaves for up to `limit` events after the last one taken, and maybe a checkpoint; (size, root)."""
        d = self.dialect
        with self._transaction() as conn:
            row = conn.execute(d.sql(f"SELECT size, after_position FROM log_state WHERE id = 1{self.log_lock}")
                               ).fetchone()
            if row is None:  # another sequencer holds the row: it takes these events
                return None
            size, after = int(row[0]), int(row[1])
            entries = self._log_entries(conn, after, limit)  # below the horizon, in log order: final
            streams = self._tournament_entries(conn, limit - len(entries)) if len(entries) < limit else []
            leaves = [*entries, *streams]
            edge = _nodes(conn, d, perfect_parts(0, size))
            made = dict(appended_nodes(size, [leaf_hash(event_leaf(m, v, h)) for m, v, h, _ in leaves],
                                       edge.__getitem__))
            if leaves:  # a level-0 node is its leaf's hash: derived from the leaf row when read, not stored
                self._insert_log(conn, [(size + i, *leaf) for i, leaf in enumerate(leaves)],
                                 [(level, idx, digest) for (level, idx), digest in made.items() if level])
                size += len(leaves)
                conn.execute(d.sql("UPDATE log_state SET size = ?, after_position = ? WHERE id = 1"),
                             (size, entries[-1][3] if entries else after))
                logged = {stream.removeprefix(TOURNAMENT_STREAM): version for stream, version, _, _ in streams}
                conn.cursor().executemany(d.sql("UPDATE tournaments SET logged_version = ? WHERE id = ?"),
                                          [(version, tournament) for tournament, version in logged.items()])
            root = fold_parts([made.get(part) or edge[part] for part in perfect_parts(0, size)])
            if sign is not None and size:
                latest = _latest(conn, d)
                note = None if latest is not None and latest.size >= size else sign(size, root, latest)
                if note is not None:
                    conn.execute(d.sql(f"INSERT INTO log_checkpoints ({_CHECKPOINT_COLUMNS}) VALUES (?, ?, ?, ?)"),
                                 (size, root, note, d.now()))
        return size, root

    def _insert_log(self, conn: Any, leaves: list[tuple[Any, ...]], nodes: list[tuple[Any, ...]]) -> None:
        """Insert leaf rows (idx, match_id, version, hash, position) and node rows (level, idx, hash); PostgreSQL's
        store sends each as one statement of one JSON parameter."""
        d = self.dialect
        conn.cursor().executemany(d.sql("INSERT INTO log_leaves (idx, match_id, version, hash, position) "
                                        "VALUES (?, ?, ?, ?, ?)"), leaves)
        conn.cursor().executemany(d.sql("INSERT INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)"), nodes)

    def log_size(self) -> int:
        """How many leaves the tree has."""
        with self._reading() as conn:
            row = conn.execute("SELECT size FROM log_state WHERE id = 1").fetchone()
        return 0 if row is None else int(row[0])

    def log_nodes(self, nodes: Sequence[Node]) -> dict[Node, Hash]:
        """The stored perfect subtrees among `nodes` (one read)."""
        with self._reading() as conn:
            return _nodes(conn, self.dialect, nodes)

    def log_leaf(self, match_id: str, version: int) -> LogLeaf | None:
        """The leaf of an event, or None (not sequenced yet)."""
        with self._reading() as conn:
            row = conn.execute(self.dialect.sql(f"SELECT {_LEAF_COLUMNS} FROM log_leaves WHERE match_id = ? AND "
                                                "version = ?"), (match_id, version)).fetchone()
        return None if row is None else LogLeaf(int(row[0]), row[1], int(row[2]), row[3])

    def log_level(self, level: int, first: int, count: int) -> list[Hash]:
        """The stored perfect subtrees of `level` from index `first` on, at most `count`, in index order (one read;
        level 0: the leaves' hashes, from their rows)."""
        with self._reading() as conn:
            if level == 0:
                rows = conn.execute(self.dialect.sql(f"SELECT {_LEAF_COLUMNS} FROM log_leaves WHERE idx >= ? AND "
                                                     "idx < ? ORDER BY idx"), (first, first + count)).fetchall()
                return [_leaf_node(row) for row in rows]
            rows = conn.execute(self.dialect.sql("SELECT hash FROM log_nodes WHERE level = ? AND idx >= ? AND idx < ? "
                                                 "ORDER BY idx"), (level, first, first + count)).fetchall()
        return [bytes(r[0]) for r in rows]

    def log_entries(self, first: int, count: int) -> list[LogEntry]:
        """Leaves `first` to `first + count - 1` with their streams' visibility: a match's, or a tournament's for a
        stream "tournament:<id>" (one read)."""
        prefix = len(TOURNAMENT_STREAM)
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql(
                "SELECT l.idx, l.match_id, l.version, l.hash, COALESCE(m.visibility, t.visibility) FROM log_leaves l "
                "LEFT JOIN matches m ON m.id = l.match_id "
                f"LEFT JOIN tournaments t ON substr(l.match_id, 1, {prefix}) = ? AND t.id = substr(l.match_id, "
                f"{prefix + 1}) WHERE l.idx >= ? AND l.idx < ? ORDER BY l.idx"),
                (TOURNAMENT_STREAM, first, first + count)).fetchall()
        return [LogEntry(int(r[0]), r[1], int(r[2]), r[3], r[4]) for r in rows]

    def log_leaves_of(self, match_id: str, from_version: int = 1) -> list[LogLeaf]:
        """The leaves of a match's events from `from_version` on, in version order."""
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql(f"SELECT {_LEAF_COLUMNS} FROM log_leaves WHERE match_id = ? AND "
                                                 "version >= ? ORDER BY version"), (match_id, from_version)).fetchall()
        return [LogLeaf(int(r[0]), r[1], int(r[2]), r[3]) for r in rows]

    def log_leaves_of_streams(self, streams: Sequence[str]) -> dict[str, list[LogLeaf]]:
        """The leaves of each of these streams' events, each stream's in version order (one read)."""
        found: dict[str, list[LogLeaf]] = {stream: [] for stream in streams}
        if not streams:
            return found
        sql, params = self.dialect.each_of("log_leaves", _LEAF_COLUMNS, {"match_id": "text"},
                                           [(stream,) for stream in streams], "version")
        with self._reading() as conn:
            rows = conn.execute(self.dialect.sql(sql), params).fetchall()
        for r in rows:
            found[r[1]].append(LogLeaf(int(r[0]), r[1], int(r[2]), r[3]))
        return found

    def latest_checkpoint(self) -> LogCheckpoint | None:
        """The newest signed checkpoint, or None."""
        with self._reading() as conn:
            return _latest(conn, self.dialect)

    def checkpoint_at(self, size: int) -> LogCheckpoint | None:
        """The signed checkpoint of the tree of `size` leaves, or None (none was signed at that size)."""
        with self._reading() as conn:
            row = conn.execute(self.dialect.sql(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints WHERE size = ?"),
                               (size,)).fetchone()
        return None if row is None else LogCheckpoint(int(row[0]), bytes(row[1]), row[2], self.dialect.stamp(row[3]))

    def witness_sizes(self) -> dict[str, int]:
        """Per witness (its name in the policy), the size it last cosigned or said it did."""
        with self._reading() as conn:
            return {name: int(size) for name, size in conn.execute("SELECT witness, size FROM log_witnesses")}

    def set_witness_size(self, witness: str, size: int) -> None:
        """Remember `size` as the one `witness` last cosigned (a 409's answer)."""
        with self._transaction() as conn:
            _upsert_witness(conn, self.dialect, witness, size)

    def add_cosignature(self, witness: str, size: int, line: str) -> None:
        """Keep `witness`'s cosignature line of the checkpoint of `size`, and `size` as the one it last cosigned."""
        d = self.dialect
        with self._transaction() as conn:
            conn.execute(d.sql("INSERT INTO log_cosignatures (size, witness, line) VALUES (?, ?, ?) "
                               "ON CONFLICT (size, witness) DO NOTHING"), (size, witness, line))
            _upsert_witness(conn, d, witness, size)

    def claim_cosigner(self, holder: str, now_s: float, lease_s: float) -> bool:
        """Whether `holder` collects cosignatures until `now_s + lease_s`: it held the lease, or nobody holds it now
        (a lease that expired is taken over)."""
        with self._transaction() as conn:
            cursor = conn.execute(self.dialect.sql(
                "INSERT INTO log_cosigner (id, holder, until_s) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                "holder = excluded.holder, until_s = excluded.until_s "
                "WHERE log_cosigner.holder = excluded.holder OR log_cosigner.until_s < ?"),
                (holder, now_s + lease_s, now_s))
            return bool(cursor.rowcount == 1)

    def cosigned_checkpoints(self, limit: int = 16, above: int = 0,
                             below: int | None = None) -> list[tuple[LogCheckpoint, list[str]]]:
        """The newest `limit` checkpoints with at least one cosignature whose size is above `above` (and below
        `below`), newest first, each with its cosignature lines (in witness name order)."""
        d = self.dialect
        with self._reading() as conn:
            rows = conn.execute(d.sql(
                f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints WHERE size IN (SELECT DISTINCT size FROM "
                "log_cosignatures WHERE size > ? AND size < ? ORDER BY size DESC LIMIT ?) ORDER BY size DESC"),
                (above, 2**63 - 1 if below is None else below, limit)).fetchall()
            if not rows:
                return []
            lines = conn.execute(d.sql(
                "SELECT size, line FROM log_cosignatures WHERE size >= ? AND size <= ? ORDER BY size, witness"),
                (int(rows[-1][0]), int(rows[0][0]))).fetchall()
        by_size: dict[int, list[str]] = {}
        for size, line in lines:
            by_size.setdefault(int(size), []).append(line)
        return [(LogCheckpoint(int(r[0]), bytes(r[1]), r[2], d.stamp(r[3])), by_size.get(int(r[0]), []))
                for r in rows]


def _upsert_witness(conn: Any, d: Dialect, witness: str, size: int) -> None:
    conn.execute(d.sql("INSERT INTO log_witnesses (witness, size) VALUES (?, ?) "
                       "ON CONFLICT (witness) DO UPDATE SET size = excluded.size"), (witness, size))


def _leaf_node(row: Sequence[Any]) -> Hash:
    """The level-0 node of a leaf row (idx, stream, version, chain hash): the hash of its leaf data."""
    return leaf_hash(event_leaf(row[1], int(row[2]), row[3]))


def _nodes(conn: Any, d: Dialect, nodes: Sequence[Node]) -> dict[Node, Hash]:
    """The perfect subtrees among `nodes` that exist: level 0 from the leaf rows, the others from log_nodes, in one
    statement (a round trip fewer for the sequencer, whose edge has a level-0 node whenever the size is odd)."""
    leaves = sorted({idx for level, idx in nodes if level == 0})
    higher = [node for node in nodes if node[0]]
    parts, params = [], []
    if leaves:  # (level, idx, stream, version, chain hash, node hash)
        listed, values = d.one_of("idx", leaves)
        parts.append(f"SELECT 0, idx, match_id, version, hash, NULL FROM log_leaves WHERE {listed}")
        params += values
    if higher:
        sql, values = d.each_of("log_nodes", "level, idx, CAST(NULL AS TEXT), CAST(NULL AS INTEGER), "
                                "CAST(NULL AS TEXT), hash", {"level": "bigint", "idx": "bigint"}, higher)
        parts.append(sql)
        params += values
    if not parts:
        return {}
    rows = conn.execute(d.sql(" UNION ALL ".join(parts)), params).fetchall()
    return {(int(row[0]), int(row[1])): _leaf_node(row[1:5]) if row[0] == 0 else bytes(row[5]) for row in rows}


def _latest(conn: Any, d: Dialect) -> LogCheckpoint | None:
    row = conn.execute(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints ORDER BY size DESC LIMIT 1").fetchone()
    return None if row is None else LogCheckpoint(int(row[0]), bytes(row[1]), row[2], d.stamp(row[3]))
