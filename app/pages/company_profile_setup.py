"""/company-profile-setup: the company completes its profile (validated in services/accounts/profiles.py)."""

import reflex as rx

from app.layout import dashboard_page
from components.dashboard import detail_list, detail_row, section_card, tab_heading
from components.profile_forms import company_profile_form
from core import routes
from models import Role
from states.dashboard import DashboardState


def account_data() -> rx.Component:
    """What the company gave at sign-up and does not edit here: the contact person, sector, city, e-mail."""
    me = DashboardState.me
    return section_card(
        "Dados da conta",
        detail_list(
            detail_row("Responsável", me["nome"]),
            detail_row("Setor", me["industria"]),
            detail_row("Localização", me["localizacao"]),
            detail_row("E-mail", me["email"]),
        ),
    )


@dashboard_page(
    routes.COMPANY_PROFILE_SETUP,
    "Complete seu Perfil",
    Role.CLIENT,
    active_tab="profile",
)
def company_profile_setup_page() -> rx.Component:
    """Heading, the company's account data and the completion form with the photo."""
    return rx.vstack(
        tab_heading(
            "Complete seu Perfil",
            "Um perfil completo passa mais confiança aos freelancers.",
            rx.link("Voltar ao painel", href=routes.dashboard_tab(Role.CLIENT, "profile"), size="2"),
        ),
        company_profile_form(),
        account_data(),
        spacing="4",
        width="100%",
    )
