"""/admin: Turno staff's back office, the open disputes and falta reviews with their evidence, and decisions.

Only role 'admin' (created by `python -m scripts.create_admin`) sees anything here. The page guard
sends visitors to /login and the other roles to their dashboards; every handler resolves the caller
from the session cookie again, and services/shifts/admin_reviews.py checks the role in the database too.
"""

import reflex as rx

from app.layout import public_page
from components.forms import field_error
from components.pager import pager
from components.ui import empty_state, page_heading
from core import routes
from core.db import session_scope
from core.ids import id_from_text
from core.text import positive_int
from core.types import utcnow
from models import Role
from services.common.errors import ServiceError
from services.common.paging import PagerLink, pager_fields
from services.shifts import admin_reviews
from services.shifts.admin_reviews import DecidedReview, OpenReview
from states.auth import AuthState
from states.failures import recovers

LOAD_FAILED = ("Erro ao carregar dados", "Não foi possível carregar os pedidos de revisão.")
DECIDE_FAILED = ("Erro ao registrar decisão", "Não foi possível registrar a decisão.")


class AdminState(AuthState):
    """One page (?page=N) of the open requests, oldest first, and the latest decisions."""

    reviews: list[OpenReview] = []
    total: int = 0
    decided: list[DecidedReview] = []
    loaded: bool = False
    pager_items: list[PagerLink] = []
    prev_href: str = ""
    next_href: str = ""
    error_id: int = 0
    error_text: str = ""

    def _read(self, db, staff_id: int) -> None:
        """The open requests of the URL's ?page=, their pager, and the recent decisions."""
        page = positive_int(self.router.url.query_parameters.get("page"), 1)
        result = admin_reviews.open_reviews(db, staff_id, page)
        self.reviews, self.total = result.items, result.total
        fields = pager_fields(result.page, result.pages, routes.admin)
        self.pager_items, self.prev_href, self.next_href = fields["links"], fields["prev_href"], fields["next_href"]
        self.decided = admin_reviews.recent_decisions(db, staff_id)

    @rx.event
    @recovers(*LOAD_FAILED)
    def load(self):
        """Load the open requests and the recent decisions (Turno staff only)."""
        user = self._caller(Role.ADMIN)
        if user is None:
            return None
        with session_scope() as db:
            self._read(db, user.id)
        self.loaded = True
        return None

    @rx.event
    @recovers(*DECIDE_FAILED)
    def decide(self, form_data: dict):
        """Record the decision of one request's form: request_id, decision, hours (optional), reason."""
        user = self._caller(Role.ADMIN)
        if user is None:
            return None
        form = form_data if isinstance(form_data, dict) else {}
        request_id = id_from_text(form.get("request_id"))  # the form's hidden field: text
        try:
            with session_scope() as db:
                title = admin_reviews.decide(db, user.id, request_id, form, utcnow())
        except ServiceError as exc:
            self.error_id, self.error_text = request_id or 0, exc.message
            return None
        self.error_id, self.error_text = 0, ""
        with session_scope() as db:
            self._read(db, user.id)
        return rx.toast.success(title)


def _section(title: str, *children: rx.Component) -> rx.Component:
    return rx.vstack(rx.heading(title, as_="h3", size="3"), *children, spacing="2", width="100%")


def _muted(text) -> rx.Component:
    return rx.text(text, size="2", color=rx.color("gray", 11))


def _records(item: rx.Var) -> rx.Component:
    return rx.table.root(
        rx.table.header(
            rx.table.row(
                rx.table.column_header_cell("Registro"),
                rx.table.column_header_cell("Horário"),
                rx.table.column_header_cell("Método"),
                rx.table.column_header_cell("Distância"),
            )
        ),
        rx.table.body(
            rx.foreach(
                item["records"],
                lambda r: rx.table.row(
                    rx.table.row_header_cell(r["label"]),
                    rx.table.cell(r["time"]),
                    rx.table.cell(r["method"]),
                    rx.table.cell(r["distance"]),
                ),
            )
        ),
        size="1",
        width="100%",
    )


def _hours(item: rx.Var) -> rx.Component:
    return rx.vstack(
        rx.text("Horas agendadas: ", rx.text.strong(item["scheduled_hours"]), size="2"),
        rx.text("Horas enviadas: ", rx.text.strong(item["hours_sent"]), size="2"),
        rx.text("Horas ajustadas pela empresa: ", rx.text.strong(item["hours_adjusted"]), size="2"),
        rx.cond(
            item["adjustment_reason"] != "",
            rx.text("Motivo do ajuste: ", rx.el.q(item["adjustment_reason"]), size="2"),
        ),
        spacing="1",
    )


def _timeline(item: rx.Var) -> rx.Component:
    return rx.el.ol(
        rx.foreach(
            item["timeline"],
            lambda e: rx.el.li(
                rx.text(
                    rx.text.strong(e["at"]),
                    " · ",
                    e["who"],
                    " · ",
                    e["what"],
                    rx.cond(e["change"] != "", rx.fragment(" (", e["change"], ")")),
                    size="2",
                ),
                rx.cond(e["reason"] != "", _muted(e["reason"])),
            ),
        ),
        class_name="admin-timeline",
        style={"paddingLeft": "1.25rem", "display": "flex", "flexDirection": "column", "gap": "0.35rem"},
    )


def _messages(item: rx.Var) -> rx.Component:
    return rx.cond(
        item["messages"].length() > 0,
        rx.vstack(
            rx.foreach(
                item["messages"],
                lambda m: rx.box(
                    _muted(rx.fragment(m["at"], " · ", m["who"])),
                    rx.text(m["text"], size="2", white_space="pre-wrap"),
                ),
            ),
            spacing="2",
            max_height="20rem",
            overflow_y="auto",
            width="100%",
            class_name="admin-messages",
        ),
        _muted("Nenhuma mensagem entre os dois."),
    )


def _choice(value: str, label: str) -> rx.Component:
    return rx.el.label(
        rx.el.input(type="radio", name="decision", value=value),
        " " + label,
        style={"display": "flex", "gap": "0.4rem", "alignItems": "center"},
    )


def _decision_form(item: rx.Var) -> rx.Component:
    key = item["id"].to(str)
    hours_id, reason_id = "hours-" + key, "reason-" + key
    is_falta = item["kind"] == "falta"
    return rx.form(
        rx.el.input(type="hidden", name="request_id", value=key),
        rx.el.fieldset(
            rx.el.legend("Decisão", style={"fontWeight": "500"}),
            rx.cond(
                is_falta,
                rx.flex(_choice("remover", "Remover falta"), _choice("manter", "Manter falta"), gap="4"),
                rx.flex(
                    _choice("aprovar", "Aprovar horas"),
                    rx.cond(item["offers_absence"], _choice("falta", "Manter ausência")),
                    gap="4",
                ),
            ),
            style={"border": "none", "padding": 0, "margin": 0},
        ),
        rx.cond(
            is_falta,
            rx.fragment(),
            rx.vstack(
                rx.el.label("Horas a aprovar (opcional)", html_for=hours_id, style={"fontWeight": "500"}),
                rx.input(id=hours_id, name="hours", default_value=item["default_hours"], placeholder="7:30"),
                spacing="1",
            ),
        ),
        rx.vstack(
            rx.el.label("Motivo da decisão", html_for=reason_id, style={"fontWeight": "500"}),
            rx.text_area(id=reason_id, name="reason", rows="3", width="100%"),
            _muted("Mostrado às duas partes."),
            spacing="1",
            width="100%",
        ),
        rx.cond(AdminState.error_id == item["id"], field_error(AdminState.error_text, "decision-" + key)),
        rx.button("Registrar decisão", type="submit", margin_top="0.5rem"),
        on_submit=AdminState.decide,
        reset_on_submit=False,
        no_validate=True,  # the server says what is missing, under the form (a browser bubble was unseen)
        aria_label="Decisão do pedido " + key,
        style={"display": "flex", "flexDirection": "column", "gap": "0.75rem", "width": "100%"},
    )


def review_card(item: rx.Var) -> rx.Component:
    """One open request: what is asked, the evidence, and the decision form."""
    return rx.card(
        rx.vstack(
            rx.flex(
                rx.badge(item["kind_label"], color_scheme="orange", size="2"),
                rx.heading(item["job_title"], as_="h2", size="5"),
                rx.spacer(),
                _muted(rx.fragment("Pedido em ", item["requested_at"])),
                gap="3",
                align="center",
                wrap="wrap",
                width="100%",
            ),
            rx.text(
                "Empresa: ",
                rx.text.strong(item["company"]),
                " · Profissional: ",
                rx.text.strong(item["freelancer"]),
                size="2",
            ),
            rx.text("Turno: ", item["shift"], " · Situação: ", item["state"], size="2"),
            _section(
                "Motivo do pedido",
                _muted(item["requested_by"]),
                rx.el.blockquote(item["reason"], style={"margin": 0, "whiteSpace": "pre-wrap"}),
                rx.cond(item["falta"] != "", rx.text("Falta: ", item["falta"], size="2")),
            ),
            _section("Registros de presença", _records(item)),
            _section("Horas", _hours(item)),
            _section("Linha do tempo", _timeline(item)),
            _section("Mensagens entre as partes", _messages(item)),
            rx.separator(),
            _decision_form(item),
            spacing="4",
            width="100%",
        ),
        key=item["id"],
        id="review-" + item["id"].to(str),
        class_name="admin-review",
        width="100%",
    )


def decided_row(item: rx.Var) -> rx.Component:
    """One recent decision."""
    return rx.table.row(
        rx.table.cell(item["decided_at"]),
        rx.table.cell(item["kind_label"]),
        rx.table.cell(item["job_title"]),
        rx.table.cell(item["freelancer"], " / ", item["company"]),
        rx.table.cell(item["decision"]),
        rx.table.cell(item["reason"]),
        key=item["id"],
    )


def decided_section() -> rx.Component:
    """'Decididas recentemente': the last 20 decisions with their reasons."""
    return rx.vstack(
        rx.heading("Decididas recentemente", as_="h2", size="5"),
        rx.cond(
            AdminState.decided.length() > 0,
            rx.box(
                rx.table.root(
                    rx.table.header(
                        rx.table.row(
                            rx.table.column_header_cell("Decidido em"),
                            rx.table.column_header_cell("Tipo"),
                            rx.table.column_header_cell("Vaga"),
                            rx.table.column_header_cell("Profissional / Empresa"),
                            rx.table.column_header_cell("Decisão"),
                            rx.table.column_header_cell("Motivo"),
                        )
                    ),
                    rx.table.body(rx.foreach(AdminState.decided, decided_row)),
                    size="1",
                    width="100%",
                ),
                overflow_x="auto",
                width="100%",
            ),
            _muted("Nenhuma decisão ainda."),
        ),
        id="decided",
        spacing="3",
        width="100%",
    )


@public_page(routes.ADMIN, "Equipe Turno", on_load=[AdminState.load], guard=AuthState.guard_admin)
def admin_page() -> rx.Component:
    """The back office: open requests (paged), then the recent decisions."""
    return rx.vstack(
        page_heading("Equipe Turno", "Disputas e pedidos de revisão aguardando decisão."),
        rx.cond(
            AdminState.loaded,
            rx.vstack(
                rx.heading(
                    rx.fragment("Pedidos abertos (", AdminState.total.to(str), ")"), as_="h2", size="5", id="open"
                ),
                rx.cond(
                    AdminState.total > 0,
                    rx.vstack(rx.foreach(AdminState.reviews, review_card), spacing="4", width="100%"),
                    empty_state("circle-check", "Nenhum pedido aberto", "Disputas e revisões aparecem aqui."),
                ),
                pager(AdminState.pager_items, AdminState.prev_href, AdminState.next_href),
                rx.separator(margin_y="1rem"),
                decided_section(),
                spacing="4",
                width="100%",
            ),
            rx.text("Carregando...", role="status", color=rx.color("gray", 11)),
        ),
        width="100%",
        max_width="1000px",
        margin_x="auto",
        padding_y="1rem",
        spacing="4",
    )
