"""An emulated read replica: a second schema of the test database kept in sync by copying rows when told to,
reached through a TCP proxy that can go down or hang.

The server here runs with wal_level=replica, so logical replication between two databases is not available; a copy
taken on demand is a replica whose lag the test controls (it is the primary as of the last `sync`).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any

import psycopg

# Tables a replica holds, with their keys (events and commands only grow: new rows are added).
GROWING = {"events": "position", "commands": "match_id, command_id"}
REPLACED = ("matches", "app_keys", "projection_checkpoints", "projection_docs", "schema_migrations")


def sync(admin_url: str, primary: str, replica: str) -> None:
    """Make schema `replica` a copy of schema `primary` as it is now (one transaction)."""
    with psycopg.connect(admin_url, autocommit=True) as conn, conn.transaction():
        # As logical replication applies rows: no triggers, no foreign key checks (rows arrive in any order).
        conn.execute("SET LOCAL session_replication_role = replica")
        for table, key in GROWING.items():
            conn.execute(f'INSERT INTO "{replica}".{table} OVERRIDING SYSTEM VALUE SELECT * FROM "{primary}".{table} '
                         f"ON CONFLICT ({key}) DO NOTHING")
        for table in REPLACED:
            conn.execute(f'DELETE FROM "{replica}".{table}')
            conn.execute(f'INSERT INTO "{replica}".{table} SELECT * FROM "{primary}".{table}')


class Proxy:
    """A TCP proxy to PostgreSQL: `down()` drops every connection and refuses new ones, `hang()` holds every byte
    (connections stay open, nothing answers), `up()` forwards again; `sent` counts bytes sent to the server."""

    def __init__(self, host: str = "127.0.0.1", port: int = 5432) -> None:
        self.target = (host, port)
        self.sent = 0
        self.flowing = threading.Event()
        self.flowing.set()
        self.conns: list[socket.socket] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._serve()

    def _serve(self) -> None:
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # closed: down
            server = socket.create_connection(self.target)
            self.conns += [client, server]
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, upstream: bool) -> None:
        try:
            while data := source.recv(65536):
                self.flowing.wait()
                if upstream:
                    self.sent += len(data)
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            end.close()

    def down(self) -> None:
        """The replica's host goes away: connections reset, the port refuses."""
        self.flowing.set()
        _shut(self.listener)  # shutdown first: a close alone leaves the thread blocked in accept() still accepting
        for conn in self.conns:
            _shut(conn)
        self.conns = []

    def hang(self) -> None:
        """The replica stops answering (a stalled server or network): bytes are held, nothing is refused."""
        self.flowing.clear()

    def up(self) -> None:
        """Forward again (after `down`, on the same port)."""
        if self.listener.fileno() == -1:
            self.listener = socket.create_server(("127.0.0.1", self.port))
            self._serve()
        self.flowing.set()


def _shut(conn: Any) -> None:
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    conn.close()
