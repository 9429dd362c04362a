"""'Pagamento garantido pelo Turno' as a visitor meets it: the list's filter and badge, the vaga's page and its first HTML.

The app under test is shared by every browser test, so each test gives its vagas a unique token in
the title and searches for it; the counts it asserts are then its own.
"""

import re
import uuid

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.conftest import goto_ready, login
from tests.e2e.test_job_browsing import _add_jobs, _company

GUARANTEED = "Pagamento garantido pelo Turno"
GUARANTEED_NOTE = (
    "A empresa paga ao aceitar sua candidatura; o valor fica guardado no Turno e é enviado para você "
    "depois das horas aprovadas."
)
DIRECT = "Pagamento direto pela empresa — sem garantia do Turno"


def _two_vagas() -> tuple[str, int, int]:
    """One guaranteed and one direct vaga of a new company, both titled with a fresh token.

    Returns:
        (token, guaranteed vaga's id, direct vaga's id).
    """
    token = "zq" + uuid.uuid4().hex[:8]
    company = _company(f"Buffet {token}")
    [guaranteed] = _add_jobs(company, [f"Garçom garantido {token}"], pagamento="garantido")
    [direct] = _add_jobs(company, [f"Garçom direto {token}"])
    return token, guaranteed, direct


def _rows(page: Page):
    return page.locator("#jobs-table tbody tr")


def test_ticking_pagamento_garantido_lists_only_the_guaranteed_vaga_and_its_page_says_so(page: Page):
    token, guaranteed_id, _ = _two_vagas()
    goto_ready(page, f"/jobs?search={token}")
    expect(page.get_by_text("2 vagas encontradas")).to_be_visible()
    expect(_rows(page)).to_have_count(2)
    expect(_rows(page).filter(has_text=f"Garçom garantido {token}").locator(".job-guaranteed")).to_have_text(
        "Pagamento garantido"
    )
    expect(_rows(page).filter(has_text=f"Garçom direto {token}").locator(".job-guaranteed")).to_have_count(0)

    page.get_by_role("checkbox", name="Pagamento garantido").click()

    expect(page).to_have_url(re.compile(r"garantido=1"))
    expect(page).to_have_url(re.compile(rf"search={token}"))  # the search is kept
    expect(page.get_by_text("1 vaga encontrada")).to_be_visible()
    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text(f"Garçom garantido {token}")
    expect(page.get_by_text(f"Garçom direto {token}")).to_have_count(0)
    expect(page.locator("#filter-garantido")).to_have_attribute("aria-checked", "true")
    expect(page).to_have_title("Vagas temporárias com pagamento garantido para “" + token + "” | Turno")

    page.get_by_role("link", name=f"Ver detalhes da vaga Garçom garantido {token}").click()

    expect(page).to_have_url(re.compile(rf"/jobs/{guaranteed_id}$"))
    expect(page.locator("#job-payment")).to_contain_text(GUARANTEED)
    expect(page.locator("#job-payment")).to_contain_text(GUARANTEED_NOTE)
    expect(page.locator("#job-payment")).not_to_contain_text("sem garantia")


def test_clearing_the_box_lists_both_again(page: Page):
    token, _, _ = _two_vagas()
    goto_ready(page, f"/jobs?search={token}&garantido=1")
    expect(_rows(page)).to_have_count(1)
    expect(page.locator("#filter-garantido")).to_have_attribute("aria-checked", "true")

    page.get_by_role("checkbox", name="Pagamento garantido").click()

    expect(page).not_to_have_url(re.compile(r"garantido="))
    expect(page.get_by_text("2 vagas encontradas")).to_be_visible()
    expect(_rows(page)).to_have_count(2)


def test_a_direct_vagas_page_stays_direct(page: Page):
    _, _, direct_id = _two_vagas()

    goto_ready(page, f"/jobs/{direct_id}")

    expect(page.locator("#job-payment")).to_contain_text(DIRECT)
    expect(page.locator("#job-payment")).not_to_contain_text(GUARANTEED)


def test_the_apply_form_says_how_each_vaga_is_paid(page: Page, make_account):
    _, guaranteed_id, direct_id = _two_vagas()
    login(page, make_account("freelancer"))

    page.goto(f"/jobs/{guaranteed_id}")
    callout = page.locator("#detail-apply-payment")
    expect(callout).to_contain_text(f"{GUARANTEED}. {GUARANTEED_NOTE}")
    expect(callout).not_to_contain_text("sem garantia")

    page.goto(f"/jobs/{direct_id}")
    expect(callout).to_contain_text(DIRECT)
    expect(callout).not_to_contain_text(GUARANTEED)


def test_the_first_html_of_a_guaranteed_vaga_says_guaranteed_and_a_direct_ones_direct(base_url: str):
    _, guaranteed_id, direct_id = _two_vagas()

    guaranteed = httpx.get(f"{base_url}/jobs/{guaranteed_id}")
    direct = httpx.get(f"{base_url}/jobs/{direct_id}")

    assert guaranteed.status_code == direct.status_code == 200
    assert f"<dd>{GUARANTEED}</dd>" in guaranteed.text
    assert GUARANTEED_NOTE in guaranteed.text
    assert DIRECT not in guaranteed.text
    assert f"<dd>{DIRECT}</dd>" in direct.text
    assert GUARANTEED not in direct.text


def test_the_first_html_of_the_guaranteed_list_has_its_own_title(base_url: str):
    answer = httpx.get(f"{base_url}/jobs?garantido=1")

    assert answer.status_code == 200
    assert "<title data-seo" in answer.text
    assert "Vagas temporárias com pagamento garantido | Turno</title>" in answer.text


def test_the_filter_works_on_a_phone(mobile_page: Page):
    token, _, _ = _two_vagas()
    goto_ready(mobile_page, f"/jobs?search={token}")
    expect(_rows(mobile_page)).to_have_count(2)
    box = mobile_page.get_by_role("checkbox", name="Pagamento garantido")
    expect(box).to_be_in_viewport()
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing sticks out sideways

    label = mobile_page.locator("label", has=mobile_page.locator("#filter-garantido"))
    label.get_by_text("Pagamento garantido", exact=True).click()  # the label's text ticks it too

    expect(mobile_page).to_have_url(re.compile(r"garantido=1"))
    expect(mobile_page.get_by_text("1 vaga encontrada")).to_be_visible()
    expect(_rows(mobile_page)).to_have_count(1)
    expect(_rows(mobile_page).first.locator(".job-guaranteed")).to_be_visible()
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 375
