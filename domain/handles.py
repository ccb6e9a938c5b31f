"""Who a player handle names: "Ada", "ada" and "ＡＤＡ" are one player.

A record keeps a handle exactly as it was written (its hash covers it, and old records verify as written); only
statistics, ratings and player pages fold it into an identity, and show the spelling they saw first.
"""

from __future__ import annotations

import unicodedata


def identity(handle: str) -> str:
    """The player a handle names: NFKC-normalised, case-folded, normalised again (folding can denormalise)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", handle).casefold())
