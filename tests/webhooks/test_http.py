"""One POST to a receiver: redirects not followed, a trickling or silent receiver cut at the deadline, signed."""

from __future__ import annotations

import hashlib
import hmac
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from service.outbox.webhook_http import READ_CAP, post, sign


class Odd(BaseHTTPRequestHandler):
    """Answers by path: a redirect, a huge body, a trickle of headers."""

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:9/elsewhere")
            self.end_headers()
        elif self.path == "/huge":
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"x" * (4 * READ_CAP))
        elif self.path == "/trickle":
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            for _ in range(40):  # a header line every 0.1 s: no single read ever waits long
                self.wfile.write(b"X-Slow: yes\r\n")
                self.wfile.flush()
                time.sleep(0.1)

    def log_message(self, *args: Any) -> None:
        """Quiet."""


@pytest.fixture(scope="module")
def odd() -> Iterator[str]:
    """The odd receiver's base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Odd)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_redirect_is_a_failure_not_followed(odd: str) -> None:
    answer = post(f"{odd}/redirect", b"{}", {}, timeout_s=2, allow_private=True)
    assert answer.status == 302 and "redirects are not followed" in (answer.error or "")


def test_a_huge_answer_is_read_only_up_to_the_cap(odd: str) -> None:
    answer = post(f"{odd}/huge", b"{}", {}, timeout_s=2, allow_private=True)
    assert answer.status == 500 and answer.error is not None and len(answer.error) < 300


def test_a_trickling_receiver_is_cut_at_the_deadline(odd: str) -> None:
    began = time.monotonic()
    answer = post(f"{odd}/trickle", b"{}", {}, timeout_s=0.5, allow_private=True)
    assert answer.status is None and "no answer within 0.5 s" in (answer.error or "")
    assert time.monotonic() - began < 3  # not the 4 s the trickle would take


def test_a_silent_receiver_times_out() -> None:
    listener = socket.create_server(("127.0.0.1", 0))  # accepts (backlog) and never answers
    try:
        answer = post(f"http://127.0.0.1:{listener.getsockname()[1]}/", b"{}", {}, timeout_s=0.3,
                      allow_private=True)
        assert answer.status is None and "no answer within 0.3 s" in (answer.error or "")
    finally:
        listener.close()


def test_a_loopback_receiver_is_refused_at_send_time_unless_allowed(odd: str) -> None:
    answer = post(f"{odd}/redirect", b"{}", {}, timeout_s=1, allow_private=False)
    assert answer.status is None and (answer.error or "").startswith("refused:")


def test_the_signature_is_hmac_sha256_of_the_timestamp_and_body() -> None:
    body = b'{"kind":"turn"}'
    digest = hmac.new(b"whsec_k", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert sign("whsec_k", 1700000000, body) == f"t=1700000000,v1={digest}"
    assert sign("whsec_k", 1700000001, body) != sign("whsec_k", 1700000000, body)
