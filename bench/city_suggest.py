"""The city box: suggestions per keystroke and the best match of free text, against a bare scan.

What a person costs the server while typing a city is one `core.cities.suggest(text)` per change
(components/city_field.py): a scan of the 5,571 municipalities with ranking. It is measured
uncached (`suggest.__wrapped__`, as for a text nobody typed before) over every prefix, from two
letters, of 40 city names as people write them (no accents, lower case, some with ', UF'). The
baseline, in the same run over the same prefixes: the bare loop any suggestion needs, one
`startswith` per folded name, nothing ranked. Also `best_match` (what alembic 0017 runs once per
distinct stored location) over 200 free texts, against `resolve` (the exact reading) of the same.

Prints one line per measurement and 'RESULT <json>' last. BENCH_QUICK=1: 8 names, 40 texts.
"""

import json
import statistics
import time

from bench import harness
from core import cities
from core.text import fold

QUICK = harness.quick()
NAMES = [
    "sao paulo", "rio de janeiro", "belo horizonte", "curitiba, pr", "porto alegre", "salvador", "recife",
    "fortaleza", "brasilia", "manaus", "goiania", "belem", "campinas sp", "florianopolis", "vitoria",
    "natal", "joao pessoa", "maceio", "teresina", "sao luis", "campo grande, ms", "cuiaba", "aracaju",
    "santos", "niteroi", "londrina", "joinville", "ribeirao preto", "uberlandia", "sorocaba",
    "juiz de fora", "caxias do sul", "santa maria", "bonito, ms", "paraty", "gramado", "ouro preto",
    "foz do iguacu", "balneario camboriu", "porto seguro",
]  # fmt: skip
FREE_TEXTS = [
    "São Paulo - SP", "Rio de Janeiro/RJ", "curitiba", "Florianopoles", "Belem", "Sao Paolo", "Remoto",
    "Santa Maria", "Campinas SP", "Porto Alegre, RS, Brasil",
]  # fmt: skip


def _prefixes(names: list[str]) -> list[str]:
    return [name[:end] for name in names for end in range(2, len(name) + 1)]


def _bare_scan(text: str) -> int:
    """The floor: one startswith per folded name, nothing ranked or sorted."""
    typed = fold(text)
    return sum(1 for key in cities._index().keys if key.startswith(typed))


def _per_call_ms(function, texts: list[str], rounds: int = 3) -> float:
    """The median over `rounds` of the mean time per call over `texts`, in milliseconds."""
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        for text in texts:
            function(text)
        samples.append((time.perf_counter() - started) / len(texts) * 1000)
    return statistics.median(samples)


def main() -> dict:
    """Measure and print; returns the figures."""
    cities.all_cities()  # the list read once, outside the timings
    names = NAMES[:8] if QUICK else NAMES
    texts = _prefixes(names)
    free = (FREE_TEXTS * 20)[: 40 if QUICK else 200]
    result = {
        "municipalities": len(cities.all_cities()),
        "keystrokes": len(texts),
        "suggest_ms": _per_call_ms(cities.suggest.__wrapped__, texts),
        "bare_scan_ms": _per_call_ms(_bare_scan, texts),
        "suggested": sum(len(cities.suggest.__wrapped__(text)) for text in texts),
        "free_texts": len(free),
        "best_match_ms": _per_call_ms(cities.best_match, free),
        "resolve_ms": _per_call_ms(cities.resolve, free),
        "matched": sum(cities.best_match(text) is not None for text in free),
    }
    result["suggest_ratio"] = result["suggest_ms"] / result["bare_scan_ms"]
    result["best_match_ratio"] = result["best_match_ms"] / result["resolve_ms"]
    print(
        f"city suggestions: {result['suggest_ms']:.2f} ms per keystroke over {result['municipalities']} "
        f"municipalities ({result['keystrokes']} prefixes), bare scan {result['bare_scan_ms']:.2f} ms, "
        f"ratio {result['suggest_ratio']:.2f}x"
    )
    print(
        f"best match of free text: {result['best_match_ms']:.2f} ms per text ({result['matched']} of "
        f"{result['free_texts']} matched), exact reading {result['resolve_ms']:.3f} ms, "
        f"ratio {result['best_match_ratio']:.0f}x"
    )
    print("RESULT " + json.dumps(result))
    return result


if __name__ == "__main__":
    main()
