"""The client's real address, also behind the reverse proxy (deploy/Caddyfile).

Behind a proxy every request arrives from the proxy's own address (127.0.0.1 with the Caddyfile),
so limits keyed on the address (login throttling) would count every visitor as one. The proxy
appends the address it saw to `X-Forwarded-For`; that header is trusted only when the request came
from a configured trusted proxy (TRUSTED_PROXIES: addresses or networks, comma separated), since
anyone can send it. The chain is read from the right: every hop that is a trusted proxy is
skipped, and the first address that is not one is the client. Without TRUSTED_PROXIES the
connection's own address is the client, whatever the header says.
"""

import ipaddress
from functools import lru_cache

from core.settings import get_settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _trusted(spec: str) -> tuple[Network, ...]:
    """The networks of a TRUSTED_PROXIES value ('127.0.0.1, 10.0.0.0/8'); invalid entries are ignored."""
    networks = []
    for item in spec.split(","):
        try:
            networks.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            continue
    return tuple(networks)


def _is_trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str | None, forwarded_for: str | None) -> str:
    """The client's address: `peer`, or the nearest untrusted hop of `forwarded_for` when `peer` is a trusted proxy.

    Args:
        peer: The address the connection came from ('' or None when unknown).
        forwarded_for: The request's X-Forwarded-For header ('' when absent).

    Returns:
        The address to throttle and log by ('unknown' when there is none).
    """
    networks = _trusted(get_settings().trusted_proxies or "")
    address = (peer or "").strip() or "unknown"
    if not networks or not _is_trusted(address, networks):
        return address
    for hop in reversed([hop.strip() for hop in (forwarded_for or "").split(",") if hop.strip()]):
        address = hop
        if not _is_trusted(hop, networks):
            break
    return address[:64]
