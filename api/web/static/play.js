// Playing a seat from its page: the seat's legal moves as a list (a move of these games is often several choices at
// once: a list says exactly what each sends), sent with an Idempotency-Key and the version they were legal at; a
// refused move shows the server's problem text. The match's stream then brings the move and everyone's answer.
// Where a click target is clear, the table is one too: a card the drawing marks `data-play` (a card in the seat's
// hand) plays the one legal move using it, or, when several do, marks them in the list.
import { api, el, requestKey } from "/web/static/common.js";

/** "Run the line: line U1, cards T14": a command in words, from its type and its fields. */
export function moveWords(move) {
  const kind = move.type.split(".").pop().replaceAll("-", " ");
  const fields = Object.entries(move).filter(([name]) => name !== "type")
    .map(([name, value]) => `${name.replaceAll("_", " ")} ${Array.isArray(value) ? value.join(", ") || "none" : value}`);
  return `${kind[0].toUpperCase()}${kind.slice(1)}${fields.length ? `: ${fields.join(", ")}` : ""}`;
}

/** Whether `move` uses `card`: it names the card (`card`, `cards`) or has every field of one of `patterns` (what the
 * drawing says the card is played by, e.g. Touched On's Evader: playing Evaders of its line). */
export function usesCard(move, card, patterns) {
  if (move.card === card || (Array.isArray(move.cards) && move.cards.includes(card))) return true;
  return patterns.some((pattern) => Object.entries(pattern).every(([key, value]) => move[key] === value));
}

/** The play box of a match page. `seat()` answers {matchId, token, you, latest, status} now; `played(events)` takes
 * the events a move appended (the stream brings them too: the page keeps the first copy). */
export function player(box, table, seat, played) {
  const list = box.querySelector("#legal");
  const note = box.querySelector("#play-note");
  const hint = box.querySelector("#play-hint");
  const problem = box.querySelector("#play-problem");
  let asked = 0; // the version whose moves are shown (or being read)
  let sending = false;
  // When the answer is at another version than the page's newest (the server ahead of the page's stream, say), the
  // moves are read again after a pause, doubling up to RETRY_MAX_MS, not at once: a stalled stream must not become a
  // tight loop of requests. Progress (the page's newest version moves, or the moves are shown) starts over.
  const RETRY_FIRST_MS = 250;
  const RETRY_MAX_MS = 4000;
  let retry = { ms: RETRY_FIRST_MS, timer: null, latest: 0 }; // `latest`: the page's version when it was set

  function startOver() {
    clearTimeout(retry.timer);
    retry = { ms: RETRY_FIRST_MS, timer: null, latest: 0 };
  }

  function retryLater(latest) {
    if (retry.latest !== latest) startOver();
    clearTimeout(retry.timer);
    retry.latest = latest;
    retry.timer = setTimeout(() => { retry.timer = null; refresh(); }, retry.ms);
    retry.ms = Math.min(retry.ms * 2, RETRY_MAX_MS);
  }

  let waiting = { version: 0, names: "" }; // who the table shows to move at the newest version (a bot, say)

  const waitingNote = (version) => (waiting.version === version && waiting.names
    ? `Waiting for ${waiting.names} to move.` : "Waiting for the other seats to move.");

  async function refresh() {
    const now = seat();
    const open = Boolean(now.token) && now.you !== null && now.status === "active";
    box.hidden = !open;
    if (!open) delete table.dataset.playable;
    if (!open || sending || asked === now.latest) return;
    if (retry.timer !== null && retry.latest === now.latest) return; // asked again when the pause is over
    asked = now.latest;
    delete table.dataset.playable; // until the moves of the newest version are read
    try {
      const legal = await api(`/v1/matches/${encodeURIComponent(now.matchId)}/legal-moves`, { token: now.token });
      if (legal.version !== seat().latest) { asked = 0; retryLater(seat().latest); return; } // not the page's version
      startOver();
      list.replaceChildren(...legal.moves.map((move) => el("li", {},
        el("button", { type: "button", class: "move", "data-move": JSON.stringify(move),
          onclick: () => send(move, legal.version) }, moveWords(move)))));
      note.textContent = legal.moves.length ? `Your move (${legal.moves.length} to choose from):`
        : waitingNote(legal.version);
      hint.textContent = "";
      box.dataset.version = legal.version;
      if (legal.moves.length) table.dataset.playable = legal.version; else delete table.dataset.playable;
    } catch (error) {
      asked = 0;
      note.textContent = `Could not read your moves: ${error.message}`;
    }
  }

  async function send(move, version) {
    const now = seat();
    sending = true;
    problem.textContent = "";
    for (const button of list.querySelectorAll("button")) button.disabled = true;
    try {
      const answer = await api(`/v1/matches/${encodeURIComponent(now.matchId)}/moves?include=text`, {
        token: now.token, method: "POST", body: { move, expected_version: version },
        headers: { "Idempotency-Key": requestKey() } });
      played(answer.events);
    } catch (error) {
      problem.textContent = `Move refused: ${error.message}`;
      asked = 0;
    } finally {
      sending = false;
      refresh();
    }
  }

  // A click (or Enter) on a card of the table the drawing marks `data-play`, while the newest version is shown.
  function onTable(event) {
    const target = event.target instanceof Element ? event.target.closest("[data-play]") : null;
    if (!target || box.hidden || sending || !table.dataset.playable) return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    for (const button of list.querySelectorAll("button.candidate")) button.classList.remove("candidate");
    problem.textContent = "";
    if (table.dataset.version !== table.dataset.playable || box.dataset.version !== table.dataset.playable) {
      hint.textContent = "This is an earlier move of the match: go to the last move to play.";
      return;
    }
    const card = target.dataset.card;
    const patterns = JSON.parse(target.dataset.play || "[]");
    const using = [...list.querySelectorAll("button.move:not([disabled])")]
      .filter((button) => usesCard(JSON.parse(button.dataset.move), card, patterns));
    if (using.length === 1) {
      hint.textContent = `Playing ${card}: ${using[0].textContent}`;
      using[0].click();
      return;
    }
    if (!using.length) {
      hint.textContent = `No move uses ${card} now.`;
      return;
    }
    for (const button of using) button.classList.add("candidate");
    hint.textContent = `${using.length} moves use ${card}: choose one of those marked below.`;
    using[0].scrollIntoView({ block: "nearest" });
  }

  /** The table at the newest version `version` shows `names` to move: the note names them while this seat waits. */
  function toMove(version, names) {
    waiting = { version, names };
    if (!box.hidden && box.dataset.version === String(version) && !list.children.length) {
      note.textContent = waitingNote(version);
    }
  }

  table.addEventListener("click", onTable);
  table.addEventListener("keydown", onTable);
  return { refresh, toMove };
}
