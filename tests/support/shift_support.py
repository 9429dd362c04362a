"""Shift-loop steps shared by the browser tests: the publish form's shift fields, a vaga made
directly, a paid shift (fixture rows), the shifts tab's card of a vaga, and leaving and sending hours."""

from datetime import timedelta
from decimal import Decimal

from playwright.sync_api import Locator, Page, expect
from sqlmodel import select

from core.db import session_scope
from core.types import utcnow
from models import Application, Hiring, HiringEvent, Job, User
from services.jobs import attendance_code
from tests.e2e.conftest import toast
from tests.support.shift_form import shift_fields


def fill_shift(dialog: Locator, days: int = 3, hour: int = 18, hours: float = 8, break_min: int = 60) -> dict:
    """Fill 'Início do turno', 'Fim do turno', the break and 'Endereço do turno' of the open dialog.

    Args:
        dialog: The 'Publicar Nova Vaga' dialog.
        days: Days from today (São Paulo) of the start.
        hour: Local hour of the start.
        hours: Length of the shift.
        break_min: The unpaid break in minutes.

    Returns:
        The values filled (tests.support.shift_form.shift_fields).
    """
    fields = shift_fields(days=days, hour=hour, hours=hours, break_min=break_min)
    dialog.get_by_label("Início do turno").fill(fields["inicio_em"])
    dialog.get_by_label("Fim do turno").fill(fields["fim_em"])
    dialog.get_by_label("Intervalo (minutos, não remunerado)").fill(fields["intervalo_min"])
    dialog.get_by_label("Endereço do turno").fill(fields["endereco"])
    return fields


def begin_now(title: str) -> None:
    """The shift of the vaga titled `title` began a minute ago (its vaga and hiring moved earlier, same length).

    The browser tests check in up to an hour before the start; leaving and sending hours wait for the start.
    """
    with session_scope() as db:
        job = db.exec(select(Job).where(Job.titulo == title)).one()
        shift = (utcnow().replace(second=0, microsecond=0) - timedelta(minutes=1)) - job.inicio_em
        if shift >= timedelta(0):
            return
        job.inicio_em, job.fim_em = job.inicio_em + shift, job.fim_em + shift
        for hiring in db.exec(select(Hiring).where(Hiring.job_id == job.id)).all():
            hiring.inicio_em, hiring.fim_em = hiring.inicio_em + shift, hiring.fim_em + shift
            db.add(hiring)
        db.add(job)


def leave_and_send_hours(page: Page, card: Locator, hours: str) -> None:
    """Once the shift began, 'Registrar saída' with 'Não consigo registrar', then 'Enviar horas' with `hours`."""
    begin_now(card.locator(".shift-title").inner_text())
    card.get_by_role("button", name="Registrar saída").click()
    page.get_by_role("dialog", name="Registrar saída").get_by_role("button", name="Não consigo registrar").click()
    expect(page.locator("[data-sonner-toast]").filter(has_text="Saída registrada").first).to_be_visible()
    card.get_by_role("button", name="Enviar horas").click()
    dialog = page.get_by_role("dialog", name="Enviar horas")
    dialog.get_by_label("Horas trabalhadas").fill(hours)
    dialog.get_by_role("button", name="Enviar horas").click()
    expect(page.locator("[data-sonner-toast]").filter(has_text="Horas enviadas").first).to_be_visible()


def bar_job(company_email: str, title: str, starts_in: timedelta, hours: int = 6, **fields) -> int:
    """A public vaga of the company (bar service, R$ 40/h, 30 min break) starting `starts_in` from now.

    Args:
        company_email: The company's e-mail.
        title: The vaga's title.
        starts_in: From now to the start.
        hours: The shift's length.
        fields: Other columns (a point on the map, the payment mode).

    Returns:
        The vaga's id.
    """
    with session_scope() as db:
        company_id = db.exec(select(User.id).where(User.email == company_email)).one()
        start = utcnow().replace(second=0, microsecond=0) + starts_in
        job = Job(
            cliente_id=company_id,
            titulo=title,
            categoria="eventos",
            descricao="Serviço de bar em evento corporativo com 150 convidados.",
            localizacao="São Paulo",
            valor_hora=Decimal("40.00"),
            inicio_em=start,
            fim_em=start + timedelta(hours=hours),
            intervalo_min=30,
            endereco="Av. Paulista, 1578 - Bela Vista, São Paulo - SP",
            codigo_segredo=attendance_code.new_secret(),
            **fields,
        )
        db.add(job)
        db.flush()
        return job.id


def shift_card(page: Page, title: str) -> Locator:
    """The shift card of the vaga titled `title` on the page open."""
    return page.locator(".shift-card").filter(has_text=title).first


def my_shifts(page: Page, role: str, title: str) -> Locator:
    """Open 'Meus Turnos' (freelancer) or 'Turnos' (company) and return the vaga's card, once visible."""
    page.goto("/freelancer-dashboard?tab=shifts" if role == "freelancer" else "/client-dashboard?tab=shifts")
    card = shift_card(page, title)
    expect(card).to_be_visible()
    return card


def past_shifts(
    company_email: str, freelancer_email: str, starts: list, title: str = "Turno já pago", approved_after=None
) -> None:
    """Paid shifts of the pair that started at `starts`, each on its own closed vaga (fixture rows).

    Args:
        company_email: The company's e-mail.
        freelancer_email: The freelancer's e-mail.
        starts: The shifts' starts (in the past).
        title: The vagas' title.
        approved_after: When given, the hours were sent an hour after each shift ended and the company
            approved them this long after (a hiring event), as the punctuality badge reads it.
    """
    with session_scope() as db:
        company = db.exec(select(User.id).where(User.email == company_email)).one()
        freelancer = db.exec(select(User.id).where(User.email == freelancer_email)).one()
        for start in starts:
            job = Job(
                cliente_id=company,
                titulo=title,
                categoria="eventos",
                descricao="Atendimento em evento.",
                localizacao="São Paulo",
                inicio_em=start,
                fim_em=start + timedelta(hours=6),
                endereco="Av. Paulista, 1578 - Bela Vista, São Paulo - SP",
                codigo_segredo=attendance_code.new_secret(),
                status="closed",  # worked and over: not in the lists, not in the plan's count
                vaga_status="closed",
            )
            db.add(job)
            db.flush()
            application = Application(vaga_id=job.id, freelancer_id=freelancer, status="accepted")
            db.add(application)
            db.flush()
            sent = start + timedelta(hours=7)
            hiring = Hiring(  # worked, approved and paid
                state="paga",
                application_id=application.id,
                job_id=job.id,
                company_id=company,
                freelancer_id=freelancer,
                inicio_em=start,
                fim_em=start + timedelta(hours=6),
                valor_hora_centavos=4000,
                minutos_aprovados=360,
                valor_centavos=24000,
                horas_enviadas_em=sent if approved_after is not None else None,
                pago_em=start + timedelta(days=1),
                recebido_em=start + timedelta(days=1),
            )
            db.add(hiring)
            db.flush()
            if approved_after is not None:
                db.add(HiringEvent(hiring_id=hiring.id, actor="empresa", action="aprovar", at=sent + approved_after))


def paid_shift(company_email: str, freelancer_email: str, title: str) -> None:
    """A vaga of the company that the freelancer worked two days ago, approved and paid (fixture rows)."""
    past_shifts(company_email, freelancer_email, [utcnow().replace(second=0, microsecond=0) - timedelta(days=2)], title)


def apply_and_get_hired(freelancer: Page, company: Page, job_id: int, title: str, email: str) -> None:
    """The freelancer applies on the vaga's page and the company accepts in 'Ver candidaturas' (toasts seen)."""
    freelancer.goto(f"/jobs/{job_id}")
    box = freelancer.locator("#apply-box")
    box.get_by_role("button", name="Enviar candidatura").click()
    expect(toast(freelancer, "Candidatura enviada!")).to_be_visible()
    with session_scope() as db:
        application_id = db.exec(
            select(Application.id)
            .join(User, User.id == Application.freelancer_id)
            .where(Application.vaga_id == job_id, User.email == email)
        ).one()
    company.goto("/client-dashboard?tab=jobs")
    company.locator(f"#job-row-{job_id}").get_by_role("button", name="Ver candidaturas").click()
    dialog = company.get_by_role("dialog", name=title)
    dialog.locator(f"#application-{application_id}").get_by_role("button", name="Aceitar").click()
    expect(toast(company, "Candidatura aceita")).to_be_visible()
    company.keyboard.press("Escape")
