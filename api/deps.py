"""What handlers receive by injection."""

from __future__ import annotations

from typing import TypeAlias

from litestar.di import NamedDependency

from service.matches import MatchService

Service: TypeAlias = NamedDependency[MatchService]  # the app's one MatchService (see api.app.create_app)
