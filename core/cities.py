"""Brazil's municipalities (IBGE): the list people choose their city from, and reading a typed city.

The list ships with the repo (core/data/municipios.csv: IBGE code, name, UF and whether it is a state
capital; from github.com/kelvins/municipios-brasileiros, MIT licence, core/data/LICENSE-municipios-brasileiros).
A city is stored as its IBGE code plus its display name, 'Curitiba, PR' (docs/product/validation.md, "Cities").

- `suggest` answers the city box as a person types: accent- and case-insensitive, whole name first,
  then names starting with the text, then names with a later word starting with it; capitals first.
- `resolve` reads what a form sent: the display name ('Curitiba, PR'), a typed 'Curitiba - PR' or
  'curitiba', and says which municipality it is, or why it cannot tell.
- `best_match` also forgives small typos; it is what existing free-text cities were moved to.
"""

import csv
import difflib
import re
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path

from core.text import fold

DATA_FILE = Path(__file__).parent / "data" / "municipios.csv"
SUGGESTIONS = 8
# 'Curitiba, PR', 'Curitiba - PR', 'Curitiba/PR', 'Curitiba (PR)': the state after the last separator.
_SEPARATED = re.compile(r"^(?P<name>.+?)\s*(?:,|\s-\s|\s–\s|/|\()\s*(?P<uf>[A-Za-z]{0,2})\)?\s*$")
# 'Curitiba PR': a last word of two letters may be the state, or part of the name.
_SPACED = re.compile(r"^(?P<name>.+?)\s+(?P<uf>[A-Za-z]{2})\s*$")
_COUNTRY = re.compile(r"\s*(?:,|\s-|\s–)\s*(?:brasil|brazil|br)\s*$", re.IGNORECASE)
TYPO_CUTOFF = 0.88
TYPED_MAX = 120  # longer than any name with its state ('Vila Bela da Santíssima Trindade, MT')


@dataclass(frozen=True)
class City:
    """One municipality: its IBGE code, name and state (UF)."""

    code: int
    name: str
    uf: str
    capital: bool

    @property
    def label(self) -> str:
        """How the product shows and stores it: 'São Paulo, SP'."""
        return f"{self.name}, {self.uf}"


class Unresolved(Enum):
    """Why a typed city is not one municipality."""

    UNKNOWN = "unknown"
    AMBIGUOUS = "ambiguous"


@dataclass(frozen=True)
class _Index:
    cities: tuple[City, ...]
    by_code: dict[int, City]
    keys: tuple[str, ...]  # folded names, same order as `cities`
    by_key: dict[str, tuple[City, ...]]
    states: frozenset[str]


@cache
def _index() -> _Index:
    """The list, read once per process (5,571 rows, about 1 MB in memory)."""
    with DATA_FILE.open(encoding="utf-8", newline="") as handle:
        cities = tuple(
            City(int(row["codigo_ibge"]), row["nome"], row["uf"], row["capital"] == "1")
            for row in csv.DictReader(handle)
        )
    keys = tuple(fold(city.name) for city in cities)
    by_key: dict[str, list[City]] = {}
    for key, city in zip(keys, cities, strict=True):
        by_key.setdefault(key, []).append(city)
    return _Index(
        cities,
        {city.code: city for city in cities},
        keys,
        {key: tuple(found) for key, found in by_key.items()},
        frozenset(city.uf for city in cities),
    )


def all_cities() -> tuple[City, ...]:
    """Every municipality, by IBGE code."""
    return _index().cities


def by_code(code: int | None) -> City | None:
    """The municipality with this IBGE code, if there is one."""
    return _index().by_code.get(code) if code else None


def _readings(text: str) -> list[tuple[str, str | None]]:
    """The ways to read a typed city, most likely first: (folded name, state or the start of one).

    The state is None when none was typed (the name may be unfinished); otherwise, even when it is
    empty after a comma, the whole name is before it. 'São Paulo, SP' → [('sao paulo', 'SP')];
    'Curitiba, P' → [('curitiba', 'P')] (a state being typed); 'sao pa' → [('sao pa', None),
    ('sao', 'PA')]: the first reading that finds a city wins, so 'sao pa' offers São Paulo and
    'Campinas SP' finds Campinas, SP.
    """
    text = _COUNTRY.sub("", (text or "")[:TYPED_MAX]).strip()
    states = _index().states
    separated = _SEPARATED.match(text)
    if separated and any(state.startswith(separated["uf"].upper()) for state in states):
        return [(fold(separated["name"]), separated["uf"].upper())]
    whole = (fold(text.rstrip(",/(–- ")), None)
    spaced = _SPACED.match(text)
    if spaced and spaced["uf"].upper() in states:
        return [whole, (fold(spaced["name"]), spaced["uf"].upper())]
    return [whole]


def _rank(key: str, typed: str, city: City) -> tuple[int, int, int, str] | None:
    """Where `city` (whose folded name is `key`) goes among the suggestions for `typed` (None: not at all).

    The whole name first, then names whose first words are the text ('santa' → Santa Fé), then names
    starting with it (Santana), then names with a later word starting with it (Rio Bonito for
    'bonito'); capitals first within each, then shorter names.
    """
    if key == typed:
        place = 0
    elif key.startswith(typed + " "):
        place = 1
    elif key.startswith(typed):
        place = 2
    elif f" {typed}" in key:
        place = 3
    else:
        return None
    return (place, 0 if city.capital else 1, len(key), key)


def _matches(typed: str, uf: str | None) -> list[City]:
    """The municipalities `typed` may be the start of, in suggestion order.

    Args:
        typed: The folded name typed so far.
        uf: None when no state was typed; else the state or its start, and `typed` is the whole name.
    """
    if uf is not None:
        return sorted(
            (city for city in _index().by_key.get(typed, ()) if city.uf.startswith(uf)),
            key=lambda city: (not city.capital, city.uf),
        )
    index = _index()
    ranked = []
    for key, city in zip(index.keys, index.cities, strict=True):
        if typed not in key:  # most names: one substring test in C, no ranking
            continue
        rank = _rank(key, typed, city)
        if rank is not None:
            ranked.append((rank, city.uf, city))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [city for _, _, city in ranked]


@lru_cache(maxsize=4096)
def suggest(text: str, limit: int = SUGGESTIONS) -> tuple[City, ...]:
    """The municipalities to offer for what is typed so far (at most `limit`; none under 2 letters).

    Args:
        text: The text in the city box ('sao pa', 'Curitiba, P', 'campinas').
        limit: How many to offer.

    Returns:
        The cities in the order of `_rank`; a typed state narrows them.
    """
    for typed, uf in _readings(text):
        if len(typed) >= 2:
            found = _matches(typed, uf)
            if found:
                return tuple(found[:limit])
    return ()


def _exact(text: str) -> tuple[tuple[City, ...], str, str | None]:
    """The municipalities named exactly by the first reading that names any, with that reading."""
    readings = _readings(text)
    for typed, uf in readings:
        found = tuple(city for city in _index().by_key.get(typed, ()) if city.uf.startswith(uf or ""))
        if found:
            return found, typed, uf
    return (), *readings[0]


def resolve(text: str) -> City | Unresolved:
    """The municipality a form's city text names, exactly (accents and case aside).

    'Curitiba, PR', 'curitiba - pr' and 'Curitiba' (one municipality has the name) resolve;
    'Bonito' (four states have one) is AMBIGUOUS; anything else is UNKNOWN.
    """
    found, _, _ = _exact(text)
    if len(found) == 1:
        return found[0]
    return Unresolved.AMBIGUOUS if found else Unresolved.UNKNOWN


def city_code(location: str | None) -> int | None:
    """The IBGE code of a stored location ('Curitiba, PR'), None when it names no one municipality."""
    found = resolve(location or "")
    return found.code if isinstance(found, City) else None


def best_match(text: str) -> City | None:
    """The municipality free text most likely means, or None when it cannot be told.

    An exact name (with its state when given) wins; a name shared by several states goes to its
    state capital if one of them is; otherwise a near spelling ('Florianopoles, SC', 'Sao Paolo')
    within the state given, or anywhere when it is the only close one.
    """
    found, typed, uf = _exact(text)
    if len(found) == 1:
        return found[0]
    if found:
        capitals = [city for city in found if city.capital]
        return capitals[0] if len(capitals) == 1 else None
    index = _index()
    if len(typed) < 3:
        return None
    pool = {key for key, city in zip(index.keys, index.cities, strict=True) if city.uf.startswith(uf or "")}
    close = difflib.get_close_matches(typed, pool, n=2, cutoff=TYPO_CUTOFF)
    if not close:
        return None
    candidates = [city for city in index.by_key[close[0]] if city.uf.startswith(uf or "")]
    second_is_as_close = len(close) > 1 and difflib.SequenceMatcher(None, typed, close[1]).ratio() == (
        difflib.SequenceMatcher(None, typed, close[0]).ratio()
    )
    return candidates[0] if len(candidates) == 1 and not second_is_as_close else None
