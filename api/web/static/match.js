// A match page: the table at any version (drawn by the server from the viewer's redacted view), the log, the
// players, the audit, and live updates while the match is played. The seat token stays in session storage and
// travels only in the Authorization header.
import { api, catalog, el, playerName, say, seatToken } from "/web/static/common.js";
import { follow } from "/web/static/stream.js";
import { audit } from "/web/static/audit.js";
import { markChanges, moveAt, movesOf } from "/web/static/moves.js";
import { player } from "/web/static/play.js";

const matchId = decodeURIComponent(location.pathname.split("/")[3] || "");
const $ = (id) => document.getElementById(id);
const page = { detail: null, game: null, events: [], moves: [], version: 1, latest: 1, pictures: new Map(), stream: null,
  token: null };
// Below this width the table is drawn for a phone: one column, every text at least 12 CSS px.
const PHONE = window.matchMedia("(max-width: 700px)");
const layout = () => (PHONE.matches ? "narrow" : "wide");
const play = player(document.getElementById("play-box"), document.getElementById("table"), () => ({ matchId, token: page.token,
  you: page.detail ? page.detail.you : null, latest: page.latest, status: page.detail ? page.detail.status : null }),
(events) => { for (const item of events) onEvent(item); });

async function readLog() {
  const events = [];
  for (let after = 0; after !== null;) {
    const batch = await api(`/v1/matches/${encodeURIComponent(matchId)}/events?after=${after}&limit=500&include=text`,
      { token: page.token });
    events.push(...batch.items);
    after = batch.next_after;
  }
  return events;
}

// Each line tells its event in words (as this viewer may see it); the event's type stays in the title.
function logItem(item) {
  return el("li", { "data-version": item.version, "data-type": item.event.type, title: item.event.type, tabindex: -1,
    onclick: () => show(item.version) },
    el("span", { class: "v" }, `${item.version}.`), " ", ...unbroken(item.text || item.event.type));
}

// A seat as people name it: its player (a bot by its level's title in the catalog), else its number.
const seatName = (seat) => (seat === null || seat === undefined ? "the table"
  : (page.detail.seats[seat] && page.detail.seats[seat].player && playerName(page.detail.seats[seat].player, page.game))
    || `seat ${seat}`);

// A move in the list: its number, who decided, and what happened, told event by event.
function moveItem(move, index) {
  return el("li", { "data-move": index + 1, "data-first": move.first, "data-last": move.last, tabindex: -1,
    onclick: () => show(move.last) },
    el("span", { class: "v" }, `${index + 1}.`), " ", el("b", {}, seatName(move.seat)), ": ",
    ...unbroken(move.items.map((item) => item.text || item.event.type).join(" · ")));
}

function drawMoves() {
  page.moves = movesOf(page.events);
  $("moves").replaceChildren(...page.moves.map(moveItem));
}

/** Text whose hyphenated codes ("EV-L1-5") are kept whole: a line may break between words, never inside one. */
export function unbroken(text) {
  return text.split(/(\S*\w-\w\S*)/).map((part, index) => (index % 2 ? el("span", { class: "nowrap" }, part) : part));
}

// The players as of the version shown: who is to move then (from the picture, drawn from the rules' `to_move` at
// that version), and the outcome only when the version shown is the end.
function drawPlayers(toMove) {
  const atEnd = page.version === page.latest && page.detail.outcome;
  const outcome = atEnd ? page.detail.outcome : null;
  const results = new Map((outcome && !outcome.cooperative ? outcome.results : []).map((r) => [r.seat, r]));
  $("players").replaceChildren(...page.detail.seats.map((seat) => {
    const result = results.get(seat.seat);
    const score = result ? ` · score ${result.score} · rank ${result.rank}${result.winner ? " · winner" : ""}` : "";
    const moving = toMove.includes(seat.seat) ? " · to move" : "";
    return el("li", { "data-seat": seat.seat }, el("span", { class: "name", title: seat.player },
      playerName(seat.player, page.game)),
      ` (seat ${seat.seat})${score}${moving}`);
  }));
  const reason = outcome ? outcome.reason.replace(/[-_]/g, " ") : "";
  // A cooperative game's result, unless its reason says it already ("team lost: …"): said once.
  const team = outcome && outcome.cooperative && !/\bteam (won|lost)\b/.test(reason)
    ? (outcome.team_won ? " · the team won" : " · the team lost") : "";
  $("outcome").textContent = outcome
    ? `Ended: ${reason}${team}`
    : (page.version === page.latest ? `${page.detail.status}` : `replay at version ${page.version}`);
  const you = page.detail.seats.find((seat) => seat.seat === page.detail.you);
  $("viewer").textContent = page.detail.you === null ? "Spectator" : `${you ? you.player : ""} (seat ${page.detail.you})`;
}

/** A dealing match (option `entropy: "seats"`): the viewer's seat may add its entropy, once, before the deal. */
function drawEntropy() {
  const detail = page.detail;
  const mine = detail.you === null || !detail.entropy ? undefined : detail.entropy[detail.you];
  const open = (detail.status === "dealing" || detail.status === "open") && mine === null;
  $("entropy-box").hidden = !open;
  $("entropy-note").textContent = open
    ? `The server has committed to its secret part: ${detail.server_seed_commitment}. Note it, then add your ` +
      "entropy: the deal waits for every seat's, so the server cannot choose it."
    : "";
}

/** 32 random bytes from the browser (crypto.getRandomValues), as hex: the seat's entropy. */
export function randomEntropy() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function addEntropy() {
  $("add-entropy").disabled = true;
  try {
    const answer = await api(`/v1/matches/${encodeURIComponent(matchId)}/entropy`,
      { token: page.token, method: "POST", body: { entropy: randomEntropy() } });
    say(answer.status === "active" ? "Your entropy is in, and the match has been dealt."
      : "Your entropy is in; the deal waits for the other seats.");
  } catch (error) {
    say(`Could not add entropy: ${error.message}`, "error");
  } finally {
    $("add-entropy").disabled = false;
  }
  await load(page.version === page.latest ? null : page.version);
}

async function picture(version) {
  if (!page.pictures.has(version)) {
    const token = page.token;
    const pending = api(`/web/matches/${encodeURIComponent(matchId)}/table.svg?version=${version}&layout=${layout()}`,
      { token, as: "text" }).catch((error) => { page.pictures.delete(version); throw error; });
    page.pictures.set(version, pending);
  }
  return page.pictures.get(version);
}

/** Shows the table after event `version`; the URL follows, so the moment can be shared. */
export async function show(version) {
  version = Math.max(1, Math.min(page.latest, Math.round(version) || 1));
  page.version = version;
  const index = moveAt(page.moves, version);
  const move = page.moves[index];
  $("slider").max = page.moves.length;
  $("slider").value = index + 1;
  $("where").textContent = `move ${index + 1} of ${page.moves.length}` +
    (move && version !== move.last ? ` (event ${version})` : "");
  $("goto-move").max = page.moves.length;
  if (document.activeElement !== $("goto-move")) $("goto-move").value = index + 1;
  const url = new URL(location.href);
  url.searchParams.delete("version");
  url.searchParams.delete("move");
  if (move && version === move.last) url.searchParams.set("move", index + 1); else url.searchParams.set("version", version);
  history.replaceState(null, "", url);
  for (const item of document.querySelectorAll("#moves li.current")) item.classList.remove("current");
  const line = document.querySelector(`#moves li[data-move="${index + 1}"]`);
  if (line) { line.classList.add("current"); scrollLog(line, $("moves")); }
  for (const item of document.querySelectorAll("#log li.current")) item.classList.remove("current");
  const current = document.querySelector(`#log li[data-version="${version}"]`);
  if (current) { current.classList.add("current"); scrollLog(current, $("log")); }
  try {
    const text = await picture(version);
    if (page.version !== version) return; // a later step won the race
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (svg.nodeName !== "svg") throw new Error("not a picture");
    const shown = document.importNode(svg, true);
    $("table").replaceChildren(shown);
    $("table").dataset.version = version;
    if (index > 0) highlight(shown, page.moves[index - 1].last, version);
    const toMove = (svg.getAttribute("data-to-move") || "").split(" ").filter(Boolean).map(Number);
    drawPlayers(toMove);
    if (version === page.latest) {
      play.toMove(version, toMove.filter((seat) => seat !== page.detail.you).map(seatName).join(" and "));
    }
    for (const next of [version + 1, version - 1]) if (next >= 1 && next <= page.latest) picture(next).catch(() => {});
  } catch (error) {
    say(`Could not draw version ${version}: ${error.message}`, "error");
  }
}

// The pieces the move shown changed, framed on the table: the picture before it compared with this one.
async function highlight(svg, before, version) {
  try {
    const text = await picture(before);
    if (page.version !== version || !svg.isConnected) return;
    const old = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    $("table").dataset.changed = markChanges(svg, old);
    $("table").dataset.changedAt = version;
  } catch (error) {
    /* the table is drawn; only its highlight is missing */
  }
}

// Keeps the current line of a list in view by scrolling the list alone, never the page (the board stays put).
function scrollLog(line, log) {
  const top = line.offsetTop; // #log is positioned: offsets are from its top
  if (top < log.scrollTop) log.scrollTop = top;
  else if (top + line.offsetHeight > log.scrollTop + log.clientHeight) log.scrollTop = top + line.offsetHeight - log.clientHeight;
}

const SEATING = new Set(["match.seat-joined", "match.started"]);

function onEvent(item) {
  if (page.events.length && item.version <= page.events[page.events.length - 1].version) return;
  if (page.detail.status === "dealing" && item.event.type.startsWith("match.entropy-")) {
    // A seat's entropy, or the deal: the seats' state and the table change. A page following the newest version goes
    // on following it (the URL still names the version before this event).
    load(page.version === page.latest ? null : page.version);
    return;
  }
  const following = page.version === page.latest;
  page.events.push(item);
  $("log").append(logItem(item));
  drawMoves();
  page.latest = item.version;
  page.detail.version = item.version;
  if (SEATING.has(item.event.type)) refreshSeats();
  if (item.event.type === "match.ended") page.detail.status = "finished";
  show(following ? page.latest : page.version);
  play.refresh();
}

// A join names a new player (and the last one starts the match): the seats and status are read again.
async function refreshSeats() {
  try {
    const detail = await api(`/v1/matches/${encodeURIComponent(matchId)}`, { token: page.token });
    if (detail.version < page.detail.version) return;
    page.detail = detail;
    drawPlayers([]);
    show(page.version);
  } catch (error) {
    say(`Could not read the seats: ${error.message}`, "error");
  }
}

/** A tournament's match links back to its tournament, naming the round and the table (as the tournament page does). */
async function placeInTournament() {
  try {
    const { tournament } = await api(`/v1/matches/${encodeURIComponent(matchId)}/tournament`, { token: page.token });
    const link = $("tournament-link");
    link.hidden = !tournament;
    if (!tournament) return;
    link.href = `/web/tournaments/${encodeURIComponent(tournament.tournament_id)}`;
    link.textContent = `tournament: round ${tournament.round}, table ${tournament.table + 1}`;
  } catch (error) {
    $("tournament-link").hidden = true; // the match itself was read: a failure here hides only the way back
  }
}

async function onEnded() {
  await load(page.version === page.latest ? null : page.version); // the whole record is public now
}

async function load(at) {
  if (page.stream) page.stream.abort();
  page.token = seatToken.get(matchId);
  page.pictures.clear();
  try {
    page.detail = await api(`/v1/matches/${encodeURIComponent(matchId)}`, { token: page.token });
  } catch (error) {
    if (page.token && (error.status === 401 || error.status === 403)) {
      seatToken.clear(matchId);
      say(`That seat token is not one of this match (${error.code}); showing the spectator's view.`, "error");
      return load(at);
    }
    say(`Could not open this match: ${error.message}`, "error");
    return;
  }
  page.events = await readLog();
  page.latest = page.detail.version;
  page.game = await catalogEntry(page.detail.game);
  const title = await matchTitle(page.detail);
  document.title = `${title} · Turnstile`;
  $("title").textContent = title;
  aboutData(page.detail.game);
  $("game-link").href = `/web/games/${encodeURIComponent(page.detail.game)}`;
  placeInTournament();
  $("log").replaceChildren(...page.events.map(logItem));
  drawMoves();
  drawPlayers([]);
  drawEntropy();
  // `at`: a version to show; null: the newest; undefined (the first load): the one the URL names, else the newest.
  const query = new URL(location.href).searchParams;
  const named = at === undefined ? query.get("version") : null;
  const move = at === undefined ? Number(query.get("move")) : 0;
  const wanted = at ?? (move ? page.moves[Math.min(move, page.moves.length) - 1].last : Number(named || page.latest));
  await show(wanted);
  audit(matchId, page.detail, page.token);
  // An open match (seats still to fill) and a dealing one are followed too: each join and each seat's entropy shows
  // at once, and the start (or the deal) lays out the table.
  const following = ["active", "open", "dealing"].includes(page.detail.status);
  $("live").hidden = !following;
  play.refresh();
  if (following) {
    page.stream = follow(matchId, page.token, () => page.latest, onEvent, onEnded);
  }
}

/** "Expect Delays: Ada vs Computer, level 4 (search)": the game's title from the catalog and the players' names. */
async function matchTitle(detail) {
  const game = await catalogEntry(detail.game);
  const names = detail.seats.map((seat) => playerName(seat.player, game)).join(" vs ");
  return `${game?.title || detail.game}: ${names}`;
}

async function catalogEntry(slug) {
  const games = await catalog();
  return (games && games.find((game) => game.slug === slug)) || null;
}

/** Where the game's component data is not from a published source, a note says so (never on the table). */
async function aboutData(slug) {
  const game = await catalogEntry(slug);
  const notes = game ? game.default_data : [];
  $("about-data").hidden = !notes.length;
  $("about-data-list").replaceChildren(...notes.map((note) => el("li", {}, note)));
}

PHONE.addEventListener("change", () => { page.pictures.clear(); show(page.version); });

/** One move on or back: to the end of the next move, or of the one before the move shown. */
function step(delta) {
  const index = moveAt(page.moves, page.version);
  const here = page.moves[index];
  const target = delta < 0 && here && page.version !== here.last ? index : index + delta;
  show(page.moves[Math.max(0, Math.min(page.moves.length - 1, target))].last);
}

const showMove = (n) => show(page.moves[Math.max(1, Math.min(page.moves.length, Math.round(n) || 1)) - 1].last);

$("first").addEventListener("click", () => showMove(1));
$("prev").addEventListener("click", () => step(-1));
$("next").addEventListener("click", () => step(1));
$("last").addEventListener("click", () => show(page.latest));
$("slider").addEventListener("input", (event) => showMove(Number(event.target.value)));
$("goto").addEventListener("submit", (event) => { event.preventDefault(); showMove(Number($("goto-move").value)); });
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
  const moves = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => showMove(1), End: () => show(page.latest) };
  if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
});
$("seat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const token = $("token").value.trim();
  $("token").value = "";
  if (token) seatToken.set(matchId, token);
  say("");
  load(page.version);
});
$("spectate").addEventListener("click", () => { seatToken.clear(matchId); load(page.version); });
$("add-entropy").addEventListener("click", addEntropy);
load(undefined);
