"""Screenshots of each game's match page and of a tournament's, from a real server, for the README (so they stay
current).

    uv run python bench/screenshots.py            # writes docs/screenshots/<game>.png (needs /usr/bin/chromium)
    uv run python bench/screenshots.py --out DIR  # elsewhere

Plays one seeded random match of each game into a fresh SQLite file, starts `turnstile serve` over it, and opens each
match in headless Chromium at 1440 px, part-way through, as seat 0 (so its hand shows), the log telling each move;
then Expect Delays on a phone, 420 px (docs/screenshots/phone.png), and a finished Swiss tournament of bots
(docs/screenshots/tournament.png).
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from domain.catalog import GAMES
from domain.tournaments.commands import CreateTournament, EntryOf
from service.matches.matches import MatchService
from service.matches.simulate import play_random_moves
from service.tournaments.tournaments import TournamentService
from store.factory import open_store

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("TURNSTILE_CHROMIUM", "/usr/bin/chromium")
NAMES = ("Ada", "Grace")
MOVES = {"expect-delays": 30, "metro-x": 14, "terminus": 60, "mass-transit": 12, "touched-on": 16}
WIDTH, HEIGHT = 1440, 700
# Dense maps make big PNGs: Metro X is shot in a narrower window, so each file stays under 150 KB.
VIEWPORTS = {"metro-x": (1200, 660)}


def fill(url: str) -> dict[str, tuple[str, str]]:
    """One match of each game, played part-way: game slug -> (match id, seat 0's token)."""
    store = open_store(url)
    try:
        service, made = MatchService(store), {}
        for game in GAMES:
            options = {"max_turns": 40} if game.slug == "expect-delays" else None
            created = service.create(game.slug, list(NAMES), options, seed=f"screenshot-{game.slug}")
            play_random_moves(service, created.record.id, random.Random(game.slug), MOVES.get(game.slug, 20))
            made[game.slug] = (created.record.id, str(created.tokens[0]))
        tournaments = TournamentService(store, service)
        bots = tuple(EntryOf(bot="random", name=name) for name in ("Ada", "Grace", "Hedy", "Lin", "Mae", "Nell"))
        cup = tournaments.create("screenshots", CreateTournament(game="metro-x", format="swiss", entrants=bots,
                                                                 seats=2, rounds=3, seed_commitment=""))
        made["tournament"] = (tournaments.start(cup.loaded.record.id, "screenshots").record.id, "")
        return made
    finally:
        store.close()


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(db: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`turnstile serve` over `db`, waited for until ready."""
    port = free_port()
    env = {**os.environ, "TURNSTILE_DATABASE_URL": f"sqlite:///{db}", "PYTHONPATH": str(ROOT)}
    env.pop("TURNSTILE_REDIS_URL", None)
    with log.open("ab") as out:
        server = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                                  stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return server, base
        except httpx.HTTPError:
            pass
        if server.poll() is not None:
            break
        time.sleep(0.3)
    server.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()[-3000:]}")


def shoot(base: str, made: dict[str, tuple[str, str]], out: Path) -> None:
    """A viewport-sized PNG of each match page, as seat 0."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            shots = [(slug, f"{slug}.png", VIEWPORTS.get(slug, (WIDTH, HEIGHT)))
                     for slug in made if slug != "tournament"]
            shots.append(("expect-delays", "phone.png", (420, 900)))  # a phone: one column, the seat's moves below
            for slug, name, (width, height) in shots:
                match_id, token = made[slug]
                context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True,
                                              is_mobile=width < 700)
                page = context.new_page()
                page.goto(f"{base}/web/")
                page.evaluate("([id, token]) => sessionStorage.setItem(`turnstile.seat-token.${id}`, token)",
                              [match_id, token])
                page.goto(f"{base}/web/matches/{match_id}")
                page.wait_for_selector("#table svg")
                page.wait_for_function("document.querySelector('#badge').dataset.verdict === 'ok'")
                if width < 700:  # a phone's page starts with the title and the steps: the shot starts at the table
                    page.evaluate("document.querySelector('#table').scrollIntoView()")
                path = out / name
                page.screenshot(path=str(path))
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                print(f"{shown}: {path.stat().st_size // 1024} KB")
                context.close()
            context = browser.new_context(viewport={"width": WIDTH, "height": 900})
            page = context.new_page()
            page.goto(f"{base}/web/tournaments/{made['tournament'][0]}")
            page.wait_for_selector("section.round")
            page.screenshot(path=str(out / "tournament.png"))
            print(f"tournament.png: {(out / 'tournament.png').stat().st_size // 1024} KB")
            context.close()
        finally:
            browser.close()


def main() -> None:
    """Fill, serve, shoot, stop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "screenshots.db"
        made = fill(f"sqlite:///{db}")
        server, base = serve(db, Path(folder) / "serve.log")
        try:
            shoot(base, made, args.out)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
