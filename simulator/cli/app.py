"""``electsim app FILE``: the what-if panel as a local web page.

A small server of its own (the standard library's ``http.server``), not Voila: the page needs
no kernel and no notebook, starts in a fraction of a second, and shows no code; each change on
the page is one request that replays the variant here and answers with the outputs' HTML. It
listens on 127.0.0.1 only, prints its address, opens the browser unless ``--no-browser``, and
stops cleanly on Ctrl-C.

What it accepts (docs/cli.md says it in words): a request whose ``Host`` is its own address
(127.0.0.1 or localhost with its port; anything else is a name some other site has pointed at
this computer, answered 421); a change (``POST /set``, ``/reset``, ``/add``, ``/remove``)
only as ``application/json`` of at most :data:`MAX_BODY` bytes with a ``Content-Length``, from
the page itself (an ``Origin``, when given, of the server's own, and the token this server
gave its page in an ``X-Electsim-Token`` header: a form or a script of another site has
neither). Every answer forbids framing and sniffing, and the page's own answer names the only
style sheet and script it may run. A request that stalls is dropped after :data:`TIMEOUT`
seconds; a malformed one is answered with an HTTP error, never with a trace on the terminal."""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import webbrowser
from typing import TYPE_CHECKING, Any

from simulator.analysis.panel.model import PanelState
from simulator.analysis.panel.page import answer_json, page_html
from simulator.cli.common import EXIT_OK, UsageError
from simulator.input.loader import load_scenario

if TYPE_CHECKING:
    from http.server import ThreadingHTTPServer

HOST = "127.0.0.1"
#: the most a request body may hold (a change is a few hundred bytes)
MAX_BODY = 64 * 1024
#: seconds a connection may wait for the next part of its request before it is dropped
TIMEOUT = 10.0
#: the header the page sends the server's token in
TOKEN_HEADER = "X-Electsim-Token"

_DIGITS = re.compile(r"[0-9]{1,20}")


class _Refused(Exception):
    """A request the server answers with an HTTP error: the status and the reason in words."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def _policy(nonce: str) -> str:
    """The page's content security policy: its own style sheet and script (by their nonce),
    requests to this server only, no frame around it, no form, no plugin, no base."""
    return (
        "default-src 'self'; "
        f"script-src 'nonce-{nonce}'; "
        f"style-src 'nonce-{nonce}'; "
        "connect-src 'self'; "
        "object-src 'none'; "
        "base-uri 'none'; "
        "form-action 'none'; "
        "frame-ancestors 'none'"
    )


#: the policy of every answer but the page (data, not a document: nothing may run in it)
_DATA_POLICY = "default-src 'none'; frame-ancestors 'none'"


def make_server(state: PanelState, port: int, *, timeout: float = TIMEOUT) -> ThreadingHTTPServer:
    """A server for the panel on 127.0.0.1:``port`` (0: any free port); a connection that
    waits ``timeout`` seconds for the next part of its request is dropped.

    The web server's modules (``http.server``, ``secrets``) are imported here, by the one
    command that serves: a replay does without them."""
    import secrets
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Server(ThreadingHTTPServer):
        """An error in a request's thread ends that request, in silence (the request has had
        its answer, or its client has gone); nothing is printed."""

        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            return

    lock = threading.Lock()
    token = secrets.token_urlsafe(32)
    wait = timeout
    #: the Host headers a browser sends for this server, and the origins of its page: filled
    #: in once the server has its port
    hosts: set[str] = set()
    origins: set[str] = set()

    class Handler(BaseHTTPRequestHandler):
        server_version = "electsim-app"

        timeout = wait  # (StreamRequestHandler sets it on each connection's socket)

        def setup(self) -> None:
            self.policy = _DATA_POLICY
            super().setup()

        def log_message(self, format: str, *args: Any) -> None:  # quiet: no line per request
            return

        def version_string(self) -> str:  # (not Python's version)
            return self.server_version

        def end_headers(self) -> None:
            # on every answer, the server's own errors (a bad request line, an unknown method)
            # as well as the panel's
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Content-Security-Policy", self.policy)
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def _send(self, code: int, body: str, kind: str) -> None:
            data = body.encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)

        def _answer(self, serve: Any) -> None:
            """Run ``serve`` (a GET or a POST): a refusal answered with its status and reason
            in words, any other error with 500, never with a trace."""
            try:
                self._check_host()
                serve()
            except _Refused as refused:
                self.close_connection = True  # (a body left unread must not pass for a request)
                self._send(refused.status, refused.reason + "\n", "text/plain")
            except (TimeoutError, ConnectionError):
                raise  # the client is gone or stalled: nothing to answer
            except Exception as err:
                self.close_connection = True
                self._send(500, f"the server failed: {type(err).__name__}\n", "text/plain")

        def _check_host(self) -> None:
            host = (self.headers.get("Host") or "").strip().lower()
            if host not in hosts:
                raise _Refused(
                    421,
                    f"this server answers only for Host: {' or '.join(sorted(hosts))} "
                    f"(found {host[:100]!r})",
                )

        def _check_change(self) -> dict[str, Any]:
            """The body of a change, once the request shows that the page sent it."""
            origin = self.headers.get("Origin")
            if origin is not None and origin.strip().lower() not in origins:
                raise _Refused(403, "a change is accepted only from the panel's own page")
            site = self.headers.get("Sec-Fetch-Site")
            if site is not None and site.strip().lower() not in ("same-origin", "none"):
                raise _Refused(403, "a change is accepted only from the panel's own page")
            given = self.headers.get(TOKEN_HEADER) or ""
            if not secrets.compare_digest(given.encode("utf-8", "replace"), token.encode()):
                raise _Refused(403, f"a change needs the panel's token ({TOKEN_HEADER})")
            kind = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                raise _Refused(415, "a change is sent as application/json")
            return self._body()

        def _body(self) -> dict[str, Any]:
            if self.headers.get("Transfer-Encoding") is not None:
                raise _Refused(411, "a change is sent with a Content-Length, not in chunks")
            lengths = self.headers.get_all("Content-Length") or []
            if not lengths:
                raise _Refused(411, "a change is sent with a Content-Length")
            if len(set(lengths)) > 1 or not _DIGITS.fullmatch(lengths[0].strip()):
                raise _Refused(400, "Content-Length: expected a number of bytes")
            size = int(lengths[0].strip())
            if size > MAX_BODY:
                raise _Refused(413, f"a change is at most {MAX_BODY:,} bytes; found {size:,}")
            data = self.rfile.read(size)
            if len(data) < size:
                raise _Refused(400, "the body is shorter than its Content-Length")
            try:
                body = json.loads(data.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                raise _Refused(400, "expected a JSON object") from None
            if not isinstance(body, dict):
                raise _Refused(400, "expected a JSON object")
            return body

        def do_GET(self) -> None:
            self._answer(self._get)

        def _get(self) -> None:
            path = self.path.split("?", 1)[0]
            with lock:
                if path == "/":
                    nonce = secrets.token_urlsafe(16)
                    self.policy = _policy(nonce)
                    page = page_html(state, token=token, nonce=nonce)
                    self._send(200, page, "text/html")
                elif path == "/variant.yaml":
                    self._send(200, state.as_yaml(), "text/yaml")
                elif path == "/state.json":
                    self._send(200, answer_json(state, values=True), "application/json")
                else:
                    self._send(404, "not found\n", "text/plain")

        def do_POST(self) -> None:
            self._answer(self._post)

        def _post(self) -> None:
            path = self.path.split("?", 1)[0]
            if path not in ("/set", "/reset", "/add", "/remove"):
                raise _Refused(404, "not found")
            body = self._check_change()
            if path == "/set" and not isinstance(body.get("key"), str):
                raise _Refused(400, 'expected {"key": the control, "value": its value}')
            if path == "/add" and not all(
                isinstance(body.get(k, ""), str)
                for k in ("type", "at", "candidate", "contest", "enough_time")
            ):
                raise _Refused(
                    400, 'expected {"type": the event, "at": its time, "candidate": a name}'
                )
            if path == "/remove" and not isinstance(body.get("id"), str):
                raise _Refused(400, 'expected {"id": the added event}')
            with lock:
                if path == "/reset":
                    state.reset()
                    answer = answer_json(state, values=True, controls=True)
                    self._send(200, answer, "application/json")
                    return
                try:
                    if path == "/set":
                        ok = state.set(body["key"], body.get("value"))
                    elif path == "/add":
                        ok = state.add(
                            body.get("type", ""),
                            body.get("at", ""),
                            candidate=body.get("candidate") or None,
                            contest=body.get("contest") or None,
                            enough_time=body.get("enough_time") or None,
                        )
                    else:
                        ok = state.remove(body["id"])
                except Exception as err:  # the page shows it; the server goes on
                    state.error, ok = f"{type(err).__name__}: {err}", False
                answer = answer_json(state, controls=ok and path != "/set")
                self._send(200, answer, "application/json")

    server = Server((HOST, port), Handler)
    bound = server.server_address[1]
    hosts.update((f"{HOST}:{bound}", f"localhost:{bound}"))
    if bound == 80:  # (the default port a browser leaves out)
        hosts.update((HOST, "localhost"))
    origins.update(f"http://{h}" for h in hosts)
    return server


def cmd_app(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: expected a port from 0 to 65535 (0: any free one)")
    scenario = load_scenario(args.file, max_bytes=args.max_bytes)
    state = PanelState(scenario)
    try:
        server = make_server(state, args.port)
    except OSError as err:
        raise UsageError(
            f"--port {args.port}: cannot listen on {HOST}:{args.port} ({err.strerror or err}); "
            "choose another port, or --port 0 for any free one"
        ) from None
    url = f"http://{HOST}:{server.server_address[1]}/"
    print(f"electsim app: {scenario.title}", flush=True)
    print(f"serving the what-if panel at {url} (Ctrl-C stops)", flush=True)
    if not args.no_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nelectsim app: stopped", file=sys.stderr)
    finally:
        server.server_close()
    return EXIT_OK
