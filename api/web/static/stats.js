// A game's or a player's statistics: tables from the /v1 statistics API, charts drawn by the server as SVG.
import { api, el, say } from "/web/static/common.js";

const [, , kind, rawName] = location.pathname.split("/");
const name = decodeURIComponent(rawName || "");
const $ = (id) => document.getElementById(id);
const fixed = (value) => (value === null || value === undefined ? "-" : Number(value).toFixed(2));

function chart(path, alt) {
  return el("figure", {}, el("img", { src: path, alt, loading: "lazy" }));
}

// The leaderboard of the period picked: all time by rating, or the last 7 or 30 days by the rating gained in them.
async function leaderboard(entry) {
  const period = $("period").value;
  const board = await api(`/v1/leaderboards/${encodeURIComponent(name)}?min_matches=1&limit=50&period=${period}`);
  if ($("period").value !== period) return; // a newer pick is on its way
  document.querySelector("#leaderboard tbody").replaceChildren(...board.items.map((item, index) =>
    el("tr", { "data-player": item.player },
      el("td", {}, index + 1),
      el("td", {}, el("a", { href: `/web/players/${encodeURIComponent(item.player)}` }, item.player)),
      el("td", {}, fixed(item.ordinal)), el("td", {}, fixed(item.mu)), el("td", {}, fixed(item.sigma)),
      el("td", {}, item.matches), el("td", {}, fixed(item.gained)))));
  // Why a leaderboard is empty: a cooperative game has no one to rank (its seats win or lose together).
  const why = entry && entry.cooperative ? `${entry.title} is cooperative: the players win or lose together, so no ` +
    "one is rated and the leaderboard stays empty; the team's results are charted below."
    : period === "all" ? "No rated match yet: players appear here after their first finished match."
      : "No rated match in this period.";
  if (!board.items.length) {
    document.querySelector("#leaderboard tbody").replaceChildren(el("tr", {}, el("td", { colspan: 7, id: "empty-why" }, why)));
  }
  $("leaderboard-position").textContent = `Leaderboard computed up to log position ${board.position}.`;
  $("leaderboard").dataset.period = period;
}

async function game() {
  $("title").textContent = `${name}: statistics`;
  $("matches-link").href = `/web/?game=${encodeURIComponent(name)}`;
  const [stats, catalog] = await Promise.all([api(`/v1/games/${encodeURIComponent(name)}/stats`), api("/v1/games")]);
  const entry = catalog.items.find((item) => item.slug === name);
  if (entry) $("title").textContent = `${entry.title}: statistics`;
  $("summary").textContent = `${stats.finished} finished of ${stats.started} started · moves per match ` +
    `${stats.moves_min ?? "-"}–${stats.moves_max ?? "-"} (mean ${fixed(stats.moves_mean)}) · up to log position ${stats.position}`;
  const show = () => leaderboard(entry).catch((error) => say(`Could not load the leaderboard: ${error.message}`, "error"));
  $("period").addEventListener("change", show);
  await show();
  const base = `/web/games/${encodeURIComponent(name)}`;
  // A cooperative game's seats win or lose together: its chart is the team's results, not a win rate by seat.
  const allCooperative = stats.finished > 0 && stats.cooperative_played === stats.finished;
  const charts = [allCooperative ? null : chart(`${base}/charts/win-rate.svg`, "Win rate by seat position"),
    chart(`${base}/charts/lengths.svg`, "Match length distribution")].filter(Boolean);
  if (stats.cooperative_played) charts.push(chart(`${base}/charts/cooperative.svg`, "Cooperative win rate"));
  $("charts").replaceChildren(...charts);
}

// Insights: the metric and the grouping picked, as a table of the API's rows and the server's bar chart of them.
async function insight() {
  const metric = $("metric").value;
  const by = $("by").value;
  const query = `metric=${encodeURIComponent(metric)}&by=${encodeURIComponent(by)}`;
  const answer = await api(`/v1/games/${encodeURIComponent(name)}/insights?${query}`);
  if ($("metric").value !== metric || $("by").value !== by) return; // a newer pick is on its way
  const shown = (value) => (value === null ? "-" : metric === "win_rate" ? `${(value * 100).toFixed(1)}%` : fixed(value));
  $("insight-dimension").textContent = $("by").selectedOptions[0].textContent;
  const rows = answer.rows.map((row) => el("tr", { "data-group": row.group[by] },
    el("td", {}, row.group[by]), el("td", {}, row.n), el("td", {}, shown(row.value)),
    el("td", {}, row.low === null ? "-" : `${shown(row.low)} – ${shown(row.high)}`),
    el("td", {}, row.small ? "small group" : "")));
  document.querySelector("#insights tbody").replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 5 }, "No finished match counts yet."))]));
  $("insights-position").textContent = `Computed up to log position ${answer.position}.`;
  $("insight-chart").replaceChildren(chart(`/web/games/${encodeURIComponent(name)}/insights.svg?${query}`,
    `${$("metric").selectedOptions[0].textContent} by ${$("by").selectedOptions[0].textContent}`));
  $("insights").dataset.shown = query;
}

function insights() {
  const show = () => insight().catch((error) => say(`Could not load insights: ${error.message}`, "error"));
  $("insight-form").addEventListener("change", show);
  $("insight-form").addEventListener("submit", (event) => { event.preventDefault(); show(); });
  return show();
}

function matchRow(summary) {
  const players = summary.seats.map((seat) => seat.player || "open").join(", ");
  return el("li", { "data-match": summary.id },
    el("a", { href: `/web/matches/${encodeURIComponent(summary.id)}` }, `${summary.game} · ${summary.status}`),
    ` · ${players} · version ${summary.version}`);
}

// A player's matches (any status), then statistics once one of them has finished: a player with active matches
// only has a page too, which says so instead of failing.
async function player() {
  $("title").textContent = `${name}: statistics`;
  $("matches-link").href = `/web/?player=${encodeURIComponent(name)}`;
  const who = encodeURIComponent(name);
  const [recent, finished] = await Promise.all([api(`/v1/matches?player=${who}&limit=50`),
    api(`/v1/matches?player=${who}&status=finished&limit=1`)]);
  $("matches").replaceChildren(...recent.items.map(matchRow));
  if (!recent.items.length) $("matches").replaceChildren(el("li", {}, "No match yet."));
  if (!finished.items.length) {
    $("stats-position").textContent = "No finished match yet: statistics begin with the first one.";
    return;
  }
  const stats = await api(`/v1/players/${who}/stats`);
  document.querySelector("#per-game tbody").replaceChildren(...stats.games.map((row) =>
    el("tr", { "data-game": row.game },
      el("td", {}, el("a", { href: `/web/games/${encodeURIComponent(row.game)}` }, row.game)),
      el("td", {}, row.played), el("td", {}, row.won), el("td", {}, row.lost), el("td", {}, row.drawn),
      el("td", {}, fixed(row.mean_score)), el("td", {}, row.best_score ?? "-"),
      el("td", {}, row.rating ? fixed(row.rating.ordinal) : "not rated"))));
  $("stats-position").textContent = `Computed up to log position ${stats.position}.`;
  $("charts").replaceChildren(chart(`/web/players/${encodeURIComponent(name)}/ratings.svg`, "Rating history"));
}

(kind === "games" ? Promise.all([game(), insights()]) : player()).catch((error) => say(`Could not load statistics: ${error.message}`, "error"));
