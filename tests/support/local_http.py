"""The local HTTP server the fakes of remote services run on (push, WhatsApp, Stripe).

`serve(handler, owner)` starts one on 127.0.0.1 in a daemon thread; `shut(server)` stops it.
"""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LocalServer(ThreadingHTTPServer):
    """A threading HTTP server that keeps up with a burst of connections, as a remote service does.

    socketserver's listen backlog of 5 refused connections under the reminder burst (16 pushes in
    flight from each of two senders on a loaded machine: `ConnectionError` on 2 to 4 pushes of 50,
    which were then only retried 30 s later; 2026-11-29, docs/performance.md).
    """

    daemon_threads = True
    request_queue_size = 256
    owner: object = None  # the fake answering through this server (its handler reads it)


def serve(handler: type[BaseHTTPRequestHandler], owner: object = None, port: int = 0) -> LocalServer:
    """Serve `handler` on 127.0.0.1:`port` (0: a free one) in a daemon thread; `owner` is `server.owner`."""
    server = LocalServer(("127.0.0.1", port), handler)
    server.owner = owner
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


def shut(server: LocalServer | None) -> None:
    """Stop serving and free the port (None: nothing to stop)."""
    if server is not None:
        server.shutdown()
        server.server_close()
