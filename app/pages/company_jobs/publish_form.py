"""'Publicar Nova Vaga': the publish dialog, its fields and the plan-limit callout it shares with the list."""

import reflex as rx

from app.pages.company_jobs.publish_state import READ_POINT_SCRIPT
from app.pages.company_jobs.state import CompanyJobsState
from components.city_field import city_field
from components.forms import dialog_buttons, field_error, select_field, text_area, text_field
from core import routes
from core.catalog import BRING_LABEL, CATEGORIES, PAYMENT_GUARANTEED
from core.formatting import PROFESSIONAL
from core.shift_rules import MAX_BREAK_MIN
from models import PaymentMode
from models.job import BRING_MAX

BRING_HINT = f"Opcional, até {BRING_MAX} caracteres. Aparece na vaga e no turno do profissional."
PROTECTED_UNAVAILABLE = "O pagamento garantido pelo Turno não está disponível neste ambiente."
PROTECTED_NOTE = (
    "A empresa paga ao aceitar cada candidatura (horas × valor + taxa de serviço de 12% no plano Gratuito, "
    "10% Premium, 8% Enterprise); o freelancer recebe depois das horas aprovadas."
)


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


def _break_checkbox() -> rx.Component:
    """'Possui intervalo': ticked exactly when 'Intervalo (minutos)' has minutes, and ticking it fills 60.

    It sends nothing: the server reads the minutes (services/common/validation.py JobForm.job_values).
    """
    return rx.text(
        rx.hstack(
            rx.checkbox(
                id="job-possui_intervalo",
                checked=CompanyJobsState.publish_has_break,
                on_change=CompanyJobsState.toggle_break,
            ),
            "Possui intervalo",
            spacing="2",
            align="center",
        ),
        as_="label",
        size="2",
    )


def _point_field() -> rx.Component:
    """'Marcar local do turno': one browser location reading into hidden fields, or 'Remover local'."""
    state = CompanyJobsState
    marked = state.point_lat != ""
    return rx.vstack(
        rx.el.input(type="hidden", name="ponto_lat", value=state.point_lat, id="job-ponto_lat"),
        rx.el.input(type="hidden", name="ponto_lng", value=state.point_lng, id="job-ponto_lng"),
        rx.cond(
            marked,
            rx.hstack(
                rx.text("Local marcado ✓", color=rx.color("grass", 11), weight="medium", id="job-point-marked"),
                rx.link(
                    "Remover local",
                    on_click=[rx.prevent_default, state.clear_point],
                    href="#",
                    id="job-point-clear",
                    size="2",
                ),
                spacing="3",
                align="center",
            ),
            rx.button(
                rx.icon("map-pin", size=16),
                "Marcar local do turno",
                type="button",
                variant="soft",
                on_click=rx.call_script(READ_POINT_SCRIPT, callback=state.point_marked),
                id="job-point-mark",
            ),
        ),
        rx.text(
            "Opcional: no local do turno, use uma única leitura da localização do navegador.",
            size="1",
            color=rx.color("gray", 11),
        ),
        field_error(state.form_errors["ponto_lat"], "job-ponto_lat"),
        field_error(state.form_errors["ponto_lng"], "job-ponto_lng"),
        spacing="1",
        width="100%",
    )


def _payment_option(value: str, label: str, **props) -> rx.Component:
    """One radio of 'Forma de pagamento', its label wrapping it (clicking the text chooses it)."""
    return rx.text(
        rx.hstack(rx.radio_group.item(value=value, id=f"job-pagamento-{value}", **props), label, spacing="2"),
        as_="label",
        size="2",
        align_items="center",
    )


def _payment_field() -> rx.Component:
    """'Forma de pagamento': direct by the company (default) or guaranteed by Turno (off without Stripe)."""
    state = CompanyJobsState
    muted = rx.color("gray", 11)
    return rx.vstack(
        rx.text("Forma de pagamento", id="job-pagamento-label", weight="medium", size="2"),
        rx.radio_group.root(
            rx.vstack(
                _payment_option(PaymentMode.DIRECT, "Pagamento direto pela empresa"),
                _payment_option(PaymentMode.GUARANTEED, PAYMENT_GUARANTEED, disabled=~state.protected_available),
                rx.cond(
                    ~state.protected_available,
                    rx.text(PROTECTED_UNAVAILABLE, size="1", color=muted, id="job-pagamento-unavailable"),
                ),
                spacing="2",
            ),
            name="pagamento",
            default_value=PaymentMode.DIRECT,
            on_change=state.choose_payment,
            aria_labelledby="job-pagamento-label",
            id="job-pagamento",
        ),
        rx.cond(
            state.publish_payment == PaymentMode.GUARANTEED,
            rx.text(PROTECTED_NOTE, size="1", color=muted, id="job-pagamento-note"),
        ),
        field_error(state.form_errors["pagamento"], "job-pagamento"),
        spacing="1",
        width="100%",
    )


def _shift_fields() -> list[rx.Component]:
    """The shift: start, end, unpaid break, work address and the optional marked point."""
    errors = CompanyJobsState.form_errors
    return [
        rx.grid(
            text_field(
                "Início do turno", "inicio_em", errors["inicio_em"], type="datetime-local", field_id="job-inicio_em"
            ),
            text_field("Fim do turno", "fim_em", errors["fim_em"], type="datetime-local", field_id="job-fim_em"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        text_field(
            "Intervalo (minutos, não remunerado)",
            "intervalo_min",
            errors["intervalo_min"],
            type="number",
            field_id="job-intervalo_min",
            value=CompanyJobsState.publish_break,
            on_change=CompanyJobsState.set_break_minutes,
            min="0",
            max=str(MAX_BREAK_MIN),
            hint="Horário de Brasília. O turno dura de 2 a 12 horas e pode terminar no dia seguinte.",
        ),
        text_field(
            "Endereço do turno",
            "endereco",
            errors["endereco"],
            field_id="job-endereco",
            placeholder="Rua, número, bairro, cidade",
            max_length=200,
            default_value=CompanyJobsState.publish_address,
        ),
        _point_field(),
    ]


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
        city_field(
            "Localização",
            "localizacao",
            errors["localizacao"],
            field_id="job-localizacao",
            default=CompanyJobsState.publish_city,
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
        _payment_field(),
        *_shift_fields(),
        text_field(
            "Habilidades necessárias",
            "habilidades_necessarias",
            errors["habilidades_necessarias"],
            field_id="job-habilidades",
            placeholder="Separe por vírgulas: bandeja, inglês, vinhos",
        ),
        text_field(
            BRING_LABEL,
            "o_que_levar",
            errors["o_que_levar"],
            field_id="job-o_que_levar",
            placeholder="Ex.: camisa preta, calça social, sapato fechado",
            hint=BRING_HINT,
            max_length=BRING_MAX,
        ),
        rx.grid(
            _checkbox("Vale-transporte", "vale_transporte"),
            _checkbox("Refeição no local", "refeicao_local"),
            _break_checkbox(),
            _checkbox("Anúncio anônimo (ocultar o nome da empresa)", "anuncio_anonimo"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="2",
            width="100%",
        ),
    ]


def _publish_limit() -> rx.Component:
    return plan_callout(CompanyJobsState.publish_error, "publish-plan-limit", "triangle-alert", role="alert")


def _team_first_field() -> rx.Component:
    """'Oferecer primeiro à minha equipe' (only for a company with a team; services/jobs/team_first.py)."""
    state = CompanyJobsState
    # '1 profissional', '3 profissionais' (core.formatting.counted, in the browser)
    team_size = state.publish_team_size.to(str) + " " + rx.cond(state.publish_team_size == 1, *PROFESSIONAL)
    return rx.cond(
        state.publish_team_size > 0,
        rx.vstack(
            rx.el.label(
                rx.hstack(
                    rx.checkbox(name="equipe_primeiro", id="job-equipe-primeiro"),
                    rx.text("Oferecer primeiro à minha equipe", size="2", weight="medium"),
                    spacing="2",
                    align="center",
                ),
            ),
            rx.text(
                "Sua equipe (" + team_size + ") vê a vaga sozinha e recebe um aviso. Ela abre para todos depois "
                "de 12 horas, ou de um quarto do tempo até o turno, o que vier antes.",
                size="1",
                color=rx.color("gray", 11),
            ),
            spacing="1",
            width="100%",
            id="job-equipe-primeiro-field",
        ),
    )


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
                    _team_first_field(),
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
