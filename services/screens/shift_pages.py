"""The pages around a shift: its calendar file and the company's attendance-code screen."""

from datetime import datetime
from typing import TypedDict

from sqlmodel import Session, select

from core import routes
from models import Hiring, Job
from services.common.errors import NotAllowed
from services.jobs import attendance_code
from services.screens.shift_views import day_text, time_text
from services.shifts.calendar_file import shift_ics
from services.shifts.shifts import NOT_FOUND


def calendar_file(session: Session, user_id: int, hiring_id: int, site_url: str) -> str | None:
    """'Adicionar à agenda': the .ics of one of the caller's shifts (None when it is not theirs)."""
    row = session.exec(select(Hiring, Job).join(Job, Job.id == Hiring.job_id).where(Hiring.id == hiring_id)).first()
    if row is None or user_id not in (row[0].company_id, row[0].freelancer_id):
        return None
    h, job = row
    link = f"{site_url.rstrip('/')}{routes.dashboard_tab('freelancer', 'shifts')}"
    return calendar_file_text(h, job, link)


def calendar_file_text(h: Hiring, job: Job, link: str) -> str:
    """The .ics text of a hiring's shift."""
    address = job.endereco or job.localizacao
    return shift_ics(
        uid=f"turno-{h.id}@turno",
        start=h.inicio_em,
        end=h.fim_em,
        summary=f"Turno: {job.titulo}",
        location=address,
        description=f"Intervalo: {h.intervalo_min} min. Endereço: {address}. Registre chegada e saída no app.",
        url=link,
        stamp=h.updated_at,
    )


class AttendanceScreen(TypedDict):
    """The company's 'Código de presença' screen of one vaga."""

    title: str
    day: str
    time: str
    code: str
    seconds_left: int
    link: str


def attendance_screen(session: Session, company_id: int, job_id: int, now: datetime, origin: str) -> AttendanceScreen:
    """The rotating code of one of the company's vagas and the link its QR opens.

    Raises:
        NotAllowed: Not the company's vaga.
    """
    job = session.get(Job, job_id)
    if job is None or job.cliente_id != company_id or not job.codigo_segredo:
        raise NotAllowed(NOT_FOUND, target=f"attendance code of job {job_id}")
    code = attendance_code.code_at(job.codigo_segredo, now)
    start, end = job.inicio_em or now, job.fim_em or now
    return AttendanceScreen(
        title=job.titulo,
        day=day_text(start),
        time=time_text(start, end),
        code=code,
        seconds_left=attendance_code.seconds_left(now),
        link=f"{origin.rstrip('/')}{routes.shift_check_in(job.id, code)}",
    )
