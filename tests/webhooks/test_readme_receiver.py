"""The README's 15-line receiver, run as written (its secret swapped in) against real deliveries."""

from __future__ import annotations

import re
import threading
import time
from http.server import HTTPServer
from pathlib import Path
from typing import Any

from service.outbox.webhook_http import sign
from tests.webhooks.conftest import Hooked

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def readme_receiver(secret: str) -> dict[str, Any]:
    """The README's ```python block of the Webhooks section, executed with this secret."""
    section = README[README.index("## Webhooks\n"):]
    code = re.findall(r"```python\n(.*?)```", section, flags=re.S)[0]
    namespace: dict[str, Any] = {"__name__": "readme_receiver"}  # not __main__: it does not serve forever
    exec(code.replace('b"whsec_…"', repr(secret.encode())), namespace)  # noqa: S102
    return namespace


def test_the_readme_receiver_verifies_real_deliveries_and_refuses_forgeries(hooked: Hooked, capsys: Any) -> None:
    server: HTTPServer | None = None
    namespace: dict[str, Any] = {}
    try:
        namespace = readme_receiver("placeholder")
        server = HTTPServer(("127.0.0.1", 0), namespace["Receiver"])
        threading.Thread(target=server.serve_forever, daemon=True).start()
        hook = hooked.subscribe("app-readme", f"http://127.0.0.1:{server.server_address[1]}/",
                                ["match.created", "turn"])
        namespace["SECRET"] = hook.secret.encode()  # the README's receiver, holding this webhook's secret
        hooked.service.create("metro-x", ["a"], None, owner="app-readme")
        deadline = time.monotonic() + 20
        while len(namespace["seen"]) < 2:  # match.created and the first turn
            assert time.monotonic() < deadline, "the README's receiver accepted no delivery"
            time.sleep(0.05)
        # The sender records "delivered" once the receiver's answer is in: a moment after the receiver saw it.
        while not all(d.status == "delivered" for d in hooked.hooks.deliveries("app-readme", hook.id, 10)):
            assert time.monotonic() < deadline, "the README's receiver's answers were not recorded as delivered"
            time.sleep(0.05)
        assert "match.created" in capsys.readouterr().out
        body = b'{"kind":"turn"}'
        assert not namespace["verified"]("t=1,v1=" + "0" * 64, body)  # forged, and old
        good = sign(hook.secret, int(time.time()), body)
        assert namespace["verified"](good, body) and not namespace["verified"](good, body + b" ")
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
