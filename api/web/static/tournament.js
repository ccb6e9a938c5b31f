// One tournament: standings with the format's tie-breaks, every round's tables with their results and matches
// (each a link to its replay). While it is being played the page reads it again every few seconds: results and new
// rounds appear as they land.
import { api, el, playerName, say } from "/web/static/common.js";

const id = decodeURIComponent(location.pathname.split("/").pop());
const REFRESH_MS = 2000;
const ORDINAL = ["th", "st", "nd", "rd"];
const FORMATS = { "round-robin": "Round robin", swiss: "Swiss", knockout: "Knockout" };
const TIEBREAKS = { buchholz: "Buchholz", "sonneborn-berger": "Sonneborn-Berger", "head-to-head": "Head-to-head",
  "round-reached": "Round reached", "last-table-place": "Place at last table" };
let games = {}; // game slug → its catalog entry (its title, its bots' titles)

function ordinal(n) {
  const tens = n % 100;
  return `${n}${tens > 10 && tens < 14 ? "th" : ORDINAL[n % 10] || "th"}`;
}

function number(x) {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}

function who(t, index) {
  const p = t.players[index];
  if (!p) return `entrant ${index}`;
  if (p.open) return "(open place)";
  const name = p.bot ? playerName(`bot:${p.bot}:${p.name}`, games[t.game]) : p.handle;
  return p.members && p.members.length ? `${name}: ${p.members.join(", ")}` : name;
}

function outcome(result) {
  if (result.forfeit) return `forfeit (${result.forfeit})`;
  if (result.won !== undefined && result.won !== null) {
    return `${result.won ? "won" : "lost"}, ${number(result.score || 0)} home in ${result.turns} turns`;
  }
  return `${ordinal(result.rank)} place, score ${number(result.score || 0)}`;
}

function table(t, paired, byEntrant) {
  const results = new Map(paired.results.map((r) => [r.entrant, r]));
  return el("tr", { "data-table": paired.table, "data-done": paired.done ? "yes" : "no" },
    el("td", {}, `Table ${paired.table + 1}`),
    el("td", {}, el("ol", { class: "seats" }, paired.players.map((e) => el("li", { "data-entrant": e },
      byEntrant(e), results.has(e) ? ` · ${outcome(results.get(e))}` : "")))),
    el("td", {}, paired.done ? "finished" : "playing"),
    el("td", {}, paired.matches.map((m, i) => el("a", { href: `/web/matches/${encodeURIComponent(m)}`,
      class: "replay" }, paired.matches.length > 1 ? `replay ${i + 1}` : "replay"))));
}

function round(t, paired) {
  const byEntrant = (e) => who(t, e);
  return el("section", { class: "round", "data-round": paired.round },
    el("h2", {}, `Round ${paired.round}${paired.standings ? "" : " (being played)"}`),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Table"), el("th", {}, "Seats, in order"),
      el("th", {}, "Status"), el("th", {}, "Match"))),
      el("tbody", {}, paired.tables.map((p) => table(t, p, byEntrant)))),
    paired.byes.length ? el("p", { class: "byes" }, `Bye: ${paired.byes.map(byEntrant).join(", ")}`) : null);
}

function render(t) {
  const game = games[t.game] ? games[t.game].title : t.game;
  document.title = `Turnstile · ${game} tournament`;
  document.body.dataset.status = t.status;
  document.body.dataset.version = t.version;
  document.getElementById("title").textContent =
    `${game}: ${FORMATS[t.format] || t.format} tournament`;
  const played = t.rounds.length;
  const where = t.status === "finished" ? `finished after ${played} rounds`
    : t.status === "open" ? "entries open" : `round ${played} of ${t.rounds_planned} being played`;
  document.getElementById("summary").textContent =
    `${where} · ${t.players.length} entrants · ${t.seats} seats a match · rules edition ${t.rules_version}`;
  const heads = document.querySelectorAll("#standings th.tiebreak");
  t.tiebreaks.forEach((name, i) => {
    if (!heads[i]) return;
    heads[i].textContent = TIEBREAKS[name] || name;
    heads[i].dataset.name = name;
  });
  document.querySelector("#standings tbody").replaceChildren(...t.standings.map((s) => el("tr",
    { "data-entrant": s.entrant, "data-place": s.place },
    el("td", {}, s.place), el("td", {}, who(t, s.entrant), s.withdrawn ? " (withdrawn)" : ""),
    el("td", {}, number(s.points)), ...t.tiebreaks.map((name) => el("td", {}, number(s.tiebreaks[name] ?? 0))))));
  document.getElementById("rounds").replaceChildren(...t.rounds.slice().reverse().map((p) => round(t, p)));
  const mixed = t.entropy ? ` Played from it mixed with the organiser's entropy "${t.entropy}", given at the start.` : "";
  document.getElementById("seed").textContent = (t.seed
    ? `Seed ${t.seed} (its SHA-256 is the commitment ${t.seed_commitment}, published when the tournament was created).`
    : `Seed commitment ${t.seed_commitment}: the seed is revealed when the tournament finishes.`) + mixed;
}

async function load() {
  try {
    const t = await api(`/v1/tournaments/${encodeURIComponent(id)}`);
    render(t);
    say(t.status === "finished" ? "" : "Live: results appear as they land.");
    if (t.status !== "finished") setTimeout(load, REFRESH_MS);
  } catch (error) {
    say(error.status === 404 ? "No such tournament." : `Could not load the tournament: ${error.message}`, "error");
    if (error.status !== 404) setTimeout(load, REFRESH_MS * 5);
  }
}

api("/v1/games").then((catalog) => { games = Object.fromEntries(catalog.items.map((g) => [g.slug, g])); })
  .catch(() => {}).finally(load);
