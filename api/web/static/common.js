// Shared by every page: safe element building (text is always text), the seat token, and API calls.

/** An element with attributes and children; strings become text nodes, never markup. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The seat token typed for a match: kept in this tab's session storage only, never in a URL. */
export const seatToken = {
  key: (matchId) => `turnstile.seat-token.${matchId}`,
  get: (matchId) => sessionStorage.getItem(seatToken.key(matchId)),
  set: (matchId, token) => sessionStorage.setItem(seatToken.key(matchId), token),
  clear: (matchId) => sessionStorage.removeItem(seatToken.key(matchId)),
};

/** An API problem (application/problem+json) as an Error. */
export class Problem extends Error {
  constructor(status, body) {
    super(body && body.detail ? `${body.code}: ${body.detail}` : `HTTP ${status}`);
    this.status = status;
    this.code = body ? body.code : undefined;
    this.title = body ? body.title : undefined;
    this.detail = body ? body.detail : undefined;
    this.errors = body && Array.isArray(body.errors) ? body.errors : []; // each malformed field: {key, message}
  }
}

/** A fresh Idempotency-Key: 128 random bits as hex (crypto.getRandomValues works on a plain-http page too, where
 * crypto.randomUUID does not exist). */
export function requestKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Fetch from the API, the token (if any) in the Authorization header; JSON by default. */
export async function api(path, { token = null, method = "GET", body = undefined, as = "json", signal,
  headers: extra = {} } = {}) {
  const headers = { ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const answer = await fetch(path, { method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!answer.ok) {
    let problem = null;
    try { problem = await answer.json(); } catch { /* not JSON: the status says enough */ }
    throw new Problem(answer.status, problem);
  }
  if (as === "text") return answer.text();
  if (as === "response") return answer;
  return answer.json();
}

/** Shows an error in the page's status line. */
export function say(text, kind = "info") {
  const line = document.getElementById("status");
  if (!line) return;
  line.textContent = text;
  line.dataset.kind = kind;
}

/** On a phone every table stacks (web.css): each cell is labelled with its column's heading, kept current as rows
 * are added. */
function stackable(table) {
  table.classList.add("stack");
  const label = () => {
    const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, index) => { if (heads[index]) cell.dataset.label = heads[index]; });
    }
  };
  new MutationObserver(label).observe(table, { childList: true, subtree: true });
  label();
}

for (const table of document.querySelectorAll("main table")) stackable(table);

let games = null;
/** The games' catalog (GET /v1/games `items`), read once a page; null when it could not be read (asked again then). */
export function catalog() {
  games = games || api("/v1/games").then((page) => page.items).catch(() => { games = null; return null; });
  return games;
}

/** The name people read for a seat's player handle. A bot's (`bot:<name>` or `bot:<name>:<label>`) is its level's
 * title in the game's catalog entry (`bot_levels[].title`, e.g. "Computer, level 4 (search)"), after its label if it
 * has one; a person's handle is itself; an empty seat is "open". */
export function playerName(handle, game) {
  if (!handle) return "open";
  if (!handle.startsWith("bot:")) return handle;
  const [, name, ...label] = handle.split(":");
  const level = ((game && game.bot_levels) || []).find((entry) => entry.name === name);
  const title = level ? level.title : `Computer (${name})`;
  return label.length ? `${label.join(":")}: ${title}` : title;
}
