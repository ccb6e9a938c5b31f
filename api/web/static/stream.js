// Follows a match's Server-Sent Events stream with fetch, so a seat token can go in the Authorization header
// (EventSource cannot send headers, and a token must never be put in a URL). Resumes after the last version seen.
import { api } from "/web/static/common.js";

/** Parses `text/event-stream` blocks; returns the unparsed tail. */
function parse(buffer, onMessage) {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const tail = blocks.pop();
  for (const block of blocks) {
    const data = block.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart());
    if (data.length) onMessage(JSON.parse(data.join("\n")));
  }
  return tail;
}

/** Streams events after `lastVersion()` to `onEvent` until the match ends (then `onEnded`); returns a controller. */
export function follow(matchId, token, lastVersion, onEvent, onEnded) {
  const control = new AbortController();
  (async () => {
    let pause = 500;
    while (!control.signal.aborted) {
      try {
        const answer = await api(`/v1/matches/${encodeURIComponent(matchId)}/stream?after=${lastVersion()}&include=text`,
          { token, as: "response", signal: control.signal });
        const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer = parse(buffer + value, onEvent);
          pause = 500;
        }
        const detail = await api(`/v1/matches/${encodeURIComponent(matchId)}`, { token, signal: control.signal });
        if (detail.status === "finished") { onEnded(); return; }
      } catch (error) {
        if (control.signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, pause)); // the server restarted or the network dropped
      pause = Math.min(pause * 2, 10000);
    }
  })();
  return control;
}
