// Moves: a seat's decision and every event it caused (one command's events: one append, one seat, one time), the
// unit a replay steps by; and the pieces of the table the last move changed, found by comparing two pictures.

/** The moves of a log: runs of consecutive events with the same seat and recording time. */
export function movesOf(events) {
  const moves = [];
  for (const item of events) {
    const last = moves[moves.length - 1];
    if (last && last.seat === item.seat && last.at === item.recorded_at) {
      last.items.push(item);
      last.last = item.version;
    } else {
      moves.push({ seat: item.seat, at: item.recorded_at, first: item.version, last: item.version, items: [item] });
    }
  }
  return moves;
}

/** The index (0-based) of the move holding `version`. */
export function moveAt(moves, version) {
  let low = 0;
  let high = moves.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (moves[mid].last < version) low = mid + 1; else high = mid;
  }
  return low;
}

// An element's identity in a picture: its tag, its data-* attributes and its own text.
function signature(node) {
  const data = [...node.attributes].filter((a) => a.name.startsWith("data-")).map((a) => `${a.name}=${a.value}`);
  const own = node.tagName === "text" ? node.textContent : "";
  return `${node.tagName}|${data.sort().join("|")}|${own}`;
}

const PIECES = "[data-card], [data-route-card], [data-carriage-card], [data-rider], [data-stop], [data-rail], " +
  "[data-crossed], [data-transfer], [data-commuter], [data-development], [data-seat], [data-line], [data-route], " +
  "[data-market], [data-fare-swipes], [data-carriage], [data-completed], [data-score]";

/** Marks, on `svg`, the pieces that are not in `before` as they are now (new, moved or changed): an orange frame
 * around each (`data-changed` on the piece). The header, which changes with every move, is not a piece. */
export function markChanges(svg, before) {
  const old = new Map();
  for (const node of before.querySelectorAll(PIECES)) old.set(signature(node), (old.get(signature(node)) || 0) + 1);
  const size = svg.viewBox.baseVal;
  const toRoot = svg.getScreenCTM();
  if (!toRoot) return 0;
  const layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
  layer.setAttribute("class", "changes");
  let marked = 0;
  for (const node of svg.querySelectorAll(PIECES)) {
    const key = signature(node);
    if (old.get(key)) { old.set(key, old.get(key) - 1); continue; }
    if (node.querySelector("[data-changed]") || !node.getScreenCTM) continue;
    if (["polyline", "line", "path"].includes(node.tagName)) { // a route or a rail: it glows, a frame would hide the map
      node.setAttribute("data-changed", "");
      node.classList.add("changed-glow");
      marked += 1;
      continue;
    }
    const box = node.getBBox();
    if (box.width * box.height > 0.1 * size.width * size.height) continue; // a whole zone or route: not one piece
    const local = toRoot.inverse().multiply(node.getScreenCTM());
    const corner = new DOMPoint(box.x, box.y).matrixTransform(local);
    const frame = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    for (const [name, value] of Object.entries({ x: corner.x - 3, y: corner.y - 3, width: box.width * local.a + 6,
      height: box.height * local.d + 6, rx: 4, class: "changed-mark" })) frame.setAttribute(name, value);
    node.setAttribute("data-changed", "");
    layer.append(frame);
    marked += 1;
  }
  svg.append(layer);
  return marked;
}
