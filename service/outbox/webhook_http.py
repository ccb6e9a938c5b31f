"""One webhook POST: the target checked and pinned, signed, a short deadline, no redirects, a capped answer."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

READ_CAP = 4096  # bytes of a receiver's answer read at most (only for the app to see why it failed)
USER_AGENT = "Turnstile-Webhooks/1"


class RefusedTarget(ValueError):
    """A URL that may not receive webhooks: not http(s), no host, or an address the operator has not allowed."""


@dataclass(frozen=True)
class Target:
    """Where a URL points: its parts, and the one checked address to connect to (no second lookup to rebind)."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


@dataclass(frozen=True)
class Answer:
    """What a receiver answered: a status, or why there was none; and how long it took."""

    status: int | None
    latency_ms: int
    error: str | None


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The `Turnstile-Signature` value: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


# IPv6 prefixes whose last 32 bits are an IPv4 address: IPv4-compatible (::/96, RFC 4291 2.5.5.1),
# IPv4-translated (::ffff:0:0:0/96, RFC 2765), NAT64 (64:ff9b::/96, RFC 6052; 64:ff9b:1::/48, RFC 8215).
EMBEDDING = tuple(ipaddress.ip_network(net) for net in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48"))


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, compatible, translated, NAT64, 6to4, Teredo), if any.

    Python 3.11 decodes only the mapped, 6to4 and Teredo forms and calls e.g. `64:ff9b::7f00:1` global: a receiver
    there reaches 127.0.0.1 through a NAT64 gateway, so each form is judged by the IPv4 address inside it."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:  # 2002::/16: the IPv4 address is bits 16-47
        return ip.sixtofour
    if ip.teredo is not None:  # 2001::/32: the client's IPv4 address is the last 32 bits, inverted
        return ip.teredo[1]
    if any(ip in net for net in EMBEDDING):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def allowed(address: str, allow_private: bool) -> bool:
    """Whether webhooks may go to this IP address: global ones always, others only when the operator allows; an IPv6
    address embedding an IPv4 one is judged by both."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if ip.is_multicast or ip.is_unspecified:
        return False
    if allow_private:
        return True
    inner = embedded_ipv4(ip) if isinstance(ip, ipaddress.IPv6Address) else None
    return ip.is_global and (inner is None or inner.is_global)


def target(url: str, allow_private: bool) -> Target:
    """The checked target of a webhook URL (its host resolved now); RefusedTarget saying why it cannot be one."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # e.g. "http://[": an IPv6 bracket never closed
        raise RefusedTarget(f"the URL cannot be read ({exc})") from None
    if parts.scheme not in ("http", "https"):
        raise RefusedTarget("the URL must be http:// or https://")
    if not parts.hostname:
        raise RefusedTarget("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise RefusedTarget("the URL may not hold a user name or password")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (ValueError, OSError) as exc:
        raise RefusedTarget(f"the host {parts.hostname!r} cannot be resolved ({exc})") from None
    addresses = [str(info[4][0]) for info in found]
    refused = [a for a in addresses if not allowed(a, allow_private)]
    if refused or not addresses:
        raise RefusedTarget(f"the host {parts.hostname!r} resolves to an address webhooks may not reach "
                            f"({', '.join(refused) or 'none'}): private, loopback and link-local ranges are refused")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, addresses[0])


class _Pinned(http.client.HTTPConnection):
    """HTTP to the checked address, whatever the name resolves to by now."""

    def __init__(self, to: Target, timeout: float) -> None:
        super().__init__(to.host, to.port, timeout=timeout)
        self.address = to.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    """HTTPS to the checked address, the certificate checked against the URL's host name."""

    def __init__(self, to: Target, timeout: float) -> None:
        super().__init__(to.host, to.port, timeout=timeout, context=ssl.create_default_context())
        self.address = to.address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: bytes, headers: dict[str, str], *, timeout_s: float, allow_private: bool) -> Answer:
    """POST `body` once: the whole exchange within `timeout_s`, redirects not followed, at most READ_CAP bytes read."""
    started = time.monotonic()

    def spent() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        to = target(url, allow_private)
    except RefusedTarget as exc:
        return Answer(None, spent(), f"refused: {exc}")
    conn = (_PinnedTLS if to.scheme == "https" else _Pinned)(to, timeout_s)
    # A receiver that trickles its answer byte by byte never times out a single read: cut the socket at the deadline.
    cut = threading.Event()
    deadline = threading.Timer(timeout_s, _cut, (conn, cut))
    deadline.start()
    try:
        conn.request("POST", to.path, body=body, headers={**headers, "User-Agent": USER_AGENT,
                                                          "Content-Type": "application/json"})
        response = conn.getresponse()
        answer = response.read(READ_CAP)
        if cut.is_set():  # what was read before the cut is no answer, whatever status it began with
            raise TimeoutError
        if 200 <= response.status < 300:
            return Answer(response.status, spent(), None)
        if 300 <= response.status < 400:
            return Answer(response.status, spent(), f"redirects are not followed (to {response.getheader('Location')})")
        return Answer(response.status, spent(), f"HTTP {response.status}: {answer[:200].decode(errors='replace')}")
    except (OSError, http.client.HTTPException) as exc:
        timed_out = isinstance(exc, TimeoutError) or cut.is_set()
        return Answer(None, spent(), f"no answer within {timeout_s:g} s" if timed_out else
                      f"{type(exc).__name__}: {exc}")
    finally:
        deadline.cancel()
        conn.close()


def _cut(conn: http.client.HTTPConnection, cut: threading.Event) -> None:
    """Shut the connection's socket down, waking a read blocked on it."""
    cut.set()
    sock = conn.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
