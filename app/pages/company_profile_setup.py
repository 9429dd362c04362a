"""/company-profile-setup: the company completes its profile (validated in services/profiles.py)."""

import reflex as rx

from app import routes
from app.layout import dashboard_page
from components.dashboard import detail_list, detail_row, loading, section_card, tab_heading
from components.forms import labelled, submit_button, text_field
from core.db import session_scope
from models import Role
from services import profiles
from services.errors import NotAllowed, ValidationFailed
from states.auth import AuthState
from states.dashboard import DashboardState

FIELDS = ("biografia", "endereco", "telefone", "website", "instagram", "facebook", "linkedin")


def _blank() -> dict[str, str]:
    return dict.fromkeys(FIELDS, "")


class CompanyProfileSetupState(AuthState):
    """The form's current values (from the database) and its validation messages."""

    loaded: bool = False
    saving: bool = False
    values: dict[str, str] = _blank()
    errors: dict[str, str] = _blank()

    @rx.event
    def load(self):
        """Fill the form with the signed-in company's saved data."""
        self.errors = _blank()
        self.saving = False
        user = self._current_user()
        if user is None or user.role != Role.CLIENT:
            return None
        try:
            with session_scope() as db:
                view = profiles.get_own_profile(db, user.id)
        except Exception:
            return rx.toast.error("Erro ao carregar perfil", description=profiles.PROFILE_LOAD_FAILED)
        self.values = {name: str(view[name]) for name in FIELDS}
        self.loaded = True
        return None

    @rx.event
    async def save(self, form_data: dict):
        """Validate and save the form for the signed-in company (identity from the session)."""
        if self.saving:
            return
        user = self._current_user()
        if user is None:
            yield rx.toast.error("Não autenticado", description="Você precisa estar logado para atualizar seu perfil.")
            return
        self.saving = True
        self.errors = _blank()
        yield
        try:
            with session_scope() as db:
                view = profiles.update_company_profile(db, user.id, form_data if isinstance(form_data, dict) else {})
        except ValidationFailed as exc:
            self.errors = {**_blank(), **{k: v for k, v in exc.field_errors.items() if k in FIELDS}}
            self.saving = False
            return
        except NotAllowed as exc:
            self.saving = False
            yield rx.toast.error("Erro ao atualizar perfil", description=exc.message)
            return
        except Exception:
            self.saving = False
            yield rx.toast.error("Erro ao atualizar perfil", description="Não foi possível salvar. Tente novamente.")
            return
        self.values = {name: str(view[name]) for name in FIELDS}
        self.saving = False
        dashboard = await self.get_state(DashboardState)
        dashboard.me = view
        yield rx.toast.success("Perfil atualizado com sucesso!")


def _current_data() -> rx.Component:
    me = DashboardState.me
    return section_card(
        "Dados da empresa",
        detail_list(
            detail_row("Nome", me["nome"]),
            detail_row("Empresa", me["empresa"]),
            detail_row("Setor", me["industria"]),
            detail_row("Localização", me["localizacao"]),
            detail_row("E-mail", me["email"]),
        ),
    )


def _form() -> rx.Component:
    values, errors = CompanyProfileSetupState.values, CompanyProfileSetupState.errors
    return rx.form(
        rx.vstack(
            section_card(
                "Sobre a empresa",
                labelled(
                    "Biografia",
                    "profile-biografia",
                    rx.text_area(
                        id="profile-biografia",
                        name="biografia",
                        default_value=values["biografia"],
                        placeholder="Conte aos freelancers o que sua empresa faz e como é trabalhar com vocês.",
                        rows="5",
                        width="100%",
                        aria_invalid=rx.cond(errors["biografia"] != "", "true", "false"),
                    ),
                    errors["biografia"],
                ),
            ),
            section_card(
                "Contato",
                text_field(
                    "Endereço",
                    "endereco",
                    errors["endereco"],
                    field_id="profile-endereco",
                    placeholder="Rua, número, bairro, cidade",
                    default_value=values["endereco"],
                    auto_complete="street-address",
                ),
                text_field(
                    "Telefone",
                    "telefone",
                    errors["telefone"],
                    type="tel",
                    field_id="profile-telefone",
                    placeholder="(11) 99999-9999",
                    default_value=values["telefone"],
                    auto_complete="tel",
                ),
                text_field(
                    "Website (opcional)",
                    "website",
                    errors["website"],
                    type="url",
                    field_id="profile-website",
                    placeholder="https://suaempresa.com.br",
                    default_value=values["website"],
                ),
            ),
            section_card(
                "Redes sociais (opcional)",
                *[
                    text_field(
                        label,
                        name,
                        errors[name],
                        field_id=f"profile-{name}",
                        placeholder=placeholder,
                        default_value=values[name],
                    )
                    for name, label, placeholder in (
                        ("instagram", "Instagram", "@suaempresa"),
                        ("facebook", "Facebook", "https://facebook.com/suaempresa"),
                        ("linkedin", "LinkedIn", "https://linkedin.com/company/suaempresa"),
                    )
                ],
            ),
            rx.box(
                submit_button("Salvar Informações", "Salvando...", CompanyProfileSetupState.saving),
                width="100%",
                max_width="320px",
            ),
            spacing="4",
            width="100%",
        ),
        id="company-profile-form",
        on_submit=CompanyProfileSetupState.save,
        reset_on_submit=False,
        no_validate=True,
        width="100%",
    )


@dashboard_page(
    routes.COMPANY_PROFILE_SETUP,
    "Complete seu Perfil",
    Role.CLIENT,
    on_load=[CompanyProfileSetupState.load],
    active_tab="profile",
)
def company_profile_setup_page() -> rx.Component:
    """Heading, the company's current data and the completion form (shown once the data is in)."""
    return rx.vstack(
        tab_heading(
            "Complete seu Perfil",
            "Um perfil completo passa mais confiança aos freelancers.",
            rx.link("Voltar ao painel", href=routes.dashboard_tab(Role.CLIENT, "profile"), size="2"),
        ),
        _current_data(),
        rx.cond(CompanyProfileSetupState.loaded, _form(), loading()),
        spacing="4",
        width="100%",
    )
