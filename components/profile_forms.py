"""The profile photo control and the company and freelancer profile forms.

The forms are uncontrolled: each input starts from the signed-in user's saved profile
(DashboardState.me, loaded by every dashboard page) and is read on submit. They are rendered only
once that profile has arrived, so the inputs mount with the saved values.
"""

import reflex as rx

from components.city_field import city_field
from components.dashboard import avatar, section_card
from components.forms import labelled, submit_button, text_field
from services.accounts import photos
from states.dashboard import DashboardState
from states.profile import PHOTO_UPLOAD_ID, ProfileEditState

ACCEPTED_TYPES = {"image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/webp": [".webp"]}


def photo_control() -> rx.Component:
    """The user's photo with 'Alterar foto' (JPEG, PNG or WebP up to 5 MB) and 'Remover foto'."""
    me = DashboardState.me
    busy = ProfileEditState.photo_busy
    return rx.hstack(
        rx.box(avatar(me["foto_url"], me["initials"], size="7"), id="profile-photo-preview"),
        rx.vstack(
            rx.upload.root(
                rx.button(
                    rx.icon("camera", size=16),
                    rx.cond(busy, "Enviando foto...", "Alterar foto"),
                    type="button",
                    variant="outline",
                    disabled=busy,
                    id="change-photo-button",
                ),
                id=PHOTO_UPLOAD_ID,
                accept=ACCEPTED_TYPES,
                max_size=photos.MAX_BYTES,
                multiple=False,
                max_files=1,
                no_drag=True,
                disabled=busy,
                on_drop=ProfileEditState.upload_photo(rx.upload_files(upload_id=PHOTO_UPLOAD_ID)),
                on_drop_rejected=ProfileEditState.photo_rejected,
                border="none",
                padding="0",
            ),
            rx.text("JPEG, PNG ou WebP, até 5MB.", size="1", color=rx.color("gray", 11)),
            rx.cond(
                me["foto_url"] != "",
                rx.button(
                    "Remover foto",
                    type="button",
                    variant="ghost",
                    color_scheme="red",
                    size="1",
                    disabled=busy,
                    on_click=ProfileEditState.remove_photo,
                    id="remove-photo-button",
                ),
            ),
            spacing="2",
            align="start",
        ),
        spacing="4",
        align="center",
        width="100%",
    )


def _area(label: str, name: str, default: rx.Var, rows: str = "4", placeholder: str = "") -> rx.Component:
    field_id = f"profile-{name}"
    error = ProfileEditState.errors[name]
    return labelled(
        label,
        field_id,
        rx.text_area(
            id=field_id,
            name=name,
            default_value=default,
            placeholder=placeholder,
            rows=rows,
            width="100%",
            aria_invalid=rx.cond(error != "", "true", "false"),
        ),
        error,
    )


def _field(label: str, name: str, default: rx.Var, **props) -> rx.Component:
    return text_field(
        label, name, ProfileEditState.errors[name], field_id=f"profile-{name}", default_value=default, **props
    )


def _profile_form(form_id: str, on_submit: rx.EventHandler, sections: list[rx.Component], label: str) -> rx.Component:
    """The sections and the submit button of a profile form, shown once the saved profile has arrived."""
    form = rx.form(
        rx.vstack(
            *sections,
            rx.box(
                submit_button(label, "Salvando...", ProfileEditState.saving, id=f"{form_id}-submit"),
                width="100%",
                max_width="320px",
            ),
            spacing="4",
            width="100%",
        ),
        id=form_id,
        on_submit=on_submit,
        reset_on_submit=False,
        no_validate=True,
        width="100%",
    )
    return rx.cond(DashboardState.me["email"] != "", form, rx.spinner(size="3"))


def company_profile_form() -> rx.Component:
    """'Complete seu Perfil': photo, company name, biografia, contact and social networks."""
    me = DashboardState.me
    return _profile_form(
        "company-profile-form",
        ProfileEditState.save_company,
        [
            section_card(
                "Sobre a empresa",
                photo_control(),
                _field("Nome da empresa", "empresa", me["empresa"], placeholder="Hotel Atlântico"),
                _area(
                    "Biografia",
                    "biografia",
                    me["biografia"],
                    rows="5",
                    placeholder="Conte aos freelancers o que sua empresa faz e como é trabalhar com vocês.",
                ),
            ),
            section_card(
                "Contato",
                _field(
                    "Endereço",
                    "endereco",
                    me["endereco"],
                    placeholder="Rua, número, bairro, cidade",
                    auto_complete="street-address",
                ),
                _field(
                    "Telefone",
                    "telefone",
                    me["telefone"],
                    type="tel",
                    placeholder="(11) 99999-9999",
                    auto_complete="tel",
                ),
                _field(
                    "Website (opcional)", "website", me["website"], type="url", placeholder="https://suaempresa.com.br"
                ),
            ),
            section_card(
                "Redes sociais (opcional)",
                _field("Instagram", "instagram", me["instagram"], placeholder="@suaempresa"),
                _field("Facebook", "facebook", me["facebook"], placeholder="https://facebook.com/suaempresa"),
                _field("LinkedIn", "linkedin", me["linkedin"], placeholder="https://linkedin.com/company/suaempresa"),
            ),
        ],
        "Salvar Informações",
    )


def freelancer_profile_form() -> rx.Component:
    """The freelancer's 'Meu Perfil': photo, personal and professional data; the e-mail read-only."""
    me = DashboardState.me
    return _profile_form(
        "freelancer-profile-form",
        ProfileEditState.save_freelancer,
        [
            section_card(
                "Dados pessoais",
                photo_control(),
                _field("Nome", "nome", me["nome"], auto_complete="name"),
                labelled(
                    "E-mail",
                    "profile-email",
                    rx.input(
                        id="profile-email", name="email", value=me["email"], read_only=True, size="3", width="100%"
                    ),
                    hint="O e-mail da conta não pode ser alterado aqui.",
                ),
                _field("Telefone", "telefone", me["telefone"], type="tel", placeholder="(11) 99999-9999"),
                _field("Endereço", "endereco", me["endereco"], placeholder="Rua, número, bairro"),
                city_field(
                    "Cidade",
                    "localizacao",
                    ProfileEditState.errors["localizacao"],
                    field_id="profile-localizacao",
                    default=me["localizacao"],
                ),
            ),
            section_card(
                "Dados profissionais",
                _field("Profissão", "profissao", me["profissao"], placeholder="Garçom, bartender, recepcionista..."),
                _field(
                    "Habilidades",
                    "habilidades",
                    me["habilidades"].to(list[str]).join(", "),
                    placeholder="Atendimento, coquetelaria, inglês",
                    hint="Separe as habilidades por vírgulas.",
                ),
                _area("Biografia", "biografia", me["biografia"], placeholder="Conte um pouco sobre você."),
                _area(
                    "Experiência",
                    "experiencia",
                    me["experiencia"],
                    rows="5",
                    placeholder="Onde você trabalhou, por quanto tempo, em que funções.",
                ),
                _field("Website (opcional)", "website", me["website"], type="url", placeholder="https://"),
            ),
        ],
        "Salvar Perfil",
    )
