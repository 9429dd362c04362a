"""'Publicar Nova Vaga': the publish dialog, its fields and the plan-limit callout it shares with the list."""

import reflex as rx

from app.pages.company_jobs.state import CompanyJobsState
from components.forms import dialog_buttons, select_field, text_area, text_field
from core import routes
from core.catalog import CATEGORIES


def plan_callout(message: rx.Var, element_id: str, icon: str, **props) -> rx.Component:
    """A plan-limit explanation with a 'Ver planos' link to /pricing (hidden while `message` is empty)."""
    return rx.cond(
        message != "",
        rx.callout.root(
            rx.callout.icon(rx.icon(icon)),
            rx.callout.text(message, " ", rx.link("Ver planos", href=routes.PRICING, weight="bold")),
            color_scheme="amber",
            id=element_id,
            width="100%",
            **props,
        ),
    )


def _checkbox(label: str, name: str) -> rx.Component:
    return rx.text(
        rx.hstack(rx.checkbox(name=name, id=f"job-{name}"), label, spacing="2", align="center"),
        as_="label",
        size="2",
    )


def _publish_fields() -> list[rx.Component]:
    errors = CompanyJobsState.form_errors
    return [
        text_field("Título da vaga", "titulo", errors["titulo"], field_id="job-titulo", placeholder="Ex.: Garçom"),
        select_field(
            "Categoria",
            "categoria",
            CATEGORIES,
            errors["categoria"],
            placeholder="Selecione uma categoria",
            field_id="job-categoria",
        ),
        text_area(
            "Descrição",
            "descricao",
            errors["descricao"],
            field_id="job-descricao",
            placeholder="Descreva as atividades, o horário e os requisitos",
        ),
        text_field(
            "Localização", "localizacao", errors["localizacao"], field_id="job-localizacao", placeholder="São Paulo, SP"
        ),
        rx.grid(
            text_field(
                "Valor por hora (R$)",
                "valor_hora",
                errors["valor_hora"],
                field_id="job-valor_hora",
                placeholder="25,00",
                input_mode="decimal",
            ),
            text_field("Duração", "duracao", errors["duracao"], field_id="job-duracao", placeholder="Ex.: 6 horas"),
            text_field(
                "Data necessária", "data_necessaria", errors["data_necessaria"], type="date", field_id="job-data"
            ),
            text_field(
                "Vagas disponíveis",
                "vagas_disponiveis",
                errors["vagas_disponiveis"],
                type="number",
                field_id="job-vagas",
                default_value="1",
                min="1",
                max="100",
            ),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        text_field(
            "Habilidades necessárias",
            "habilidades_necessarias",
            errors["habilidades_necessarias"],
            field_id="job-habilidades",
            placeholder="Separe por vírgulas: bandeja, inglês, vinhos",
        ),
        rx.grid(
            _checkbox("Vale-transporte", "vale_transporte"),
            _checkbox("Refeição no local", "refeicao_local"),
            _checkbox("Possui intervalo", "possui_intervalo"),
            _checkbox("Anúncio anônimo (ocultar o nome da empresa)", "anuncio_anonimo"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="2",
            width="100%",
        ),
    ]


def _publish_limit() -> rx.Component:
    return plan_callout(CompanyJobsState.publish_error, "publish-plan-limit", "triangle-alert", role="alert")


def publish_dialog() -> rx.Component:
    """'Publicar Nova Vaga': every job field, validated on the server."""
    state = CompanyJobsState
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Publicar Nova Vaga"),
            rx.dialog.description(
                "Preencha os dados da vaga para receber candidaturas de freelancers.",
                size="2",
                color=rx.color("gray", 11),
                margin_bottom="1rem",
            ),
            rx.form(
                rx.vstack(
                    _publish_limit(),
                    *_publish_fields(),
                    dialog_buttons("Publicar Vaga", "Publicando...", state.publishing, "publish-submit"),
                    spacing="3",
                    width="100%",
                ),
                on_submit=state.publish,
                reset_on_submit=False,
                no_validate=True,
                id="publish-job-form",
            ),
            max_width="640px",
        ),
        open=state.publish_open,
        on_open_change=state.set_publish_open,
    )
