"""Hand-built global logs for projection tests."""

from __future__ import annotations

from typing import Any

from projections.log import LogEntry


class Log:
    """Builds log entries with increasing positions and versions per match."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self.versions: dict[str, int] = {}
        self.commands = 0

    def add(self, match_id: str, type_: str, payload: dict[str, Any], *, command: bool = True,
            same_command: bool = False, at: str = "2026-11-23T10:00:00Z") -> Log:
        """Append one entry: a new command id, the previous one (`same_command`), or none (`command` False)."""
        version = self.versions.get(match_id, 0) + 1
        self.versions[match_id] = version
        self.commands += command and not same_command
        self.entries.append(LogEntry(position=len(self.entries) + 1, match_id=match_id, version=version,
                                     type=type_, payload={"type": type_, **payload},
                                     command_id=f"c{self.commands}" if command else None, recorded_at=at))
        return self

    def started(self, match_id: str, game: str, players: list[str], at: str = "2026-11-23T10:00:00Z") -> Log:
        """`match.started`."""
        return self.add(match_id, "match.started", {"game": game, "players": players, "options": {},
                                                     "rules_version": "1", "seed_commitment": "x"},
                        command=False, at=at)

    def moves(self, match_id: str, count: int) -> Log:
        """`count` game moves (one event each)."""
        for _ in range(count):
            self.add(match_id, "game.moved", {})
        return self

    def ended(self, match_id: str, ranks: list[int], scores: list[float], *, reason: str = "finished",
              cooperative: bool = False, team_won: bool | None = None, at: str = "2026-11-23T10:30:00Z") -> Log:
        """`match.ended` with these ranks and scores per seat."""
        results = [{"seat": s, "rank": r, "score": scores[s],
                    "winner": bool(team_won) if cooperative else r == 1} for s, r in enumerate(ranks)]
        return self.add(match_id, "match.ended", {"reason": reason, "results": results, "cooperative": cooperative,
                                                   "team_won": team_won}, command=False, at=at)
