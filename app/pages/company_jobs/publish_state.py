"""The 'Publicar Nova Vaga' form of 'Minhas Vagas': its fields' state, the shift's point and publishing.

`PublishFormMixin` opens the form with the company profile's city and address, follows
'Possui intervalo' and 'Forma de pagamento', keeps the one location reading of 'Marcar local do
turno', and publishes through services/jobs/company_jobs.py, showing its errors field by field.
"""

import reflex as rx

from app.pages.company_jobs.lists_state import ERROR, JobListsMixin
from core.db import session_scope
from core.geo import valid_point
from models import PaymentMode
from services.accounts import profiles
from services.common.errors import ServiceError
from services.jobs import company_jobs, pricing, team_first
from services.jobs.plans import PlanLimitReached
from services.trust import teams
from states.failures import recovers

JOB_FIELDS = (
    "titulo",
    "categoria",
    "descricao",
    "localizacao",
    "valor_hora",
    "inicio_em",
    "fim_em",
    "intervalo_min",
    "endereco",
    "ponto_lat",
    "ponto_lng",
    "habilidades_necessarias",
    "vagas_disponiveis",
    "pagamento",
    "o_que_levar",
)
PAYMENT_MODES = (PaymentMode.DIRECT, PaymentMode.GUARANTEED)
POINT_FAILED = "Não foi possível ler sua localização. Verifique a permissão de localização do navegador."

# One location reading ('Marcar local do turno'), never a watch: resolves {lat, lng} or {error}.
READ_POINT_SCRIPT = """new Promise((resolve) => {
  if (!navigator.geolocation) { resolve({error: "unsupported"}); return; }
  navigator.geolocation.getCurrentPosition(
    (p) => resolve({lat: p.coords.latitude, lng: p.coords.longitude}),
    (e) => resolve({error: String(e && e.code)}),
    {enableHighAccuracy: true, timeout: 20000, maximumAge: 0}
  );
})"""
AUTH_REQUIRED = ("Erro de autenticação", "Você precisa estar logado para criar uma vaga.")
CREATE_FAILED_TITLE = "Erro ao criar vaga"
CREATE_FAILED = "Não foi possível criar a vaga. Tente novamente."
DEFAULT_BREAK_MIN = 60  # what ticking 'Possui intervalo' fills in (as a vaga without shift times gets)


def _blank_errors() -> dict[str, str]:
    return dict.fromkeys(JOB_FIELDS, "")


class PublishFormMixin(JobListsMixin, mixin=True):
    """The publish dialog's state and handlers (the form is app/pages/company_jobs/publish_form.py)."""

    publish_open: bool = False
    publishing: bool = False
    form_errors: dict[str, str] = _blank_errors()
    publish_error: str = ""
    point_lat: str = ""
    point_lng: str = ""
    protected_available: bool = False
    publish_payment: str = PaymentMode.DIRECT
    publish_team_size: int = 0  # 'Oferecer primeiro à minha equipe' shows for a company with a team
    publish_city: str = ""  # the form starts with the company profile's city and address
    publish_address: str = ""
    publish_break: str = "0"  # 'Intervalo (minutos)' as typed; 'Possui intervalo' follows it

    def _open_form(self) -> None:
        self.publish_open = True
        self.form_errors = _blank_errors()
        self.publish_error = ""
        self.point_lat = self.point_lng = ""
        self.protected_available = pricing.configured()
        self.publish_payment = PaymentMode.DIRECT
        self.publish_break = "0"
        company_id = self._company_id()
        if company_id is not None:
            with session_scope() as db:
                self.publish_team_size = teams.size(db, company_id)
                self.publish_city, self.publish_address = profiles.publish_defaults(db, company_id)

    @rx.var
    def publish_has_break(self) -> bool:
        """'Possui intervalo': ticked exactly when the break has minutes."""
        text = self.publish_break.strip()
        return text.isdigit() and int(text) > 0

    @rx.event
    def set_break_minutes(self, value: str):
        """'Intervalo (minutos)' typed: 'Possui intervalo' follows (the server checks the number on publish)."""
        self.publish_break = value[:4] if isinstance(value, str) else "0"

    @rx.event
    def toggle_break(self, checked: bool):
        """'Possui intervalo' ticked: a 60-minute break when there was none; cleared: no break."""
        if checked is True:
            self.publish_break = self.publish_break if self.publish_has_break else str(DEFAULT_BREAK_MIN)
        else:
            self.publish_break = "0"

    @rx.event
    def choose_payment(self, value: str):
        """'Forma de pagamento' in the form: the note of the chosen one shows (the server checks again on publish)."""
        chosen = value if value in PAYMENT_MODES else PaymentMode.DIRECT
        if chosen == PaymentMode.GUARANTEED and not self.protected_available:
            chosen = PaymentMode.DIRECT
        self.publish_payment = chosen

    @rx.event
    def point_marked(self, reading: dict):
        """The one browser location reading of 'Marcar local do turno': kept for the hidden fields.

        Only the reading's numbers are kept, rounded to 6 decimals; anything else is refused with a toast.
        """
        reading = reading if isinstance(reading, dict) else {}
        lat, lng = reading.get("lat"), reading.get("lng")
        if self._company_id() is None or not valid_point(lat, lng):
            self.point_lat = self.point_lng = ""
            return rx.toast.error(ERROR, description=POINT_FAILED)
        self.point_lat, self.point_lng = f"{float(lat):.6f}", f"{float(lng):.6f}"
        return None

    @rx.event
    def clear_point(self):
        """'Remover local': the shift has no marked point."""
        self.point_lat = self.point_lng = ""

    @rx.event
    def open_publish(self):
        """'Publicar Nova Vaga': open an empty form."""
        self._open_form()

    @rx.event
    def set_publish_open(self, value: bool):
        """Open or close the publish dialog (Esc, overlay, 'Cancelar'); the form starts afresh."""
        if value is True:
            self._open_form()
        else:
            self.publish_open = False

    @rx.event
    @recovers(CREATE_FAILED_TITLE, CREATE_FAILED, reset={"publishing": False})
    async def publish(self, form_data: dict):
        """Publish the job of the form; a submission while one runs, or with the dialog closed, is ignored."""
        if self.publishing or not self.publish_open:
            return
        self.publishing = True
        self.form_errors = _blank_errors()
        self.publish_error = ""
        yield
        try:
            for event in self._create(form_data if isinstance(form_data, dict) else {}):
                yield event
        finally:
            self.publishing = False

    def _create(self, data: dict):
        user = self._current_user()
        if user is None:
            yield rx.toast.error(AUTH_REQUIRED[0], description=AUTH_REQUIRED[1])
            return
        try:
            with session_scope() as db:
                company_jobs.create_job(db, user.id, data)
        except PlanLimitReached as exc:
            self.publish_error = exc.message
            return
        except ServiceError as exc:
            self.form_errors = {**_blank_errors(), **{k: v for k, v in exc.field_errors.items() if k in JOB_FIELDS}}
            if not exc.field_errors:
                yield rx.toast.error(CREATE_FAILED_TITLE, description=exc.message)
            return
        self.publish_open = False
        self.plan_message = ""
        yield rx.toast.success(team_first.PUBLISHED if team_first.asked(data) else "Vaga criada com sucesso!")
        yield from self._load_jobs(user.id)
