"""Social-network entries of a profile as safe public links."""

import re
from typing import TypedDict
from urllib.parse import urlparse

NETWORKS = (
    ("instagram", "Instagram", "https://instagram.com/{}"),
    ("facebook", "Facebook", "https://facebook.com/{}"),
    ("linkedin", "LinkedIn", "https://linkedin.com/company/{}"),
)
HANDLE_RE = re.compile(r"^@?([\w.\-]{1,60})$")


class SocialLink(TypedDict):
    """One network to link to from a public page."""

    network: str
    label: str
    url: str


def social_url(template: str, value: str) -> str:
    """The link for a saved entry: an http(s) URL as it is, a handle ('@hotel') on the network's site, else ''."""
    value = (value or "").strip()
    if not value:
        return ""
    handle = HANDLE_RE.match(value)
    if handle:
        return template.format(handle.group(1))
    parsed = urlparse(value)
    return value if parsed.scheme in {"http", "https"} and parsed.netloc else ""


def social_links(networks: object) -> list[SocialLink]:
    """The profile's networks that have a usable link, in a fixed order."""
    saved = networks if isinstance(networks, dict) else {}
    links = []
    for key, label, template in NETWORKS:
        url = social_url(template, str(saved.get(key) or ""))
        if url:
            links.append(SocialLink(network=key, label=label, url=url))
    return links
