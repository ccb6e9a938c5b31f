// The lobby's "New match" form: a game, the person's name and seat, a bot level for every other seat (the catalog's
// `bot_levels`, the top level by default), sent with an app key to POST /v1/matches, the API's own endpoint. The app
// key is kept in this tab's session storage only; the new seat's token is handed to the match page the way its "Seat
// token" form does (session storage), so neither ever enters a URL or the history. The match page then opens as the
// person's seat and follows the match live while the service plays the bots' turns in the background.
import { api, catalog, el, requestKey, seatToken } from "/web/static/common.js";

const APP_KEY = "turnstile.app-key";
const $ = (id) => document.getElementById(id);
const form = $("new-match");
const problem = $("new-match-problem");
let games = [];
const detailed = new Map(); // game slug → its GET /v1/games/{slug} (the levels with their current ratings)
const chosen = new Map(); // seat → the bot level picked for it, kept while the seat count changes

const gameOf = () => games.find((game) => game.slug === $("new-game").value);
const levelsOf = (game) => (detailed.get(game.slug) || game).bot_levels || [];
const topLevel = (levels) => levels.reduce((best, level) => (best && best.level >= level.level ? best : level), null);

/** What a level does, and its rating when it has one: the line under a bot seat's choice. */
function about(level) {
  if (!level) return "";
  const rating = level.rating
    ? ` Rated ${level.rating.ordinal.toFixed(1)} (mu - 3 sigma) after ${level.rating.matches} matches.` : "";
  const text = level.description.replace(/\.$/, "");
  return `${text[0].toUpperCase()}${text.slice(1)}.${rating}`;
}

const options = (values, selected) => values.map(([value, text]) =>
  el("option", { value, selected: String(value) === String(selected) }, text));

/** The seats' part of the form for the game and seat count chosen: the person's seat, and a level for each other. */
function drawSeats() {
  const game = gameOf();
  if (!game) return;
  const count = Number($("new-seats").value);
  const mine = Math.min(Number($("new-seat").value) || 0, count - 1);
  $("new-seat").replaceChildren(...options([...Array(count).keys()].map((seat) => [seat, `seat ${seat}`]), mine));
  const levels = levelsOf(game);
  const best = topLevel(levels);
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    if (seat === mine) continue;
    const picked = levels.find((level) => level.name === chosen.get(seat)) || best;
    const hint = el("p", { class: "hint", id: `new-about-${seat}` }, about(picked));
    const select = el("select", { name: `bot-${seat}`, "data-seat": seat, "aria-describedby": `new-about-${seat}`,
      onchange: (event) => {
        chosen.set(seat, event.target.value);
        hint.textContent = about(levels.find((level) => level.name === event.target.value));
      } }, ...options(levels.map((level) => [level.name, level.title]), picked && picked.name));
    rows.push(el("div", { class: "opponent" }, el("label", {}, `Seat ${seat}`, select), hint));
  }
  $("new-opponents").replaceChildren(el("legend", {}, "The other seats: computer players"), ...rows);
}

/** A game was chosen: its seat counts, then its levels with their ratings once its catalog entry is read. */
async function chooseGame() {
  const game = gameOf();
  if (!game) return;
  const fewest = Math.max(game.min_seats, Math.min(2, game.max_seats));
  $("new-seats").replaceChildren(...options(
    [...Array(game.max_seats - game.min_seats + 1).keys()].map((n) => [n + game.min_seats, String(n + game.min_seats)]),
    fewest));
  drawSeats();
  if (detailed.has(game.slug)) return;
  try {
    detailed.set(game.slug, await api(`/v1/games/${encodeURIComponent(game.slug)}`));
    if (gameOf() === game) drawSeats();
  } catch (error) {
    /* the list's levels stand (without ratings) */
  }
}

/** "Forbidden: this app key is not known (unknown-app-key).": a refused request as the API's problem tells it, with
 * each malformed field. */
function refusal(error) {
  if (!error.title && !error.detail) return error.message;
  const fields = error.errors.map((field) => ` ${field.key ? `${field.key}: ` : ""}${field.message}.`).join("");
  return `${error.title ? `${error.title}: ` : ""}${error.detail || ""}${error.code ? ` (${error.code})` : ""}.${fields}`;
}

async function start(event) {
  event.preventDefault();
  const game = gameOf();
  const key = $("new-key").value.trim();
  if (!game || !key) return;
  const count = Number($("new-seats").value);
  const mine = Number($("new-seat").value);
  const seats = [...Array(count).keys()].map((seat) => (seat === mine ? { player: $("new-name").value.trim() }
    : { bot: form.elements[`bot-${seat}`].value }));
  problem.textContent = "";
  $("new-submit").disabled = true; // one click, one request
  try {
    // Creation does not deduplicate by the key today; it is sent, as with every write of these pages, for a server
    // that does.
    const created = await api("/v1/matches", { token: key, method: "POST", headers: { "Idempotency-Key": requestKey() },
      body: { game: game.slug, seats, visibility: $("new-visibility").value } });
    sessionStorage.setItem(APP_KEY, key);
    seatToken.set(created.id, created.seats.find((seat) => seat.seat === mine).token);
    location.assign(`/web/matches/${encodeURIComponent(created.id)}`);
  } catch (error) {
    if (error.status === 401 || error.status === 403) sessionStorage.removeItem(APP_KEY); // not a key of this server
    problem.textContent = `The match was not started. ${refusal(error)}`;
    $("new-submit").disabled = false;
  }
}

async function setUp() {
  games = (await catalog()) || [];
  if (!games.length) {
    problem.textContent = "Could not read the games: reload the page to start a match.";
    return;
  }
  $("new-game").replaceChildren(...options(games.map((game) => [game.slug, game.title]), games[0].slug));
  $("new-key").value = sessionStorage.getItem(APP_KEY) || "";
  await chooseGame();
  // Until now the button is disabled, so the form is never sent by the browser itself (a GET would put the fields in
  // the URL); the key's field has no name, so it could not be either.
  $("new-submit").disabled = false;
}

$("new-game").addEventListener("change", () => { chosen.clear(); chooseGame(); });
$("new-seats").addEventListener("change", drawSeats);
$("new-seat").addEventListener("change", () => { chosen.clear(); drawSeats(); });
form.addEventListener("submit", start);
setUp();
