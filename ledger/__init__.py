"""The ledger: everything that makes a record trustworthy, as pure code an outside auditor imports alone.

The hash chain and commitments (`chain`, `sealing`), the recorded events (`events`), the record formats and who sees
what of them (`records`), the verifiers of match and tournament records (`verify`, `rules_checks`,
`tournament_records`, `replay`), the RFC 9162 Merkle maths (`merkle`) and signed notes (`notes`). It imports `domain/`,
the standard library, msgspec and `cryptography`, never `store/`, `service/`, `api/` or a web or database package
(tests/test_layers.py holds it to that)."""
