"""The one parse of a push endpoint (`push_target`), at registration and again before each push.

The connection goes to the host and port it read, and the request line carries its path, so no
other URL parser ever reads the address a browser chose. In production only a push service named
in PUSH_HOSTS is accepted; outside it also the tests' local fake.
"""

import re
from functools import lru_cache
from typing import NamedTuple

from core.settings import get_settings


class _Target(NamedTuple):
    """Where a push goes, read once from its endpoint: the connection and the request line are made of these."""

    scheme: str  # "https" ("http" only for a local fake outside production)
    host: str  # lowercase ASCII: a DNS name under PUSH_HOSTS, or "127.0.0.1"/"localhost" outside production
    port: int
    path: str  # the request target: path and query, exactly as registered

    @property
    def origin(self) -> str:
        """The push service's origin (RFC 6454; the VAPID `aud`): no port when it is the scheme's own."""
        default = 443 if self.scheme == "https" else 80
        return f"{self.scheme}://{self.host}" + ("" if self.port == default else f":{self.port}")


# The whole grammar an endpoint may have: scheme, a host of letters, digits, dots and hyphens, an
# optional port, then a path (and query) of URL characters. No userinfo ('@'), backslash, fragment,
# space, control or non-ASCII character anywhere, and no '%' in the authority: where parsers read
# such an address differently (urlsplit against urllib3 on `\@`), the address is refused.
_ENDPOINT = re.compile(
    r"(?P<scheme>https?)://(?P<host>[a-z0-9.-]{1,253})(?::(?P<port>[1-9][0-9]{0,4}))?"
    r"(?P<path>/(?!/)[A-Za-z0-9._~!$&'()*+,;=:/?%-]*)"
)


_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_PERCENT = re.compile(r"(?:[^%]|%[0-9A-Fa-f]{2})*")  # every '%' starts an escape (the path's; WNS tokens have them)
_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
MAX_ENDPOINT = 1000


def _dns_name(host: str) -> bool:
    """Whether `host` is a plain DNS name of lowercase letters, digits and hyphens.

    No empty label (so no trailing dot), no IDNA ('xn--', or any label with '--' as its third and
    fourth characters) and not an IPv4 literal (a last label of digits).
    """
    labels = host.split(".")
    return all(_LABEL.fullmatch(label) and label[2:4] != "--" for label in labels) and not labels[-1].isdigit()


@lru_cache(maxsize=4)
def _known_hosts(push_hosts: str) -> tuple[tuple[str, str], ...]:
    """PUSH_HOSTS as (host, '.' + host) pairs: a push's address is read again before each push."""
    hosts = [item.strip().lower() for item in push_hosts.split(",") if item.strip()]
    return tuple((host, "." + host) for host in hosts)


def push_target(endpoint: str) -> _Target | None:
    """The one parse of an endpoint a browser sent, or None when the server must not POST there.

    Production rules: exactly `https://<host>[:443]/<path>`, the host a DNS name equal to one of
    PUSH_HOSTS or under one. Outside production `http://127.0.0.1:<port>/...` and
    `http://localhost:<port>/...` are allowed too (the tests' fake push service), parsed just as
    strictly. A percent escape is allowed in the path (Windows' push addresses carry them in their
    token) since the path only travels in the request line to the host read here; never in the
    authority.

    Args:
        endpoint: The address as the browser sent it (or as a device row keeps it).
    """
    if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT:
        return None
    found = _ENDPOINT.fullmatch(endpoint)
    if found is None or not _PERCENT.fullmatch(found["path"]):
        return None
    scheme, host, path = found["scheme"], found["host"], found["path"]
    port = int(found["port"] or (443 if scheme == "https" else 80))
    settings = get_settings()
    if scheme == "http":
        local = not settings.is_production and host in _LOCAL_HOSTS and port <= 65535
        return _Target(scheme, host, port, path) if local else None
    listed = any(host == item or host.endswith(under) for item, under in _known_hosts(settings.push_hosts))
    return _Target(scheme, host, port, path) if port == 443 and _dns_name(host) and listed else None


def allowed_endpoint(endpoint: str) -> bool:
    """Whether we may POST to `endpoint` (`push_target` reads it): a push service's address, never another host.

    The address comes from the browser, so it is checked like any URL the server would fetch for a
    user: anything else (an internal address, another site, an address parsers read differently)
    is refused.
    """
    return push_target(endpoint) is not None
