"""Fixed lists of the product: cities, categories, industries, plans and constants (SPEC §9)."""

CITIES: tuple[str, ...] = (
    "São Paulo",
    "Rio de Janeiro",
    "Brasília",
    "Salvador",
    "Fortaleza",
    "Belo Horizonte",
    "Manaus",
    "Curitiba",
    "Recife",
    "Porto Alegre",
)

CATEGORIES: dict[str, str] = {
    "hotel": "Hotelaria",
    "gastronomia": "Gastronomia",
    "restaurante": "Restaurante",
    "eventos": "Eventos",
    "musica": "Música",
    "fotografia": "Fotografia",
    "design": "Design",
    "outros": "Outros",
}

CATEGORY_ALIASES: dict[str, str] = {
    "gastronomy": "gastronomia",
    "restaurant": "restaurante",
    "events": "eventos",
}

INDUSTRIES: dict[str, str] = {
    "hotel": "Hotelaria",
    "gastronomy": "Gastronomia",
    "restaurant": "Restaurante",
    "events": "Eventos",
    "other": "Outro",
}

CONTACT_SUBJECTS: dict[str, str] = {
    "general": "Dúvida geral",
    "support": "Suporte técnico",
    "partnerships": "Parcerias",
    "billing": "Pagamentos e assinaturas",
    "other": "Outro assunto",
}

JOBS_PAGE_SIZE = 10
PASSWORD_MIN = 8
UNREAD_BADGE_CAP = 9
CONTACT_SUCCESS_SECONDS = 3


def canonical_category(slug: str) -> str | None:
    """Return the canonical category slug for `slug` (English aliases included), or None."""
    slug = (slug or "").strip().lower()
    slug = CATEGORY_ALIASES.get(slug, slug)
    return slug if slug in CATEGORIES else None
