"""``electsim app FILE``: the what-if panel as a local web page.

A small server of its own (the standard library's ``http.server``), not Voila: the page needs
no kernel and no notebook, starts in a fraction of a second, and shows no code; each change on
the page is one request that replays the variant here and answers with the outputs' HTML. It
listens on 127.0.0.1 only, prints its address, opens the browser unless ``--no-browser``, and
stops cleanly on Ctrl-C."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from simulator.analysis.panel.model import PanelState
from simulator.analysis.panel.page import answer_json, page_html
from simulator.cli.common import EXIT_OK, UsageError
from simulator.input.loader import load_scenario

HOST = "127.0.0.1"
#: the most a request body may hold (a change is a few hundred bytes)
MAX_BODY = 64 * 1024


def make_server(state: PanelState, port: int) -> ThreadingHTTPServer:
    """A server for the panel on 127.0.0.1:``port`` (0: any free port)."""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        server_version = "electsim-app"

        def log_message(self, format: str, *args: Any) -> None:  # quiet: one line per change
            return

        def _send(self, code: int, body: str, kind: str) -> None:
            data = body.encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            with lock:
                if path == "/":
                    self._send(200, page_html(state), "text/html")
                elif path == "/variant.yaml":
                    self._send(200, state.as_yaml(), "text/yaml")
                elif path == "/state.json":
                    self._send(200, answer_json(state, values=True), "application/json")
                else:
                    self._send(404, "not found\n", "text/plain")

        def do_POST(self) -> None:
            path = self.path.split("?", 1)[0]
            size = int(self.headers.get("Content-Length") or 0)
            if size > MAX_BODY:
                self._send(413, "too large\n", "text/plain")
                return
            try:
                body = json.loads(self.rfile.read(size) or b"{}")
            except ValueError:
                self._send(400, "expected JSON\n", "text/plain")
                return
            with lock:
                if path == "/set" and isinstance(body, dict) and isinstance(body.get("key"), str):
                    try:
                        state.set(body["key"], body.get("value"))
                    except Exception as err:  # the page shows it; the server goes on
                        state.error = f"{type(err).__name__}: {err}"
                    self._send(200, answer_json(state), "application/json")
                elif path == "/reset":
                    state.reset()
                    self._send(200, answer_json(state, values=True), "application/json")
                else:
                    self._send(404, "not found\n", "text/plain")

    return ThreadingHTTPServer((HOST, port), Handler)


def cmd_app(args: argparse.Namespace) -> int:
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
