"""Record matches through a running Turnstile release's own HTTP API (the editions corpus, issue 26 item 4).

The release under test is a server started from that release's own worktree; this script only speaks HTTP to it,
as a user would: it creates matches with server seeds (never a caller `seed`), plays uniformly random legal moves
(GET legal moves with the seat token of a seat to move, POST one of them), and exports each record through the
release's export endpoint. It is written to work against every release since c78fb15 and adapts to what a
release offers (bots, open seats, `client_entropy`, the options a game accepts), skipping what it does not.

    uv run python record_release.py --url http://127.0.0.1:8011 --app-key app_... --out DIR corpus
    uv run python record_release.py --url http://127.0.0.1:8011 --app-key app_... --out DIR \
        drill --drill-json DIR/c78fb15.json

`corpus` writes DIR/<game>-<n>.ndjson for the plan below plus DIR/manifest.json (what each file is, and the
release's own verdict on it from POST /v1/verifications). `drill` creates one match per game, plays a few
moves and writes the ids, seat tokens and versions to --drill-json so a later release can continue them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

GAMES = ("expect-delays", "metro-x", "terminus", "mass-transit", "touched-on")


@dataclass
class Plan:
    """One match to record."""

    game: str
    seats: list[dict[str, Any]]
    options: dict[str, Any] = field(default_factory=dict)
    finish: bool = True  # play to the end (resigning at the cap), or stop after `stop_after` moves
    stop_after: int = 10
    cap: int = 1500  # moves by this script; past it the seat to move resigns until the match ends
    resign_after: int | None = None  # a seat to move resigns after this many moves (the resignation record)
    client_entropy: str | None = None
    match_options: dict[str, Any] = field(default_factory=dict)  # options of every game (deadlines), if offered
    draw_after: int | None = None  # the seat to move offers a draw after this many moves, the others accept
    note: str = ""


def p(name: str) -> dict[str, Any]:
    return {"player": name}


BOT = {"bot": "random"}
OPEN = {"open": True}
PLAYERS = ["ada", "grace", "edsger", "barbara", "alan", "margaret"]


def corpus_plan() -> list[Plan]:
    """What every release records: finished matches at several seat counts/options, one unfinished, and where the
    release has them a bot seat, an open seat joined, a resignation and client entropy."""
    two, three = [p("ada"), p("grace")], [p("ada"), p("grace"), p("edsger")]
    return [
        Plan("expect-delays", two, {"max_turns": 40}, note="2 seats, max_turns 40"),
        Plan("expect-delays", two, {}, note="2 seats, default options (max_turns 300)"),
        Plan("expect-delays", two, {}, finish=False, stop_after=10, note="unfinished: 10 moves"),
        Plan("expect-delays", two, {"max_turns": 60}, resign_after=25, note="seat to move resigns after 25 moves"),
        Plan("expect-delays", [p("ada"), BOT], {"max_turns": 40}, note="bot seat"),
        Plan("expect-delays", [p("ada"), OPEN], {"max_turns": 40}, client_entropy="ada rolled 3 5 6",
             note="open seat joined, client_entropy"),
        Plan("metro-x", [p("ada")], {}, note="1 seat, default options"),
        Plan("metro-x", two, {}, note="2 seats, default options"),
        Plan("metro-x", three, {"map": "tube-town"}, note="3 seats, map tube-town"),
        Plan("metro-x", two, {}, finish=False, stop_after=10, note="unfinished: 10 moves"),
        Plan("metro-x", [p("ada"), BOT], {}, note="bot seat"),
        Plan("metro-x", [p("ada"), OPEN], {}, client_entropy="grace said pineapple",
             note="open seat joined, client_entropy"),
        Plan("terminus", two, {}, note="2 seats, default options"),
        Plan("terminus", two, {"automa": True}, note="2 seats, automa true"),
        Plan("terminus", two, {"automa": False}, note="2 seats, automa false"),
        Plan("terminus", three, {}, note="3 seats, default options"),
        Plan("terminus", two, {}, finish=False, stop_after=10, note="unfinished: 10 moves"),
        Plan("terminus", [p("ada"), BOT], {}, note="bot seat"),
        Plan("terminus", [p("ada"), OPEN], {}, client_entropy="edsger tossed heads", resign_after=30,
             note="open seat joined, client_entropy, seat to move resigns after 30 moves"),
        Plan("mass-transit", two, {}, note="2 seats, default options"),
        Plan("mass-transit", three, {"first_seat": 1}, note="3 seats, first_seat 1"),
        Plan("mass-transit", [p("ada")], {}, note="1 seat"),
        Plan("mass-transit", two, {}, finish=False, stop_after=10, note="unfinished: 10 moves"),
        Plan("mass-transit", [p("ada"), BOT], {}, note="bot seat"),
        Plan("mass-transit", [p("ada"), OPEN], {}, client_entropy="barbara drew the 7",
             note="open seat joined, client_entropy"),
        Plan("touched-on", two, {"max_journeys": 8}, note="2 seats, max_journeys 8"),
        Plan("touched-on", three, {}, note="3 seats, default options"),
        Plan("touched-on", [p("ada"), p("grace"), p("edsger"), p("barbara")], {"max_journeys": 6},
             note="4 seats, max_journeys 6"),
        Plan("touched-on", two, {}, finish=False, stop_after=10, note="unfinished: 10 moves"),
        Plan("touched-on", [p("ada"), BOT, BOT], {"max_journeys": 8}, note="bot seats"),
        Plan("touched-on", [p("ada"), OPEN, p("edsger")], {"max_journeys": 8}, client_entropy="alan: 42",
             resign_after=40, note="open seat joined, client_entropy, seat to move resigns after 40 moves"),
        # Resignations with every seat a player (so releases without open seats record one too).
        Plan("terminus", three, {}, resign_after=20, note="3 seats, seat to move resigns after 20 moves"),
        Plan("touched-on", three, {"max_journeys": 8}, resign_after=30,
             note="3 seats, max_journeys 8, seat to move resigns after 30 moves"),
        # Options every game takes and agreed draws, where the release has them.
        Plan("expect-delays", two, {"max_turns": 40}, match_options={"move_deadline": 3600, "abandon_after": 604800},
             note="2 seats, max_turns 40, move_deadline 3600, abandon_after 604800"),
        Plan("metro-x", two, {}, match_options={"move_deadline": 600}, note="2 seats, move_deadline 600"),
        Plan("terminus", two, {}, match_options={"move_deadline": 86400}, draw_after=10,
             note="2 seats, move_deadline 86400, a draw offered after 10 moves and accepted"),
        Plan("mass-transit", [p("ada"), {"bot": "greedy"}, BOT], {}, note="greedy and random bot seats"),
        Plan("touched-on", three, {"max_journeys": 8}, match_options={"move_deadline": 600, "abandon_after": 86400},
             note="3 seats, max_journeys 8, move_deadline 600, abandon_after 86400"),
    ]


def drill_plan() -> list[Plan]:
    """The upgrade drill: one match of each game with default options, a few moves (Terminus: 2 seats, six)."""
    two = [p("ada"), p("grace")]
    return [Plan(game, two, {}, finish=False, stop_after=6, note="drill: 2 seats, default options, 6 moves")
            for game in GAMES]


class Release:
    """A running release, spoken to over HTTP only."""

    def __init__(self, url: str, app_key: str | None, rng: random.Random) -> None:
        self.http = httpx.Client(base_url=url, timeout=120.0)
        self.app_key = app_key
        self.rng = rng
        self.catalog: dict[str, dict[str, Any]] = {}
        for game in GAMES:
            answer = self.http.get(f"/v1/games/{game}")
            answer.raise_for_status()
            self.catalog[game] = answer.json()

    def auth(self, token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def options_for(self, game: str, options: dict[str, Any]) -> dict[str, Any] | None:
        """The options the release's catalog names (None when one asked for is unknown to it)."""
        info = self.catalog[game]
        schema = info.get("options_schema") or info.get("options") or {}
        props = schema.get("properties") if isinstance(schema, dict) else None
        if props is None:
            return options
        if any(key not in props for key in options):
            return None
        return options

    def create(self, plan: Plan) -> dict[str, Any] | None:
        """Create the match (server seed); None when the release has no such feature."""
        info = self.catalog[plan.game]
        if any("bot" in seat for seat in plan.seats) and "bots" not in info:
            return None
        options = self.options_for(plan.game, plan.options)
        if options is None:
            return None
        body: dict[str, Any] = {"game": plan.game, "seats": plan.seats}
        if options or plan.match_options:
            body["options"] = {**options, **plan.match_options}
        if plan.client_entropy is not None:
            body["client_entropy"] = plan.client_entropy
        answer = self.http.post("/v1/matches", json=body, headers=self.auth(self.app_key))
        if answer.status_code in (400, 422) and (plan.client_entropy is not None or plan.match_options or
                                                  any("open" in s or "bot" in s for s in plan.seats)):
            print(f"  release refuses {body}: {answer.status_code} {answer.text[:200]}", file=sys.stderr)
            return None
        if answer.status_code != 201:
            raise RuntimeError(f"create {body}: {answer.status_code} {answer.text[:500]}")
        return answer.json()

    def join_open_seats(self, created: dict[str, Any], tokens: dict[int, str]) -> None:
        for seat in created["seats"]:
            code = seat.get("join_code")
            if code and seat.get("token") is None:
                name = PLAYERS[(seat["seat"] + 1) % len(PLAYERS)]
                answer = self.http.post(f"/v1/matches/{created['id']}/join", json={"code": code, "player": name})
                if answer.status_code not in (200, 201):
                    raise RuntimeError(f"join: {answer.status_code} {answer.text[:300]}")
                tokens[answer.json()["seat"]] = answer.json()["token"]

    def detail(self, match: str) -> dict[str, Any]:
        answer = self.http.get(f"/v1/matches/{match}")
        answer.raise_for_status()
        return answer.json()

    def move(self, match: str, token: str, move: dict[str, Any], version: int | None) -> httpx.Response:
        body: dict[str, Any] = {"move": move}
        if version is not None:
            body["expected_version"] = version
        return self.http.post(f"/v1/matches/{match}/moves", json=body, headers=self.auth(token))

    def play(self, plan: Plan, created: dict[str, Any], tokens: dict[int, str]) -> dict[str, Any]:
        """Random legal moves until the end (or the stop), resigning at the cap. Returns what happened."""
        match = created["id"]
        moves, resigned, refused, drawn = 0, [], 0, False
        limit = plan.cap if plan.finish else plan.stop_after
        while True:
            detail = self.detail(match)
            if detail["status"] != "active" or moves >= limit and not plan.finish:
                break
            mine = [seat for seat in detail["to_move"] if seat in tokens]
            if not mine:
                if detail["to_move"] and refused < 200:
                    refused += 1
                    time.sleep(0.05)  # a bot is still to move
                    continue
                raise RuntimeError(f"{match}: active, nobody to move: {detail}")
            seat = self.rng.choice(mine)
            token = tokens[seat]
            resign = moves >= limit or (plan.resign_after is not None and moves >= plan.resign_after and not resigned)
            if resign:
                answer = self.move(match, token, {"type": "match.resign"}, None)
                if answer.status_code != 201:
                    raise RuntimeError(f"resign: {answer.status_code} {answer.text[:300]}")
                resigned.append(seat)
                tokens.pop(seat)
                continue
            if plan.draw_after is not None and moves >= plan.draw_after and not drawn:
                drawn = True
                offer = self.move(match, token, {"type": "match.offer-draw"}, None)
                if offer.status_code == 201:
                    for other, other_token in tokens.items():
                        if other != seat:
                            accept = self.move(match, other_token, {"type": "match.accept-draw"}, None)
                            if accept.status_code != 201:
                                raise RuntimeError(f"accept-draw: {accept.status_code} {accept.text[:300]}")
                    continue
                print(f"  draw not offered: {offer.status_code} {offer.text[:200]}", file=sys.stderr)
            legal = self.http.get(f"/v1/matches/{match}/legal-moves", headers=self.auth(token))
            if legal.status_code != 200:
                refused += 1
                if refused > 50:
                    raise RuntimeError(f"legal-moves: {legal.status_code} {legal.text[:300]}")
                continue
            listed = legal.json()
            if not listed["moves"]:
                raise RuntimeError(f"{match}: seat {seat} to move without a legal move")
            answer = self.move(match, token, self.rng.choice(listed["moves"]), listed["version"])
            if answer.status_code == 409:
                continue
            if answer.status_code != 201:
                raise RuntimeError(f"move: {answer.status_code} {answer.text[:300]}")
            moves += 1
        detail = self.detail(match)
        return {"moves_played": moves, "resigned_seats": resigned, "status": detail["status"],
                "version": detail["version"], "rules_version": detail.get("rules_version"),
                "outcome": detail.get("outcome"), "options": detail.get("options")}

    def export(self, match: str) -> bytes:
        """The record as a spectator gets it (everything once the match has ended)."""
        answer = self.http.get(f"/v1/matches/{match}/export")
        answer.raise_for_status()
        return answer.content

    def verify(self, record: bytes) -> dict[str, Any]:
        answer = self.http.post("/v1/verifications", json={"record": record.decode()})
        return answer.json() if answer.status_code == 200 else {"http_status": answer.status_code,
                                                                 "body": answer.text[:500]}


def start(release: Release, plan: Plan) -> tuple[dict[str, Any], dict[int, str]] | None:
    created = release.create(plan)
    if created is None:
        return None
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat.get("token")}
    release.join_open_seats(created, tokens)
    return created, tokens


def run_corpus(release: Release, out: Path, only: set[str] | None) -> int:
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / "manifest.json"
    manifest: list[dict[str, Any]] = json.loads(manifest_path.read_text()) if manifest_path.exists() else []
    done = {entry["file"] for entry in manifest}
    counters: dict[str, int] = {}
    failures = 0
    for plan in corpus_plan():
        counters[plan.game] = counters.get(plan.game, 0) + 1
        if only and plan.game not in only:
            continue
        name = f"{plan.game}-{counters[plan.game]}.ndjson"
        if name in done:
            continue
        began = time.monotonic()
        started = start(release, plan)
        if started is None:
            print(f"{name}: skipped ({plan.note}: not offered by this release)", flush=True)
            continue
        created, tokens = started
        played = release.play(plan, created, tokens)
        record = release.export(created["id"])
        (out / name).write_bytes(record)
        verdict = release.verify(record)
        entry = {"file": name, "game": plan.game, "match": created["id"], "note": plan.note,
                 "seats": [{k: v for k, v in s.items() if k not in ("token", "join_code")} for s in created["seats"]],
                 "requested_options": {**plan.options, **plan.match_options}, "client_entropy": plan.client_entropy,
                 "draw_after": plan.draw_after, "resign_after": plan.resign_after,
                 "finished": played["status"] != "active", **played,
                 "exported_as": "spectator (no Authorization)", "verdict_by_own_release": verdict}
        manifest.append(entry)
        manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
        code = verdict.get("verdict") or verdict.get("code") or verdict.get("status") or verdict
        print(f"{name}: {plan.note}: {played['status']} v{played['version']} after {played['moves_played']} moves, "
              f"resigned {played['resigned_seats']}, verdict {code}, {time.monotonic() - began:.1f}s", flush=True)
        if played["status"] != "active" and not verdict.get("ok", str(code).startswith("verified")):
            failures += 1
    return failures


def run_drill(release: Release, path: Path) -> int:
    matches = []
    for plan in drill_plan():
        started = start(release, plan)
        assert started is not None
        created, tokens = started
        played = release.play(plan, created, dict(tokens))
        matches.append({"id": created["id"], "game": plan.game, "options": played["options"],
                        "rules_version": played["rules_version"], "version": played["version"],
                        "moves_played": played["moves_played"], "status": played["status"],
                        "seed_commitment": created.get("seed_commitment"),
                        "seats": [{"seat": s["seat"], "player": s["player"], "token": tokens[s["seat"]]}
                                  for s in created["seats"]]})
        print(f"drill {plan.game}: {created['id']} v{played['version']} after {played['moves_played']} moves",
              flush=True)
    path.write_text(json.dumps({"app_key": release.app_key, "matches": matches}, indent=1) + "\n")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--app-key", default=None)
    parser.add_argument("--out", type=Path, default=Path("."))
    parser.add_argument("--rng-seed", type=int, default=26, help="the script's choice of moves (not the match seed)")
    parser.add_argument("--game", action="append", help="only these games (corpus)")
    parser.add_argument("--drill-json", type=Path)
    parser.add_argument("mode", choices=["corpus", "drill"])
    args = parser.parse_args()
    release = Release(args.url, args.app_key, random.Random(args.rng_seed))
    if args.mode == "drill":
        return run_drill(release, args.drill_json)
    return 1 if run_corpus(release, args.out, set(args.game) if args.game else None) else 0


if __name__ == "__main__":
    raise SystemExit(main())
