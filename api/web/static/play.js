// Playing a seat from its page: the seat's legal moves as a list (a move of these games is often several choices at
// once: a list says exactly what each sends), sent with an Idempotency-Key and the version they were legal at; a
// refused move shows the server's problem text. The match's stream then brings the move and everyone's answer.
import { api, el } from "/web/static/common.js";

/** "Run the line: line U1, cards T14": a command in words, from its type and its fields. */
export function moveWords(move) {
  const kind = move.type.split(".").pop().replaceAll("-", " ");
  const fields = Object.entries(move).filter(([name]) => name !== "type")
    .map(([name, value]) => `${name.replaceAll("_", " ")} ${Array.isArray(value) ? value.join(", ") || "none" : value}`);
  return `${kind[0].toUpperCase()}${kind.slice(1)}${fields.length ? `: ${fields.join(", ")}` : ""}`;
}

/** The play box of a match page. `seat()` answers {matchId, token, you, latest, status} now; `played(events)` takes
 * the events a move appended (the stream brings them too: the page keeps the first copy). */
export function player(box, seat, played) {
  const list = box.querySelector("#legal");
  const note = box.querySelector("#play-note");
  const problem = box.querySelector("#play-problem");
  let asked = 0; // the version whose moves are shown (or being read)
  let sending = false;

  async function refresh() {
    const now = seat();
    const open = Boolean(now.token) && now.you !== null && now.status === "active";
    box.hidden = !open;
    if (!open || sending || asked === now.latest) return;
    asked = now.latest;
    try {
      const legal = await api(`/v1/matches/${encodeURIComponent(now.matchId)}/legal-moves`, { token: now.token });
      if (legal.version !== seat().latest) { asked = 0; refresh(); return; } // the match moved on meanwhile
      list.replaceChildren(...legal.moves.map((move) => el("li", {},
        el("button", { type: "button", class: "move", "data-move": JSON.stringify(move),
          onclick: () => send(move, legal.version) }, moveWords(move)))));
      note.textContent = legal.moves.length ? `Your move (${legal.moves.length} to choose from):`
        : "Waiting for the other seats to move.";
      box.dataset.version = legal.version;
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
        headers: { "Idempotency-Key": crypto.randomUUID() } });
      played(answer.events);
    } catch (error) {
      problem.textContent = `Move refused: ${error.message}`;
      asked = 0;
    } finally {
      sending = false;
      refresh();
    }
  }

  return { refresh };
}
