"""The log collects its witnesses' cosignatures (c2sp.org/tlog-witness, client side), as the policy names them.

A `Cosigning` thread sends, at most every `interval_s`, the newest signed checkpoint to every witness of the policy
(`TURNSTILE_WITNESS_POLICY`) that has a URL, with the consistency proof from the size that witness last cosigned
(kept in the store, `log_witnesses`), each request given up after `timeout_s` and the witnesses asked side by side
(one hung witness holds no other). One process at a time does so (a lease in the store, `log_cosigner`, renewed each
round and taken over when it lapses), however many API processes serve. The answers:

- 200: the cosignature lines, checked against the witness's key, kept beside the checkpoint (`log_cosignatures`);
- 409 `text/x.tlog.size`: the witness last cosigned another size: remember it and ask again from it at once (a size
  above this log's tree means the witness saw a larger tree than this one holds: a rollback, the alarm);
- 409 (another root at the same size) and 422 (the proof does not verify): the witness saw another history: the
  alarm (a critical log line and `turnstile_witness_alarms`), and this (old, new) pair is not sent again; the next
  checkpoint is tried once, and so on;
- anything else (down, hung, 4xx/5xx): logged and counted; the next round tries again.

Moves never wait for this: it runs on its own thread and reads only signed checkpoints. `Witnessed.newest` is what
`GET /v1/log/checkpoint` serves under a policy: the newest checkpoint whose cosignatures meet the quorum.
"""

from __future__ import annotations

import base64
import logging
import os
import socket
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ledger.notes import DASH, NoteError, decode_b64, split_note
from ledger.policy import Policy, PolicyError, PolicyWitness, QuorumError, parse_policy
from service.ops import metrics
from settings import SettingsError
from store.transparency import LogCheckpoint, TransparencyStore

log = logging.getLogger("turnstile.witnessing")
SIZE_TYPE = "text/x.tlog.size"


class PolicyFileError(SettingsError):
    """The witness policy file is missing, unreadable, not a policy, or does not name this log's key."""


@dataclass(frozen=True)
class Reply:
    """A witness's HTTP answer: status (0: no answer), content type and body."""

    status: int
    content_type: str
    body: str


Post = Callable[[str, bytes, float], Reply]


def http_post(url: str, body: bytes, timeout_s: float) -> Reply:
    """POST `body` to `url` within `timeout_s`; a Reply with status 0 when there is no answer (down, hung)."""
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "text/plain"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as answer:  # noqa: S310  (the policy's URLs)
            return Reply(answer.status, answer.headers.get("Content-Type", ""), answer.read(65536).decode())
    except urllib.error.HTTPError as exc:
        return Reply(exc.code, exc.headers.get("Content-Type", ""), exc.read(65536).decode(errors="replace"))
    except (urllib.error.URLError, OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "reason", exc)
        return Reply(0, "", "hung" if isinstance(reason, TimeoutError) else f"down: {reason}")


def load_policy(path: str, log_key: str | None = None) -> Policy:
    """The policy in the file at `path`; PolicyFileError when unreadable, malformed, or (given the log's verifier
    key text) not naming this log."""
    try:
        policy = parse_policy(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise PolicyFileError(f"cannot read the witness policy {path}: {exc.strerror or exc}") from None
    except PolicyError as exc:
        raise PolicyFileError(f"{path}: {exc}") from None
    if log_key is not None and all(entry.verifier.text() != log_key for entry in policy.logs):
        raise PolicyFileError(f"{path} does not name this log's key ({log_key}) on a `log` line")
    return policy


PAGE = 16  # cosigned checkpoints read at a time, newest first


@dataclass(frozen=True)
class QuorumStatus:
    """Whether the log's newest checkpoints reach the quorum: `met` when the newest one cosigned by a quorum is the
    newest signed, or was signed at most `stale_s` before it; `cosigned_size` (None: none yet) and how many leaves
    the newest signed checkpoint is ahead of it."""

    met: bool
    cosigned_size: int | None
    behind: int


class Witnessed:
    """A log's witness policy, and the newest checkpoint its quorum cosigned: what GET /v1/log/checkpoint serves and
    exports carry. Each process remembers the newest one it found (the floor of the next search) and the checkpoints
    found short of the quorum with the cosignatures they had, so a request checks only what is new."""

    def __init__(self, store: TransparencyStore, policy: Policy, stale_s: float = 30.0) -> None:
        self.store = store
        self.policy = policy
        self.stale_s = stale_s
        self._best: tuple[LogCheckpoint, str] | None = None
        self._short: dict[int, int] = {}  # size -> how many cosignature lines it had when found short

    def newest(self) -> tuple[LogCheckpoint, str] | None:
        """The newest checkpoint whose cosignatures meet the quorum, and its note with them; None if none."""
        if self.policy.quorum is None:  # `quorum none`: the newest checkpoint as it is
            latest = self.store.latest_checkpoint()
            return None if latest is None else (latest, latest.note)
        best = self._best
        floor = 0 if best is None else best[0].size
        below = None
        while True:
            page = self.store.cosigned_checkpoints(PAGE, floor, below)
            for checkpoint, lines in page:
                if self._short.get(checkpoint.size) == len(lines):
                    continue
                note = checkpoint.note + "".join(lines)
                try:
                    self.policy.check(note)
                except QuorumError:
                    self._short[checkpoint.size] = len(lines)
                    continue
                self._best = (checkpoint, note)
                return self._best
            if len(page) < PAGE:
                return best
            below = page[-1][0].size

    def status(self) -> QuorumStatus:
        """The quorum's status now (reads the store)."""
        latest = self.store.latest_checkpoint()
        cosigned = self.newest()
        if latest is None:
            return QuorumStatus(True, None, 0)
        if cosigned is None:
            return QuorumStatus(False, None, latest.size)
        lag = (datetime.fromisoformat(latest.signed_at)
               - datetime.fromisoformat(cosigned[0].signed_at)).total_seconds()
        return QuorumStatus(lag <= self.stale_s, cosigned[0].size, latest.size - cosigned[0].size)


class Cosigning:
    """Sends the newest checkpoint to the policy's witnesses and keeps their cosignatures."""

    def __init__(self, store: TransparencyStore, consistency: Callable[[int, int], list[bytes]], policy: Policy, *,
                 timeout_s: float = 5.0, post: Post = http_post, lease_s: float = 30.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        # One collector at a time across processes: this one's name, and how long a round's claim holds.
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.lease_s = lease_s
        self.clock = clock
        self.consistency = consistency
        self.policy = policy
        self.timeout_s = timeout_s
        self.post = post
        self.witnesses = [w for w in policy.witnesses.values() if w.url]
        self.held: dict[str, tuple[int, int]] = {}  # witness -> the (old, new) it refused: not sent again
        self.done: dict[str, int] = {}  # witness -> the size of the last cosignature kept by this process
        self.pool = ThreadPoolExecutor(max_workers=max(1, len(self.witnesses)), thread_name_prefix="turnstile-cosign")

    def round(self) -> dict[str, str]:
        """Send the newest checkpoint to every witness (side by side); each witness's outcome (none when another
        process holds the collector's lease)."""
        if not self.witnesses or not self.store.claim_cosigner(self.holder, self.clock(), self.lease_s):
            return {}
        latest = self.store.latest_checkpoint()
        if latest is None:
            return {}
        sizes = self.store.witness_sizes()
        futures = {w.name: self.pool.submit(self._submit, w, latest, sizes.get(w.name, 0)) for w in self.witnesses}
        outcomes = {}
        for name, future in futures.items():
            try:
                outcomes[name] = future.result()
            except Exception:  # logged; the next round tries again
                log.exception("asking witness %s to cosign failed", name)
                outcomes[name] = "error"
            metrics.WITNESS_REQUESTS.labels(name, outcomes[name]).inc()
        return outcomes

    def _submit(self, witness: PolicyWitness, latest: LogCheckpoint, old: int, retried: bool = False) -> str:
        name = witness.name
        if old == latest.size and self.done.get(name) == old or self.held.get(name) == (old, latest.size):
            return "idle"
        if old > latest.size:
            return self._alarm(witness, "rollback", f"the witness cosigned a tree of {old} leaves, this log's newest "
                                                    f"checkpoint has {latest.size}: was the log rolled back?",
                               (old, latest.size))
        proof = [] if old == 0 else self.consistency(old, latest.size)
        body = (f"old {old}\n" + "".join(base64.b64encode(h).decode() + "\n" for h in proof) + "\n"
                + latest.note).encode()
        reply = self.post(str(witness.url).rstrip("/") + "/add-checkpoint", body, self.timeout_s)
        if reply.status == 200:
            return self._keep(witness, latest, reply.body)
        if reply.status == 409 and reply.content_type.split(";")[0].strip() == SIZE_TYPE:
            told = reply.body.strip()
            if not told.isdigit() or retried:
                log.warning("witness %s answered 409 with size %r (not a size, or again after a re-sync)", name,
                            told[:40])
                return "conflict"
            self.store.set_witness_size(name, int(told))
            return self._submit(witness, latest, int(told), retried=True)
        if reply.status in (409, 422):
            return self._alarm(witness, "fork", f"the witness refused checkpoint {latest.size} from size {old} "
                                                f"({reply.status}: {reply.body.strip()[:200]})", (old, latest.size))
        if reply.status == 0:
            log.warning("witness %s did not answer (%s)", name, reply.body)
            return "hung" if reply.body == "hung" else "down"
        log.warning("witness %s answered %d: %s", name, reply.status, reply.body.strip()[:200])
        return f"http-{reply.status // 100}xx"

    def _keep(self, witness: PolicyWitness, latest: LogCheckpoint, body: str) -> str:
        lines = "".join(f"{line}\n" for line in body.split("\n") if line.startswith(DASH))
        try:
            witness.verifier.open(latest.note + lines)
        except NoteError as exc:
            return self._alarm(witness, "bad-cosignature", f"its answer is not a valid cosignature: {exc}",
                               (self.store.witness_sizes().get(witness.name, 0), latest.size))
        mine = "".join(f"{DASH}{name} {sig}\n" for name, sig in split_note("x\n\n" + lines)[1]
                       if name == witness.verifier.name and _key_id(sig) == witness.verifier.key_hash)
        self.store.add_cosignature(witness.name, latest.size, mine)
        self.done[witness.name] = latest.size
        return "cosigned"

    def _alarm(self, witness: PolicyWitness, reason: str, message: str, pair: tuple[int, int]) -> str:
        log.critical("WITNESS ALARM (%s) from witness %s: %s; not sending this checkpoint to it again", reason,
                     witness.name, message)
        metrics.WITNESS_ALARMS.labels(witness.name, reason).inc()
        self.held[witness.name] = pair
        return reason

    def close(self) -> None:
        """Stop the request threads (a request under way ends within the timeout)."""
        self.pool.shutdown(wait=False, cancel_futures=True)


def _key_id(signature: str) -> bytes:
    """The 4-byte key id a signature line's base64 starts with (b"" when it is not base64)."""
    try:
        return decode_b64(signature, "a signature")[:4]
    except NoteError:
        return b""


class CosigningThread:
    """Runs `Cosigning.round` every `interval_s` on a thread of its own."""

    def __init__(self, cosigning: Cosigning, interval_s: float) -> None:
        self.cosigning = cosigning
        self.interval_s = interval_s
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="turnstile-cosigning", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.wait(self.interval_s):
            try:
                self.cosigning.round()
            except Exception:  # logged; the next round tries again
                log.exception("collecting cosignatures failed")

    def close(self) -> None:
        """Stop the thread."""
        self.stopping.set()
        self.thread.join(timeout=10)
        self.cosigning.close()
