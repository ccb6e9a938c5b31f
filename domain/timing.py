"""Match options every game takes, kept by the match wrapper: `move_deadline` and `abandon_after` (seconds), and
the deal's `entropy` (`"seats"`: each seat adds entropy before the deal) with its `entropy_deadline` (seconds).

They ride in the match's options object beside the game's own options, so a match records them in
`match.started` (and a rematch copies them); the game never sees them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

import msgspec

from domain.engine import Refusal

Seconds = Annotated[int, msgspec.Meta(ge=1, le=366 * 86_400)]
ENTROPY_DEADLINE = 300  # seconds the seats have for their entropy when the match does not say


class MatchOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """`move_deadline`: seconds a seat has for each turn once put to move; `abandon_after`: seconds with no move
    after which the match is closed as abandoned. None: no limit. `entropy: "seats"`: the deal waits for each seat's
    entropy, at most `entropy_deadline` seconds from the start (recorded, 300 when not given)."""

    move_deadline: Annotated[Seconds | None, msgspec.Meta(
        description="Seconds a seat has for each turn once put to move (the match's option, beside the game's)")] = None
    abandon_after: Annotated[Seconds | None, msgspec.Meta(
        description="Seconds with no move after which the match is closed as abandoned")] = None
    entropy: Annotated[Literal["seats"] | None, msgspec.Meta(
        description="\"seats\": the server commits to its secret part first, each seat then adds its entropy "
                    "(POST /v1/matches/{id}/entropy) and the deal waits for all of them (status `dealing`)")] = None
    entropy_deadline: Annotated[Seconds | None, msgspec.Meta(
        description="With `entropy: \"seats\"`: seconds from the start after which the seats still silent are "
                    "recorded absent and the match is dealt without them (recorded as 300 when not given)")] = None


NAMES = tuple(MatchOptions.__struct_fields__)


def split(raw: dict[str, Any] | None) -> tuple[dict[str, Any], MatchOptions]:
    """The game's own options and the match's, from one options object (`bad-options` when the match's are bad)."""
    raw = raw or {}
    ours = {k: v for k, v in raw.items() if k in NAMES}
    try:
        # Strict, as the game's options: "60" is not a number of seconds.
        decoded = msgspec.convert(ours, MatchOptions, strict=True)
    except msgspec.ValidationError as exc:
        raise Refusal("bad-options", f"match options: {exc}") from exc
    if decoded.entropy_deadline is not None and decoded.entropy is None:
        raise Refusal("bad-options", "match options: `entropy_deadline` is for `entropy: \"seats\"` only")
    if decoded.entropy is not None and decoded.entropy_deadline is None:
        decoded = msgspec.structs.replace(decoded, entropy_deadline=ENTROPY_DEADLINE)
    return {k: v for k, v in raw.items() if k not in NAMES}, decoded


def builtins(options: MatchOptions) -> dict[str, Any]:
    """The match options as they are recorded (only those set)."""
    return msgspec.to_builtins(options)  # type: ignore[no-any-return]


def put_to_move(since: tuple[int, ...], to_move: Sequence[int], seats: int, version: int) -> tuple[int, ...]:
    """Per seat, the version that put it to move (0: not to move): a seat still to move keeps its first version."""
    now = set(to_move)
    old = since or (0,) * seats
    return tuple((old[s] or version) if s in now else 0 for s in range(seats))
