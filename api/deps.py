"""What handlers receive by injection."""

from __future__ import annotations

from typing import TypeAlias

from litestar.di import NamedDependency

from service.log.transparency import Transparency
from service.matches.matches import MatchService
from service.outbox.webhooks import Webhooks
from service.reads.audit import Audit
from service.reads.live import Hub, Tails
from service.reads.statistics import Statistics
from service.tournaments.tournaments import TournamentService

Service: TypeAlias = NamedDependency[MatchService]  # the app's one MatchService (see api.app.create_app)
Stats: TypeAlias = NamedDependency[Statistics]  # the read models: statistics, ratings, projection status
Auditor: TypeAlias = NamedDependency[Audit]  # replays, records and their verification
Live: TypeAlias = NamedDependency[Hub]  # signals that wake streams and long polls
Tail: TypeAlias = NamedDependency[Tails]  # the newest events of followed matches, read once per signal
Hooks: TypeAlias = NamedDependency[Webhooks]  # the app's webhook subscriptions
Log: TypeAlias = NamedDependency[Transparency]  # the transparency log: checkpoints and proofs
Tournaments: TypeAlias = NamedDependency[TournamentService]  # tournaments, run on the match service
