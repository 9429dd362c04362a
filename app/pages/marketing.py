"""Marketing pages: /categories, /how-it-works, /pricing and /freelancers."""

import reflex as rx

from app.layout import public_page
from components.categories import category_card
from components.content import MUTED, card_grid, check_list, feature_card, numbered_steps, section
from components.faq import faq
from components.links import link_button
from components.plans import plan_conditions, plans_grid, subscription_panel
from components.ui import page_heading
from core import routes
from core.catalog import (
    CATEGORIES,
    PAYMENT_METHODS,
    PLAN_ADD_ONS,
    REFUND_DAYS,
    TRIAL_DAYS,
)
from core.settings import get_settings
from states.auth import AuthState
from states.billing import BillingState

CATEGORY_DESCRIPTIONS = {
    "hotel": "Recepção, governança, camareiras e mensageiros.",
    "gastronomia": "Chefs, cozinheiros, confeiteiros e auxiliares de cozinha.",
    "restaurante": "Garçons, bartenders, hostess e atendimento de salão.",
    "eventos": "Recepcionistas, promotores, montagem e apoio em eventos.",
    "musica": "Músicos, DJs e técnicos de som para apresentações.",
    "fotografia": "Fotógrafos e cinegrafistas para eventos e produtos.",
    "design": "Design gráfico, decoração e ambientação de espaços.",
    "outros": "Limpeza, segurança, logística e outras funções.",
}


@public_page(routes.CATEGORIES, "Categorias")
def categories_page() -> rx.Component:
    """The eight categories as link cards to their pages."""
    return rx.box(
        page_heading(
            "Categorias",
            "Escolha uma área para ver as empresas que estão contratando freelancers agora.",
        ),
        rx.grid(
            *[
                category_card(slug, label, CATEGORY_DESCRIPTIONS[slug], heading_level="h2")
                for slug, label in CATEGORIES.items()
            ],
            columns=rx.breakpoints(initial="1", xs="2", md="4"),
            spacing="4",
            width="100%",
            id="lista-categorias",
        ),
        rx.text(
            "Procurando uma vaga específica? ",
            rx.link("Veja todas as vagas abertas", href=routes.JOBS),
            ".",
            margin_top="2rem",
        ),
        width="100%",
    )


COMPANY_STEPS = [
    ("Crie a conta da empresa", "Cadastre-se gratuitamente informando os dados da sua empresa."),
    ("Complete o perfil", "Adicione foto, endereço e uma descrição para transmitir confiança aos profissionais."),
    ("Publique uma vaga", "Descreva a função, a data, o local, o valor por hora e os benefícios oferecidos."),
    ("Avalie as candidaturas", "Compare perfis, habilidades e propostas e aceite os profissionais ideais."),
    ("Converse e avalie", "Combine os detalhes pelo chat e, ao final do trabalho, avalie o freelancer."),
]

FREELANCER_STEPS = [
    ("Cadastre-se grátis", "Crie sua conta de freelancer sem nenhum custo."),
    ("Monte seu perfil", "Informe sua profissão, habilidades, experiência e a cidade onde atua."),
    ("Encontre vagas", "Busque oportunidades por cidade, categoria ou palavra-chave."),
    ("Candidate-se", "Envie uma proposta personalizada, com mensagem e valor por hora, se quiser."),
    ("Trabalhe e seja avaliado", "Combine os detalhes pelo chat, realize o trabalho e receba avaliações."),
]

SECTORS = [
    ("hotel", "Hotelaria", "Profissionais para recepção, governança e atendimento a hóspedes."),
    ("gastronomia", "Gastronomia", "Chefs, cozinheiros e auxiliares para cozinhas de todos os portes."),
    ("eventos", "Eventos", "Equipes para casamentos, congressos, festas e feiras."),
]

HOW_IT_WORKS_FAQ = [
    (
        "Existe vínculo empregatício entre a empresa e o freelancer?",
        "Não. A plataforma aproxima empresas e profissionais autônomos para trabalhos temporários. "
        "Não há vínculo empregatício entre as partes, nem entre elas e a plataforma.",
    ),
    (
        "Os freelancers são verificados?",
        "Sim. Todo cadastro exige a confirmação do email, e os perfis trazem profissão, habilidades, "
        "experiência e as avaliações recebidas de outras empresas.",
    ),
    (
        "Como é feito o pagamento do freelancer?",
        "O valor e a forma de pagamento são combinados diretamente entre a empresa e o freelancer. "
        "A vaga informa o valor por hora (ou 'A combinar') e o freelancer pode enviar uma contraproposta.",
    ),
    (
        "Quanto custa usar a plataforma?",
        "Para freelancers, o cadastro e as candidaturas são gratuitos. Empresas podem usar o plano Gratuito, "
        "com até 2 vagas ativas, ou assinar um plano pago com mais vagas e recursos.",
    ),
    (
        "Como converso com a outra parte?",
        "Quando a empresa aceita uma candidatura, abre-se um chat entre a empresa e o freelancer para "
        "combinar horário, local e demais detalhes do trabalho.",
    ),
]


def steps_column(title: str, icon: str, steps: list[tuple[str, str]], button: rx.Component) -> rx.Component:
    """One audience's five steps (h2 column title, h3 per step) and its sign-up button."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.icon(icon, size=28, color=rx.color("accent", 11), aria_hidden="true"),
                rx.heading(title, as_="h2", size="6"),
                spacing="3",
                align="center",
            ),
            numbered_steps(steps),
            button,
            spacing="5",
            align="start",
        ),
        size="3",
        width="100%",
    )


def sector_card(slug: str, label: str, text: str) -> rx.Component:
    """A sector card linking to its category page (canonical slug)."""
    return rx.card(
        rx.vstack(
            rx.heading(label, as_="h3", size="5"),
            rx.text(text, color=MUTED),
            rx.link(f"Ver empresas de {label}", href=routes.category(slug), weight="medium", id=f"setor-{slug}"),
            spacing="2",
        ),
        size="2",
        width="100%",
    )


@public_page(routes.HOW_IT_WORKS, "Como funciona")
def how_it_works_page() -> rx.Component:
    """Steps for companies and freelancers, sectors, FAQ and a link to the plans."""
    return rx.box(
        page_heading(
            "Como funciona",
            "Em poucos passos, empresas encontram profissionais e freelancers encontram trabalho.",
        ),
        rx.grid(
            steps_column(
                "Para empresas",
                "building-2",
                COMPANY_STEPS,
                link_button("Cadastrar minha empresa", href=routes.register("client"), link_id="cta-empresa"),
            ),
            steps_column(
                "Para freelancers",
                "user-round",
                FREELANCER_STEPS,
                link_button("Cadastrar como freelancer", href=routes.register("freelancer"), link_id="cta-freelancer"),
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="5",
            width="100%",
        ),
        section(
            "Setores atendidos",
            card_grid(*[sector_card(*sector) for sector in SECTORS]),
            rx.link("Ver todas as categorias", href=routes.CATEGORIES),
            section_id="setores",
        ),
        faq(HOW_IT_WORKS_FAQ),
        rx.card(
            rx.flex(
                rx.vstack(
                    rx.heading("Conheça os planos para empresas", as_="h2", size="5"),
                    rx.text("Comece grátis e mude de plano quando a sua demanda crescer.", color=MUTED),
                    spacing="1",
                ),
                rx.spacer(),
                link_button("Ver planos e preços", href=routes.PRICING, variant="outline", link_id="link-planos"),
                direction=rx.breakpoints(initial="column", sm="row"),
                gap="1rem",
                align=rx.breakpoints(initial="start", sm="center"),
                width="100%",
            ),
            size="3",
            width="100%",
            margin_top="1rem",
        ),
        width="100%",
    )


def payment_methods_text() -> str:
    """'Cartão de crédito, cartão de débito, boleto bancário e PIX'."""
    names = [PAYMENT_METHODS[0], *[name if name.isupper() else name.lower() for name in PAYMENT_METHODS[1:]]]
    return ", ".join(names[:-1]) + f" e {names[-1]}"


ADD_ON_ICONS = ("badge-check", "share-2", "sparkles", "scale")


PRICING_FAQ = [
    (
        "Posso cancelar a qualquer momento?",
        "Sim. O cancelamento é gratuito e pode ser feito a qualquer momento; o plano continua ativo até o fim "
        "do ciclo já pago.",
    ),
    (
        "Como funciona o período de teste?",
        f"Os planos pagos têm {TRIAL_DAYS} dias de teste grátis. Nenhuma cobrança é feita antes do fim do teste, "
        "e você pode cancelar durante esse período sem pagar nada.",
    ),
    (
        "Quais formas de pagamento são aceitas?",
        f"{payment_methods_text()}.",
    ),
    (
        "Posso mudar de plano depois?",
        "Sim. Upgrades e downgrades passam a valer a partir do próximo ciclo de cobrança.",
    ),
    (
        "As vagas que eu não usar acumulam para o mês seguinte?",
        "Não. Os planos não são cumulativos: as vagas não utilizadas expiram ao fim de cada ciclo.",
    ),
    (
        "Existe garantia de reembolso?",
        f"Sim. Nos planos pagos, você tem garantia de reembolso de {REFUND_DAYS} dias: se não ficar satisfeito, "
        "devolvemos o valor pago.",
    ),
]


def pricing_notes() -> rx.Component:
    """Trial, refund, payment methods and taxes, as stated by docs/product/money.md §9."""
    return card_grid(
        feature_card(
            "gift",
            f"{TRIAL_DAYS} dias grátis",
            f"Teste grátis de {TRIAL_DAYS} dias nos planos pagos, sem cobrança até o fim do período.",
        ),
        feature_card(
            "shield-check",
            "Garantia de reembolso",
            f"Garantia de reembolso de {REFUND_DAYS} dias nos planos pagos.",
        ),
        feature_card(
            "credit-card",
            "Formas de pagamento",
            f"{payment_methods_text()}. Preços líquidos de impostos.",
        ),
    )


@public_page(routes.PRICING, "Planos e preços", on_load=[BillingState.load_subscription])
def pricing_page() -> rx.Component:
    """Three plan cards (a company's own marked), general conditions, add-ons and a six-question FAQ."""
    return rx.box(
        page_heading(
            "Planos e preços",
            "Para freelancers, o cadastro e as candidaturas são gratuitos. Para empresas, escolha o plano ideal.",
        ),
        rx.cond(
            AuthState.signed_in & (AuthState.user_role == "freelancer"),
            rx.callout(
                "Os planos são para empresas. Como freelancer, você usa a plataforma gratuitamente.",
                icon="info",
                width="100%",
                margin_bottom="1rem",
            ),
        ),
        section(
            "Planos para empresas",
            subscription_panel(),
            plans_grid(),
            rx.text(
                f"Os planos pagos começam com {TRIAL_DAYS} dias de teste grátis. O pagamento é feito com segurança "
                "pela Stripe.",
                color=MUTED,
                size="2",
            ),
            section_id="planos",
        ),
        section("Pagamento e garantia", pricing_notes(), section_id="pagamento"),
        section(
            "Condições gerais",
            rx.card(plan_conditions(), size="3", width="100%"),
            section_id="condicoes",
        ),
        section(
            "Serviços adicionais",
            card_grid(
                *[
                    feature_card(icon, name, text)
                    for icon, (name, text) in zip(ADD_ON_ICONS, PLAN_ADD_ONS, strict=True)
                ],
                columns=4,
            ),
            rx.text(
                "Os serviços adicionais são contratados à parte. ",
                rx.link("Fale com a nossa equipe", href=routes.CONTACT),
                " para saber valores e condições.",
                color=MUTED,
            ),
            section_id="adicionais",
        ),
        faq(PRICING_FAQ),
        width="100%",
    )


FREELANCER_BENEFITS = [
    ("wallet", "Cadastro gratuito", "Criar a conta e se candidatar às vagas não custa nada."),
    ("calendar-check", "Você escolhe quando trabalhar", "Candidate-se apenas às vagas que cabem na sua agenda."),
    ("map-pin", "Vagas perto de você", "Filtre as oportunidades pela sua cidade e pela sua área."),
    ("messages-square", "Conversa direta", "Combine os detalhes com a empresa pelo chat integrado."),
    ("star", "Reputação que cresce", "Cada trabalho concluído gera avaliações que valorizam seu perfil."),
    ("badge-check", "Empresas identificadas", "As vagas são publicadas por empresas com cadastro confirmado."),
]

APPLY_STEPS = [
    ("Crie sua conta", "Escolha 'Freelancer' no cadastro e confirme seu email."),
    ("Complete seu perfil", "Conte sua profissão, habilidades e experiências. Perfis completos chamam mais atenção."),
    ("Encontre uma vaga", "Veja os detalhes da vaga: data, local, valor por hora e benefícios."),
    ("Envie sua candidatura", "Escreva uma mensagem para a empresa e, se quiser, proponha outro valor por hora."),
    ("Acompanhe a resposta", "Quando a empresa aceitar, o chat é aberto para vocês combinarem os detalhes."),
]


@public_page(routes.FREELANCERS, "Para freelancers")
def freelancers_page() -> rx.Component:
    """Why join, how to apply, and the calls to action."""
    name = get_settings().product_name
    return rx.box(
        page_heading(
            "Trabalhe como freelancer",
            "Encontre trabalhos temporários em hotelaria, gastronomia, restaurantes e eventos na sua cidade.",
        ),
        rx.flex(
            link_button(
                "Cadastrar como freelancer", href=routes.register("freelancer"), link_id="freelancers-cadastro"
            ),
            link_button("Ver vagas abertas", href=routes.JOBS, variant="outline", link_id="freelancers-vagas"),
            gap="0.75rem",
            wrap="wrap",
        ),
        section(
            f"Por que trabalhar com o {name}?",
            card_grid(*[feature_card(*benefit) for benefit in FREELANCER_BENEFITS]),
            section_id="vantagens",
        ),
        section(
            "Como se candidatar",
            rx.card(numbered_steps(APPLY_STEPS), size="3", width="100%"),
            section_id="como-se-candidatar",
        ),
        section(
            "Áreas com oportunidades",
            check_list([f"{label}: {CATEGORY_DESCRIPTIONS[slug]}" for slug, label in CATEGORIES.items()]),
            rx.link("Ver todas as categorias", href=routes.CATEGORIES),
            section_id="areas",
        ),
        rx.card(
            rx.vstack(
                rx.heading("Pronto para o próximo trabalho?", as_="h2", size="6"),
                rx.text("Crie seu perfil em poucos minutos e comece a se candidatar hoje.", color=MUTED),
                rx.flex(
                    link_button(
                        "Criar minha conta", href=routes.register("freelancer"), link_id="freelancers-cta-final"
                    ),
                    link_button("Buscar vagas", href=routes.JOBS, variant="outline", link_id="freelancers-cta-vagas"),
                    gap="0.75rem",
                    wrap="wrap",
                ),
                spacing="3",
            ),
            size="3",
            width="100%",
            margin_top="1rem",
        ),
        width="100%",
    )
