"""Free-text minimums count what a reader sees (services/common/validation.py `visible_length`).

A reason of zero-width spaces, or a short word padded with no-break spaces, word joiners, BOMs,
direction marks, combining marks alone or Hangul fillers, showed up blank for staff and the other
side (issue 41, point 9). Every place with a minimum refuses it with its usual message and writes
nothing; a normal reason still passes.
"""

from collections.abc import Callable

import pytest
from sqlalchemy import func
from sqlmodel import select

from models import Falta, Hiring, HiringEvent, ReviewRequest
from services.common import account_forms, job_forms, profile_forms, validation
from services.common.errors import ServiceError, ValidationFailed
from services.reach import chat_sending
from services.shifts import admin_reviews, faltas
from tests.support.factories import make_cast
from tests.support.shift_helpers import MIN, H, by_company, by_freelancer, hire, make_staff, run

REASON_SHORT = "Explique o motivo com pelo menos 10 caracteres."
GOOD_REASON = "A portaria confirmou a presença às 18h."

# Padding a reader does not see: each is added to one visible character short of the minimum.
PADDINGS = {
    "zero-width space": "\u200b" * 12,
    "no-break space": "\u00a0" * 12,
    "word joiner": "\u2060" * 12,
    "byte order mark": "\ufeff" * 12,
    "direction marks": "\u200e\u200f\u202e\u2067\u2069\u061c" * 3,
    "combining marks alone": "\u0301\u0327\u0303\u20dd" * 4,
    "hangul filler and blank braille": "\u3164\u115f\u2800\uffa0" * 3,
    "mixed": "\u200b\u00a0\u2060\ufeff\u200f\u0301\u3000\u2028" * 2,
}


def short(size: int, padding: str) -> str:
    """`size - 1` visible letters followed by `padding` (which, alone, makes it long enough by `len`)."""
    return "Justificativa"[: size - 1] + padding


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("\u200b" * 20, 0),
        ("Olá, tudo bem?", 12),
        ("Sa\u0301ude", 5),  # a combining accent decorates its letter, it adds nothing
        ("\u202eabc\u202c", 3),
        ("\u3000\u00a0\u2007x\u205f", 1),
        (None, 0),
        (12345, 0),
    ],
)
def test_visible_length_counts_what_a_reader_sees(text, expected):
    assert validation.visible_length(text) == expected


def test_visible_length_stops_at_enough():
    assert validation.visible_length("a" * 10_000, 10) == 10


@pytest.mark.parametrize("padding", list(PADDINGS.values()), ids=list(PADDINGS))
def test_only_zero_width_spaces_is_invisible_and_every_padding_is_too(padding):
    assert len(short(10, padding)) >= 10
    assert validation.visible_length(short(10, padding)) == 9
    assert validation.visible_length(padding) == 0


# --- the shift loop, faltas and the back office (database) ---------------------------------------


def _written(db) -> tuple:
    """What a refused reason must leave as it was: events, requests, decisions, versions."""
    db.expire_all()

    def count(table, *where) -> int:
        return db.exec(select(func.count()).select_from(table).where(*where)).one()

    return (
        count(HiringEvent),
        count(ReviewRequest),
        count(ReviewRequest, ReviewRequest.decided_at.is_not(None)),
        db.exec(select(func.sum(Hiring.version))).one(),
    )


def _hours_sent(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_freelancer(db, s, "chegada", s.start, method="codigo", code=s.code(s.start))
    by_freelancer(db, s, "saida", s.end, method="manual")
    by_freelancer(db, s, "enviar_horas", s.end + H, hours="7:00")
    return s


def _no_show(db, cast):
    s = hire(db, cast.company, cast.freelancer)
    by_company(db, s, "nao_compareceu", s.start + 30 * MIN)
    return s


def _contested_no_show(db, cast):
    s = _no_show(db, cast)
    by_freelancer(db, s, "contestar_falta", s.start + 2 * H, reason="Eu estava lá, a portaria não me deixou entrar.")
    staff = make_staff(db)
    db.commit()
    return s, staff


def company_adjusts(db, cast) -> Callable[[str], object]:
    s = _hours_sent(db, cast)
    return lambda reason: by_company(db, s, "ajustar", s.end + 2 * H, hours="5:00", reason=reason)


def freelancer_contests_the_adjustment(db, cast) -> Callable[[str], object]:
    s = _hours_sent(db, cast)
    by_company(db, s, "ajustar", s.end + 2 * H, hours="5:00", reason="Saiu duas horas antes do fim.")
    return lambda reason: by_freelancer(db, s, "contestar_ajuste", s.end + 3 * H, reason=reason)


def freelancer_contests_a_no_show(db, cast) -> Callable[[str], object]:
    s = _no_show(db, cast)
    return lambda reason: by_freelancer(db, s, "contestar_falta", s.start + 2 * H, reason=reason)


def staff_decides_on_the_shift(db, cast) -> Callable[[str], object]:
    s, staff = _contested_no_show(db, cast)
    return lambda reason: run(db, staff.id, "admin", s.hiring_id, "decidir", s.start + 5 * H, decision="falta",
                              reason=reason)  # fmt: skip


def staff_decides_in_the_back_office(db, cast) -> Callable[[str], object]:
    s, staff = _contested_no_show(db, cast)
    request_id = db.exec(select(ReviewRequest.id).where(ReviewRequest.hiring_id == s.hiring_id)).one()

    def attempt(reason: str) -> None:
        try:
            admin_reviews.decide(db, staff.id, request_id, {"decision": "falta", "reason": reason}, s.start + 5 * H)
        except BaseException:
            db.rollback()
            raise
        db.commit()

    return attempt


def freelancer_asks_for_a_falta_review(db, cast) -> Callable[[str], object]:
    s = _no_show(db, cast)
    falta_id = db.exec(select(Falta.id).where(Falta.hiring_id == s.hiring_id)).one()

    def attempt(reason: str) -> None:
        try:
            faltas.request_review(db, cast.freelancer.id, falta_id, reason, s.start + 3 * H)
        except BaseException:
            db.rollback()
            raise
        db.commit()

    return attempt


REASON_SITES = [
    company_adjusts,
    freelancer_contests_the_adjustment,
    freelancer_contests_a_no_show,
    staff_decides_on_the_shift,
    staff_decides_in_the_back_office,
    freelancer_asks_for_a_falta_review,
]


@pytest.mark.parametrize("site", REASON_SITES, ids=[site.__name__ for site in REASON_SITES])
def test_an_invisible_reason_is_refused_and_writes_nothing_and_a_real_one_passes(db, site):
    attempt = site(db, make_cast(db))
    before = _written(db)

    for name, padding in PADDINGS.items():
        for reason in (padding, short(10, padding)):
            with pytest.raises(ServiceError) as refused:
                attempt(reason)
            assert refused.value.message == REASON_SHORT, name
            assert _written(db) == before, name

    attempt(GOOD_REASON)
    assert _written(db) != before


# --- forms and chat messages -----------------------------------------------------------------------

FORM_MINIMUMS = [
    (account_forms.ContactForm, "message", 10, "A mensagem deve ter pelo menos 10 caracteres"),
    (account_forms.ContactForm, "name", 3, "O nome deve ter pelo menos 3 caracteres"),
    (account_forms.FreelancerRegistration, "name", 2, "Nome deve ter pelo menos 2 caracteres"),
    (account_forms.FreelancerRegistration, "profession", 2, "Profissão deve ter pelo menos 2 caracteres"),
    (account_forms.CompanyRegistration, "company", 2, "Nome da empresa deve ter pelo menos 2 caracteres"),
    (profile_forms.CompanyProfileForm, "biografia", 10, "A biografia deve ter pelo menos 10 caracteres"),
    (profile_forms.FreelancerProfileForm, "nome", 2, "Nome deve ter pelo menos 2 caracteres"),
    (job_forms.JobForm, "titulo", 2, "Título deve ter pelo menos 2 caracteres."),
    (job_forms.JobForm, "descricao", 10, "Descrição deve ter pelo menos 10 caracteres."),
    (job_forms.JobForm, "endereco", 5, job_forms.SHIFT_ADDRESS),
]


@pytest.mark.parametrize(
    ("schema", "field", "size", "message"),
    FORM_MINIMUMS,
    ids=[f"{schema.__name__}.{field}" for schema, field, _, _ in FORM_MINIMUMS],
)
@pytest.mark.parametrize("padding", list(PADDINGS.values()), ids=list(PADDINGS))
def test_a_form_field_padded_with_invisible_characters_is_too_short(schema, field, size, message, padding):
    with pytest.raises(ValidationFailed) as refused:
        validation.parse(schema, {field: short(size, padding)})
    assert refused.value.field_errors[field] == message


@pytest.mark.parametrize(
    ("schema", "field", "size", "message"),
    FORM_MINIMUMS,
    ids=[f"{schema.__name__}.{field}" for schema, field, _, _ in FORM_MINIMUMS],
)
def test_a_form_field_with_enough_visible_characters_passes_its_minimum(schema, field, size, message):
    try:
        validation.parse(schema, {field: "Avenida Paulista, 1578 \u200b"})
    except ValidationFailed as refused:
        assert field not in refused.field_errors


def test_passwords_still_count_every_character():
    form = account_forms.PasswordChangeForm.model_validate(
        {"current": "\u200b" * 8, "new": "Segura2026\u200b", "confirm": "Segura2026\u200b"}
    )
    assert form.current == "\u200b" * 8


@pytest.mark.parametrize("padding", list(PADDINGS.values()), ids=list(PADDINGS))
def test_a_chat_message_with_nothing_visible_is_blank(padding):
    with pytest.raises(ServiceError) as refused:
        chat_sending.clean_message(padding)
    assert refused.value.message == chat_sending.MESSAGE_BLANK
    assert chat_sending.clean_message("ok\u200b") == "ok\u200b"
