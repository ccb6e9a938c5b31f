// The match browser: recent public matches, filtered by game, player and status (the filters live in the URL).
import { api, el, playerName, say } from "/web/static/common.js";

const form = document.getElementById("filters");
const rows = document.querySelector("#matches tbody");
const more = document.getElementById("more");
let cursor = null;

function filters() {
  const query = new URLSearchParams(location.search);
  const wanted = new URLSearchParams();
  for (const name of ["game", "player", "status"]) {
    const value = query.get(name);
    if (value) wanted.set(name, value);
    const field = form.elements[name];
    if (field) field.value = value || "";
  }
  return wanted;
}

const entries = new Map(); // game slug → its catalog entry (its title, its bots' titles)
const title = (slug) => (entries.has(slug) ? entries.get(slug).title : slug);

/** A match as people name it: "Expect Delays: ada vs grace", its result once it is known, and its tournament. */
function row(match) {
  const players = match.seats.map((seat) => playerName(seat.player, entries.get(match.game))).join(" vs ");
  const result = el("td", { class: "result", "data-label": "Result" }, match.status);
  const where = el("td", { class: "tournament", "data-label": "Tournament" });
  const line = el("tr", { "data-match": match.id, "data-game": match.game, "data-status": match.status },
    el("td", { "data-label": "Match" }, el("a", { href: `/web/matches/${encodeURIComponent(match.id)}` },
      `${title(match.game)}: ${players}`)),
    result, where,
    el("td", { "data-label": "Created" }, new Date(match.created_at).toLocaleString()));
  describe(match, result, where);
  return line;
}

/** Fills a row's result (who won, or the team's result) and its tournament, read from the match itself. */
async function describe(match, result, where) {
  const id = encodeURIComponent(match.id);
  try {
    const [detail, place] = await Promise.all([api(`/v1/matches/${id}`), api(`/v1/matches/${id}/tournament`)]);
    const outcome = detail.outcome;
    if (outcome) {
      const name = (seat) => (detail.seats[seat] && detail.seats[seat].player
        && playerName(detail.seats[seat].player, entries.get(match.game))) || `seat ${seat}`;
      const winners = outcome.results.filter((r) => r.winner).map((r) => name(r.seat));
      result.textContent = outcome.cooperative ? (outcome.team_won ? "the team won" : "the team lost")
        : (winners.length ? `${winners.join(" and ")} won` : "no winner") + ` (${outcome.reason.replace(/[-_]/g, " ")})`;
    } else {
      result.textContent = detail.status === "active" ? "in play" : detail.status;
    }
    const tournament = place.tournament;
    where.replaceChildren(tournament ? el("a", { href: `/web/tournaments/${encodeURIComponent(tournament.tournament_id)}` },
      `round ${tournament.round}, table ${tournament.table + 1}`) : "");
  } catch (error) {
    /* the row keeps its status: the listing itself was read */
  }
}

async function load(append) {
  const query = filters();
  query.set("limit", "50");
  if (append && cursor) query.set("cursor", cursor);
  say("Loading…");
  try {
    const page = await api(`/v1/matches?${query}`);
    if (!append) rows.replaceChildren();
    rows.append(...page.items.map(row));
    cursor = page.next_cursor;
    more.hidden = !cursor;
    say(rows.children.length ? `${rows.children.length} ${rows.children.length === 1 ? "match" : "matches"}` : "No match matches these filters.");
  } catch (error) {
    say(`Could not list matches: ${error.message}`, "error");
  }
}

async function games() {
  const catalog = await api("/v1/games");
  const select = document.getElementById("game");
  const nav = document.getElementById("games-nav");
  for (const game of catalog.items) {
    entries.set(game.slug, game);
    select.append(el("option", { value: game.slug }, game.title));
    nav.append(el("a", { href: `/web/games/${encodeURIComponent(game.slug)}` }, game.title));
  }
  filters();
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const query = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (value) query.set(name, String(value).trim());
  history.pushState(null, "", query.size ? `?${query}` : location.pathname);
  load(false);
});
window.addEventListener("popstate", () => load(false));
more.addEventListener("click", () => load(true));
games().then(() => load(false)).catch((error) => say(`Could not load: ${error.message}`, "error"));
