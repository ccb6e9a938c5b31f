// The public tournaments, newest first.
import { api, el, say } from "/web/static/common.js";

const rows = document.querySelector("#tournaments tbody");
const more = document.getElementById("more");
let cursor = null;

async function load() {
  const query = new URLSearchParams({ limit: "50" });
  if (cursor) query.set("cursor", cursor);
  try {
    const page = await api(`/v1/tournaments?${query}`);
    rows.append(...page.items.map((t) => el("tr", { "data-tournament": t.id },
      el("td", {}, el("a", { href: `/web/tournaments/${encodeURIComponent(t.id)}` }, t.game)),
      el("td", {}, t.format), el("td", {}, t.status), el("td", {}, new Date(t.created_at).toLocaleString()))));
    cursor = page.next_cursor;
    more.hidden = !cursor;
    say(rows.children.length ? `${rows.children.length} ${rows.children.length === 1 ? "tournament" : "tournaments"}` : "No tournament yet.");
  } catch (error) {
    say(`Could not list tournaments: ${error.message}`, "error");
  }
}

more.addEventListener("click", load);
load();
