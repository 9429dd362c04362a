"""Fixed lists of the product: cities, categories, industries, plans and constants (docs/product/README.md)."""

from dataclasses import dataclass
from decimal import Decimal

from core.formatting import PROFESSIONAL, counted
from core.shift_rules import TEAM_SIZE

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


@dataclass(frozen=True)
class Plan:
    """A company subscription plan as sold on /pricing and in the dashboard (docs/product/money.md §9).

    Attributes:
        slug: Stable identifier ('free', 'premium', 'enterprise'); the checkout request's plan.
        name: The plan's name shown to users.
        price: Monthly price in reais (0 for the free plan).
        tagline: One line saying whom the plan is for.
        features: The plan's advertised features, in order.
        highlighted: Whether the card is marked 'Mais Popular'.
        active_job_limit: Most open or in-progress jobs at once (None: no such limit).
        monthly_job_limit: Most jobs created per calendar month (None: no such limit).
    """

    slug: str
    name: str
    price: Decimal
    tagline: str
    features: tuple[str, ...]
    highlighted: bool = False
    active_job_limit: int | None = None
    monthly_job_limit: int | None = None

    @property
    def is_free(self) -> bool:
        """Whether the plan costs nothing."""
        return self.price == 0


def team_feature(slug: str) -> str:
    """The plan's 'Minha equipe' line on /pricing, from the limit the service enforces (`TEAM_SIZE`).

    Args:
        slug: The plan's slug.

    Returns:
        'Minha equipe: até 10 profissionais', or 'Minha equipe: sem limite de profissionais'.
    """
    limit = TEAM_SIZE[slug]
    return (
        f"Minha equipe: sem limite de {PROFESSIONAL[1]}"
        if limit is None
        else f"Minha equipe: até {counted(limit, *PROFESSIONAL)}"
    )


PLANS: tuple[Plan, ...] = (
    Plan(
        slug="free",
        name="Gratuito",
        price=Decimal("0"),
        tagline="Para começar a contratar sem custo.",
        features=("Até 2 vagas ativas", team_feature("free"), "Freelancers verificados", "Suporte por email"),
        active_job_limit=2,
    ),
    Plan(
        slug="premium",
        name="Premium",
        price=Decimal("59.90"),
        tagline="Para empresas com demanda constante.",
        features=(
            "Até 15 vagas publicadas por mês",
            team_feature("premium"),
            "Destaque nas listagens",
            "Suporte por chat",
            "Histórico de freelancers contratados",
        ),
        highlighted=True,
        monthly_job_limit=15,
    ),
    Plan(
        slug="enterprise",
        name="Enterprise",
        price=Decimal("119.00"),
        tagline="Para operações de grande porte.",
        features=(
            "Até 30 vagas publicadas por mês",
            team_feature("enterprise"),
            "Integrações personalizadas",
            "Relatórios avançados",
            "Consultoria prioritária",
        ),
        monthly_job_limit=30,
    ),
)

PLAN_CONDITIONS: tuple[str, ...] = (
    "Pagamento mensal por cartão ou boleto.",
    "Plano anual com 2 meses grátis.",
    "Vagas não cumulativas: as vagas não utilizadas expiram ao fim de cada ciclo.",
    "Cancelamento gratuito a qualquer momento.",
    "Upgrades e downgrades passam a valer no próximo ciclo de cobrança.",
)

TRIAL_DAYS = 7
# How a vaga is paid, stated before anyone applies (docs/product/money.md "Pagamento"), from its `jobs.pagamento`
# (alembic 0019): 'direto' (the company pays the freelancer itself) or 'garantido' (the company pays
# when it accepts, the money waits on the Turno and goes to the freelancer once the hours are approved:
# services/money/). Its page, its apply form and its first paint say which.
PAYMENT_DIRECT = "Pagamento direto pela empresa — sem garantia do Turno"
PAYMENT_DIRECT_NOTE = "O Turno registra as horas e o valor; a empresa paga você diretamente, como combinado no chat."
PAYMENT_GUARANTEED = "Pagamento garantido pelo Turno"
PAYMENT_GUARANTEED_NOTE = (
    "A empresa paga ao aceitar sua candidatura; o valor fica guardado no Turno e é enviado para você "
    "depois das horas aprovadas."
)
PAYMENT_GUARANTEED_BADGE = "Pagamento garantido"  # the job list's badge and its filter
# A vaga's optional attire and items (`jobs.o_que_levar`, alembic 0027): the publish form's label, and
# the line its page, first paint, apply form and shift cards show when the company filled it in.
BRING_LABEL = "Traje e o que levar"
REFUND_DAYS = 7
PAYMENT_METHODS: tuple[str, ...] = ("Cartão de crédito", "Cartão de débito", "Boleto bancário", "PIX")

PLAN_ADD_ONS: tuple[tuple[str, str], ...] = (
    ("Certificação premium", "Selo de empresa certificada no seu perfil e nas suas vagas."),
    ("Divulgação nas redes sociais", "Suas vagas promovidas nos nossos perfis nas redes sociais."),
    ("Recomendação por IA", "Sugestão automática dos freelancers mais compatíveis com cada vaga."),
    ("Consultoria trabalhista", "Apoio especializado para contratar em conformidade com a legislação trabalhista."),
)


def plan_by_slug(slug: str) -> Plan | None:
    """Return the plan with this slug, or None."""
    return next((plan for plan in PLANS if plan.slug == slug), None)
