"""Print the README's per-directory file tables from each directory's manifest.json (written by record_release.py).

    python tests/corpus/editions/readme_tables.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def seats(entry: dict) -> str:
    return ", ".join(s.get("player") or "(open seat, joined)" for s in entry["seats"])


def main() -> None:
    order = ["c78fb15", "78ca8d7", "8fcb931", "c369980"]  # by commit date; others after them
    manifests = sorted(HERE.glob("*/manifest.json"),
                       key=lambda m: (order.index(m.parent.name) if m.parent.name in order else len(order), m))
    for manifest in manifests:
        print(f"#### `{manifest.parent.name}/`\n")
        print("| file | match | seats | options asked | state | moves / events | resigned | own verdict |")
        print("|---|---|---|---|---|---|---|---|")
        key = {"expect-delays": 0, "metro-x": 1, "terminus": 2, "mass-transit": 3, "touched-on": 4}
        entries = json.loads(manifest.read_text())
        entries.sort(key=lambda e: (key[e["game"]], int(e["file"].rsplit("-", 1)[1].split(".")[0])))
        for e in entries:
            options = json.dumps(e["requested_options"]) if e["requested_options"] else "default"
            if e.get("client_entropy"):
                options += f"; client_entropy {json.dumps(e['client_entropy'])}"
            outcome = e.get("outcome") or {}
            state = e["status"] + (f" ({outcome.get('reason')})" if outcome.get("reason") else "")
            verdict = e["verdict_by_own_release"].get("code", "?")
            print(f"| `{e['file']}` | {e['note']} | {seats(e)} | {options} | {state} | "
                  f"{e['moves_played']} / {e['version']} | {e['resigned_seats'] or ''} | {verdict} |")
        print()


if __name__ == "__main__":
    main()
