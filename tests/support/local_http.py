"""The local HTTP server the fakes of remote services run on (push, WhatsApp, Stripe).

`serve(handler, owner)` starts one on 127.0.0.1 in a daemon thread; `shut(server)` stops it, and
drops the connections a keep-alive client still holds, as a service that goes down does.
"""

import contextlib
import socket
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

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        self.connections = 0  # connections accepted so far (a keep-alive client opens few)

    def process_request(self, request, client_address) -> None:
        """Serve a connection in its thread, remembering it until it ends (see `drop_connections`)."""
        with self._open_lock:
            self._open.add(request)
            self.connections += 1
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:
        """Forget a connection that ended, then close it."""
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def drop_connections(self) -> None:
        """End every connection still open: a keep-alive client's next request finds it closed."""
        with self._open_lock:
            still_open, self._open = list(self._open), set()
        for connection in still_open:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


def serve(handler: type[BaseHTTPRequestHandler], owner: object = None, port: int = 0) -> LocalServer:
    """Serve `handler` on 127.0.0.1:`port` (0: a free one) in a daemon thread; `owner` is `server.owner`."""
    server = LocalServer(("127.0.0.1", port), handler)
    server.owner = owner
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


def shut(server: LocalServer | None) -> None:
    """Stop serving, drop the connections still open and free the port (None: nothing to stop)."""
    if server is not None:
        server.shutdown()
        server.drop_connections()
        server.server_close()
