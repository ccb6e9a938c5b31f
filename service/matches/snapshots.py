"""Snapshots: a match's folded state saved every `EVERY` versions, so the first load of a long match in a process
reads that state and the events after it instead of folding them all (the match service's `load`).

A snapshot is an accelerator, never evidence. It is used only when the event at its version is stored with the hash
it names (so it belongs to this match's record as stored now) and when it was folded by the very rules code running
now: `FINGERPRINT` hashes every file of the `domain` package (rules, data files, MatchState), so any change to them,
even one that should not change a fold, sets every saved snapshot aside and matches are folded from their first
event again (and saved anew). A fold is only as right as the code that did it, and a snapshot cannot say which
of its fields a change of rules would have made differently. Verification, audits, exports and replays never read
snapshots: they re-fold the events.

Nor is a snapshot taken on the database's word: its bytes begin with an HMAC-SHA256 under the server's snapshot key
(derived from the log key and handed to the match service), so one edited in the database (hands swapped, points
added) does not decode and is set aside, logged, like any snapshot that does not fit. Without a log key the key is
this process's own, and a snapshot is trusted only by the process that saved it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import typing
from pathlib import Path
from typing import Any

import msgspec

import domain
from domain.catalog import game_of
from domain.engine import Game
from domain.match import MatchState
from ledger.notes import Signer

EVERY = 100  # a snapshot is saved when a match's version enters a new band of this many
FORMAT = b"turnstile-snapshot-2"  # the encoding below (an HMAC, then msgpack); changing it changes the fingerprint
MAC_SIZE = 32
PROCESS_KEY = secrets.token_bytes(32)  # the key of a service given none: snapshots trusted by this process alone


def _fingerprint() -> str:
    """sha256 of the encoding's name, msgspec's version, and every file of `domain/` (path and bytes, in path
    order; byte-code caches left out)."""
    root = Path(domain.__file__).parent
    digest = hashlib.sha256(FORMAT + b"\0" + msgspec.__version__.encode())
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        data = path.read_bytes()
        digest.update(f"\0{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


FINGERPRINT = _fingerprint()

_HEAD = msgspec.msgpack.Decoder(tuple[str, MatchState, msgspec.Raw])
_STATES: dict[str, msgspec.msgpack.Decoder[Any] | None] = {}
_encoder = msgspec.msgpack.Encoder()


def key_from(signer: Signer | None) -> bytes:
    """The snapshots' HMAC key, derived from the log key so every process of one server trusts the others' snapshots;
    this process's own when there is no log key."""
    return PROCESS_KEY if signer is None else signer.mac_key("snapshots")


def _mac(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, b"turnstile/snapshot\n" + body, hashlib.sha256).digest()


class Unfit(ValueError):
    """A saved snapshot that cannot be used (its bytes do not decode to a state of a game that has snapshots)."""


def crossed(before: int, after: int) -> bool:
    """Whether a match going from version `before` to `after` entered a new band (a snapshot is due)."""
    return after // EVERY > before // EVERY


def state_type(game: Game[Any]) -> type[msgspec.Struct] | None:
    """The game's state type (what its `evolve` returns), or None when it is not a msgspec Struct (no snapshots)."""
    try:
        found = typing.get_type_hints(game.evolve).get("return")
    except Exception:  # noqa: BLE001  (whatever stops the hints from resolving, there is no type to trust)
        return None
    return found if isinstance(found, type) and issubclass(found, msgspec.Struct) else None


def _state_decoder(game: Game[Any]) -> msgspec.msgpack.Decoder[Any] | None:
    if game.slug not in _STATES:
        found = state_type(game)
        _STATES[game.slug] = None if found is None else msgspec.msgpack.Decoder(found | None)  # type: ignore[operator]
    return _STATES[game.slug]


def encode(game: Game[Any], match_id: str, state: MatchState, key: bytes = PROCESS_KEY) -> bytes | None:
    """The state as snapshot bytes (the HMAC of the rest, then msgpack of match id, the state without its game's part,
    that part), or None when the game has no snapshots."""
    if _state_decoder(game) is None:
        return None
    body = _encoder.encode((match_id, msgspec.structs.replace(state, game_state=None), state.game_state))
    return _mac(key, body) + body


def decode(blob: bytes, key: bytes = PROCESS_KEY) -> tuple[str, Game[Any], MatchState]:
    """(match id, game, state) of snapshot bytes; Unfit when their HMAC fails or they are not a state of a game with
    snapshots."""
    mac, body = blob[:MAC_SIZE], blob[MAC_SIZE:]
    if not hmac.compare_digest(mac, _mac(key, body)):
        raise Unfit("its HMAC does not verify under this server's snapshot key (edited, or saved under another key)")
    try:
        match_id, head, raw = _HEAD.decode(body)
        game = game_of(head.game, head.rules_version)  # a snapshot folds under its own edition only
        decoder = _state_decoder(game)
        game_state = None if decoder is None else decoder.decode(raw)
    except Exception as exc:  # noqa: BLE001  (bytes that do not decode, a game no longer registered: unusable)
        raise Unfit(f"{type(exc).__name__}: {exc}") from exc
    if decoder is None:
        raise Unfit(f"{game.slug} has no snapshots")
    return match_id, game, msgspec.structs.replace(head, game_state=game_state)
