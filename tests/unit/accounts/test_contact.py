"""services/accounts/contact.py: the contact form is validated with the messages of docs/product/validation.md §3 and stored."""

import pytest
from sqlmodel import Session, select

from models import ContactMessage
from services.accounts import contact
from services.common.errors import ValidationFailed

VALID = {
    "name": "Maria Souza",
    "email": "Maria@Example.com",
    "phone": "(11) 98765-4321",
    "subject": "support",
    "message": "Não consigo publicar uma vaga nova.",
}


def _stored(session: Session) -> list[ContactMessage]:
    return list(session.exec(select(ContactMessage)).all())


def test_valid_message_is_stored(db: Session) -> None:
    contact.submit(db, dict(VALID))
    db.commit()

    rows = _stored(db)
    assert len(rows) == 1
    row = rows[0]
    assert row.name == "Maria Souza"
    assert row.email == "maria@example.com"
    assert row.phone == "(11) 98765-4321"
    assert row.subject == "support"
    assert row.message == "Não consigo publicar uma vaga nova."


def test_phone_is_optional(db: Session) -> None:
    data = {key: value for key, value in VALID.items() if key != "phone"}
    contact.submit(db, data)
    db.commit()

    assert [row.phone for row in _stored(db)] == [""]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "Jo", "O nome deve ter pelo menos 3 caracteres"),
        ("name", "   ", "O nome deve ter pelo menos 3 caracteres"),
        ("email", "maria@", "Por favor, insira um email válido"),
        ("email", "", "Por favor, insira um email válido"),
        ("subject", "", "Por favor, selecione um assunto"),
        ("subject", "marketing", "Por favor, selecione um assunto"),
        ("message", "Curta", "A mensagem deve ter pelo menos 10 caracteres"),
        ("message", "  123456789  ", "A mensagem deve ter pelo menos 10 caracteres"),
    ],
)
def test_invalid_field_gives_its_message_and_stores_nothing(db: Session, field: str, value: str, message: str) -> None:
    with pytest.raises(ValidationFailed) as caught:
        contact.submit(db, {**VALID, field: value})
    db.commit()

    assert caught.value.field_errors == {field: message}
    assert _stored(db) == []


@pytest.mark.parametrize("field", ["name", "email", "subject", "message"])
def test_missing_required_field_gives_its_message(db: Session, field: str) -> None:
    data = {key: value for key, value in VALID.items() if key != field}
    with pytest.raises(ValidationFailed) as caught:
        contact.submit(db, data)

    assert set(caught.value.field_errors) == {field}
    assert caught.value.field_errors[field]


def test_every_invalid_field_is_reported_at_once(db: Session) -> None:
    with pytest.raises(ValidationFailed) as caught:
        contact.submit(db, {"name": "", "email": "x", "subject": "?", "message": ""})

    assert caught.value.field_errors == {
        "name": "O nome deve ter pelo menos 3 caracteres",
        "email": "Por favor, insira um email válido",
        "subject": "Por favor, selecione um assunto",
        "message": "A mensagem deve ter pelo menos 10 caracteres",
    }


def test_extra_keys_are_ignored(db: Session) -> None:
    contact.submit(db, {**VALID, "id": 999, "user_id": 1, "is_admin": True, 7: "x"})
    db.commit()

    rows = _stored(db)
    assert len(rows) == 1
    assert rows[0].id != 999


def test_non_mapping_payload_is_refused(db: Session) -> None:
    with pytest.raises(ValidationFailed):
        contact.submit(db, ["not", "a", "form"])  # type: ignore[arg-type]

    assert _stored(db) == []


def test_long_text_is_truncated_to_column_sizes(db: Session) -> None:
    contact.submit(db, {**VALID, "name": "N" * 500, "phone": "9" * 100, "message": "m" * 9000})
    db.commit()

    row = _stored(db)[0]
    assert (len(row.name), len(row.phone), len(row.message)) == (120, 30, 5000)


def test_lone_surrogates_and_control_characters_are_not_stored(db: Session) -> None:
    """Found by tests/unit/common/test_fuzz_forms.py: a lone surrogate (JSON allows '\\ud800') failed the insert."""
    contact.submit(db, {**VALID, "name": "Maria\ud800 Souza\x1b", "message": "Olá\udfff, preciso de ajuda\x85."})
    db.commit()

    [row] = _stored(db)
    assert (row.name, row.message) == ("Maria Souza", "Olá, preciso de ajuda.")
