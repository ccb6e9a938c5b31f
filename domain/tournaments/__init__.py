"""Tournaments: a stream of events like a match, whose pairings are pure functions of the record, the format and
the seed (DESIGN.md, "Tournaments"; issue 30). Commands in (`commands`), events out (`events`), a fold (`state`),
`decide`, and `rederive` for the verifier. The definitions are in README.md beside this file."""

from domain.tournaments.decide import decide, pairing_round
from domain.tournaments.standings import standings
from domain.tournaments.state import TournamentState, evolve, fold
from domain.tournaments.verify import Mismatch, match_seed, played_seed, rederive, seed_for

__all__ = ["Mismatch", "TournamentState", "decide", "evolve", "fold", "match_seed", "pairing_round", "played_seed",
           "rederive", "seed_for", "standings"]
