// The match browser: recent public matches, filtered by game, player and status (the filters live in the URL).
import { api, el, say } from "/web/static/common.js";

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

function row(match) {
  const players = match.seats.map((seat) => seat.player).join(", ");
  return el("tr", { "data-match": match.id, "data-game": match.game, "data-status": match.status },
    el("td", {}, el("a", { href: `/web/matches/${encodeURIComponent(match.id)}` }, match.game)),
    el("td", { class: "players" }, players),
    el("td", {}, match.status),
    el("td", {}, match.version),
    el("td", {}, new Date(match.created_at).toLocaleString()));
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
