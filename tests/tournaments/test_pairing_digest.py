"""Pairings are part of every tournament record: a verifier re-derives them, so the pairing code may never change
what it derives for an old record. This digest of the pairings and standings of fixed tournaments fails when any
format's pairing, scoring or tie-break changes; a deliberate change needs a pairing edition recorded in
`tournament.created` (domain/tournaments/README.md, "Changing a pairing rule"), never an edited digest alone."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from domain.rng import Rng
from domain.tournaments.events import RoundEnded, RoundPaired, TournamentFinished, TournamentStarted
from tests.tournaments.play import Run, create, play_out, teams

DIGESTS = {
    "round-robin": "43ffb07e123d5cefbaeea45264194c4fc2dd9e2b6cadb43546092a1591c360fa",
    "swiss": "a2800e16250e79ba85077545af244a49e553e05c6a65a2f3e621b9bbc52cf7ed",
    "knockout": "dcfe26de6bf7bff78acb5b999b113f3320433fc6102a1acd8c410f3795340057",
    "mass-transit": "087cf5c4d69e908eef3679b0b236e3dc34fd80fb1abe2907ddc110f6d706765f",
}


def derived(format: str) -> bytes:
    """The derived events (order, pairings, standings) of fixed tournaments of `format` at 2..5 seats."""
    out = b""
    for seats in (2, 3, 4, 5):
        for n in (seats, seats + 3, 11):
            run = Run(f"digest-{format}-{seats}-{n}")
            cooperative = format == "mass-transit"
            create(run, format="swiss" if cooperative else format, entrants=[f"p{i}" for i in range(n)],
                   seats=2 if cooperative else seats, game="mass-transit" if cooperative else None,
                   **({"rounds": 4} if format in ("swiss", "mass-transit") else {}),
                   **({"table_size": seats} if cooperative else {}))
            play_out(run, Rng.derive(run.seed, 0), **({"results": teams} if cooperative else {}),
                     withdraw={2: n - 1})
            for event in run.events:
                if isinstance(event, TournamentStarted | RoundPaired | RoundEnded | TournamentFinished):
                    out += msgspec.json.encode(event) + b"\n"
    return out


@pytest.mark.parametrize("format", sorted(DIGESTS))
def test_pairings_of_fixed_tournaments_never_change(format: str) -> None:
    """Same seeds and results, same pairings and standings, byte for byte."""
    assert hashlib.sha256(derived(format)).hexdigest() == DIGESTS[format]
