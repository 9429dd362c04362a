"""'R$ 220,00 pelo turno' before work, at 375 px (issue 42, point 9).

A freelancer sees the vaga's estimated total on /jobs, on its page, in the apply dialog (which also
restates the day and times being committed to) and, once hired, on the 'Meus Turnos' card.
"""

import re
import uuid
from datetime import timedelta

from playwright.sync_api import Page, expect
from sqlmodel import select

from core.db import session_scope
from core.shift_format import shift_when
from models import Application, Job, User
from services.shifts import application_answers
from tests.e2e.conftest import login
from tests.support.shift_support import bar_job, my_shifts

TOTAL = "R$ 220,00 pelo turno"  # 6 h - 30 min of break at R$ 40,00


def _accept(company_email: str, job_id: int) -> None:
    with session_scope() as db:
        company_id = db.exec(select(User.id).where(User.email == company_email)).one()
        application = db.exec(select(Application.id).where(Application.vaga_id == job_id)).one()
        application_answers.accept(db, company_id, application)


def test_the_total_is_shown_before_work_at_phone_size(mobile_page: Page, make_account):
    page = mobile_page
    company, freelancer = make_account("client"), make_account("freelancer")
    word = "x" + uuid.uuid4().hex[:8]
    title = f"Bartender total {word}"
    job_id = bar_job(company, title, timedelta(days=3))
    with session_scope() as db:
        job = db.get(Job, job_id)
        when = shift_when(job.inicio_em, job.fim_em)
    login(page, freelancer)

    page.goto(f"/jobs?search={word}")
    row = page.locator("tr").filter(has_text=title)
    expect(row.get_by_text(TOTAL).filter(visible=True)).to_have_count(1)

    page.goto(f"/jobs/{job_id}")
    expect(page.locator("#job-total")).to_contain_text(TOTAL)

    page.goto(f"/freelancer-dashboard?tab=jobs&search={word}")
    card = page.locator(".job-result").filter(has_text=title)
    expect(card.get_by_text(TOTAL)).to_be_visible()
    card.get_by_role("button", name=re.compile("Candidatar-se")).click()
    dialog = page.get_by_role("dialog")
    commitment = dialog.locator("#dialog-apply-commitment")
    expect(commitment).to_contain_text(f"Você está se candidatando para {when}")
    expect(commitment).to_contain_text(f"Total estimado: {TOTAL}")
    dialog.get_by_role("button", name="Enviar candidatura").click()
    expect(page.get_by_text("Candidatura enviada!")).to_be_visible()

    _accept(company, job_id)
    shift = my_shifts(page, "freelancer", title)
    expect(shift).to_contain_text(f"Estimado: {TOTAL}")
    expect(shift).not_to_contain_text("taxa do Turno")
