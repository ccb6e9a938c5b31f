// The audit box: the record checked by the server's verifier (as `turnstile verify`), the seed against its
// commitment once the match has ended, and the record to download.
import { api } from "/web/static/common.js";

const $ = (id) => document.getElementById(id);

async function sha256(text) {
  if (!crypto.subtle) return null; // only in a secure context (https or this machine)
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function seedLine(detail) {
  if (!detail.seed) return `Seed commitment ${detail.seed_commitment} (the seed is revealed when the match ends).`;
  const digest = await sha256(detail.seed);
  const check = digest === null ? "checked by the verifier" : digest === detail.seed_commitment
    ? "its SHA-256 matches the commitment ✓" : "its SHA-256 does NOT match the commitment ✗";
  return `Seed ${detail.seed} · commitment ${detail.seed_commitment} · ${check}`;
}

function download(matchId, record) {
  const link = $("download");
  if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
  const url = URL.createObjectURL(new Blob([record], { type: "application/x-ndjson" }));
  link.href = url;
  link.dataset.url = url;
  link.download = `turnstile-${matchId}.ndjson`;
}

/** Verifies the record as the viewer may read it and shows the verdict. */
export async function audit(matchId, detail, token) {
  const badge = $("badge");
  badge.textContent = "checking…";
  badge.dataset.verdict = "";
  $("seed").textContent = await seedLine(detail);
  try {
    const record = await api(`/v1/matches/${encodeURIComponent(matchId)}/export`, { token, as: "text" });
    download(matchId, record);
    const verdict = await api("/v1/verifications", { method: "POST", body: { record } });
    badge.textContent = verdict.code;
    badge.dataset.verdict = verdict.ok ? "ok" : "failed";
    $("verdict").textContent = verdict.ok ? "" : `${verdict.message || ""} (version ${verdict.failed_version ?? "-"})`;
  } catch (error) {
    badge.textContent = "could not check";
    badge.dataset.verdict = "failed";
    $("verdict").textContent = error.message;
  }
}
