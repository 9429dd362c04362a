"""services/contact.py: the contact form is validated with SPEC §5's messages and stored."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.config import Config
from sqlmodel import Session, select

from alembic import command
from core.db import make_engine
from models import ContactMessage
from services import contact
from services.errors import ValidationFailed

VALID = {
    "name": "Maria Souza",
    "email": "Maria@Example.com",
    "phone": "(11) 98765-4321",
    "subject": "support",
    "message": "Não consigo publicar uma vaga nova.",
}


@pytest.fixture(scope="module")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per module (each test gets a copy)."""
    path = tmp_path_factory.mktemp("contact") / "template.db"
    cfg = Config("alembic.ini")
    cfg.attributes["database_url"] = f"sqlite:///{path}"
    cfg.attributes["skip_logging"] = True
    command.upgrade(cfg, "head")
    return path


@pytest.fixture
def contact_db(migrated_template: Path, tmp_path: Path) -> Iterator[Session]:
    """A fresh database at head (a copy of the template) and a session on it."""
    path = tmp_path / "contact.db"
    shutil.copyfile(migrated_template, path)
    engine = make_engine(f"sqlite:///{path}")
    with Session(engine, expire_on_commit=False) as session:
        yield session
    engine.dispose()


def _stored(session: Session) -> list[ContactMessage]:
    return list(session.exec(select(ContactMessage)).all())


def test_valid_message_is_stored(contact_db: Session) -> None:
    contact.submit(contact_db, dict(VALID))
    contact_db.commit()

    rows = _stored(contact_db)
    assert len(rows) == 1
    row = rows[0]
    assert row.name == "Maria Souza"
    assert row.email == "maria@example.com"
    assert row.phone == "(11) 98765-4321"
    assert row.subject == "support"
    assert row.message == "Não consigo publicar uma vaga nova."


def test_phone_is_optional(contact_db: Session) -> None:
    data = {key: value for key, value in VALID.items() if key != "phone"}
    contact.submit(contact_db, data)
    contact_db.commit()

    assert [row.phone for row in _stored(contact_db)] == [""]


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
def test_invalid_field_gives_its_message_and_stores_nothing(
    contact_db: Session, field: str, value: str, message: str
) -> None:
    with pytest.raises(ValidationFailed) as caught:
        contact.submit(contact_db, {**VALID, field: value})
    contact_db.commit()

    assert caught.value.field_errors == {field: message}
    assert _stored(contact_db) == []


@pytest.mark.parametrize("field", ["name", "email", "subject", "message"])
def test_missing_required_field_gives_its_message(contact_db: Session, field: str) -> None:
    data = {key: value for key, value in VALID.items() if key != field}
    with pytest.raises(ValidationFailed) as caught:
        contact.submit(contact_db, data)

    assert set(caught.value.field_errors) == {field}
    assert caught.value.field_errors[field]


def test_every_invalid_field_is_reported_at_once(contact_db: Session) -> None:
    with pytest.raises(ValidationFailed) as caught:
        contact.submit(contact_db, {"name": "", "email": "x", "subject": "?", "message": ""})

    assert caught.value.field_errors == {
        "name": "O nome deve ter pelo menos 3 caracteres",
        "email": "Por favor, insira um email válido",
        "subject": "Por favor, selecione um assunto",
        "message": "A mensagem deve ter pelo menos 10 caracteres",
    }


def test_extra_keys_are_ignored(contact_db: Session) -> None:
    contact.submit(contact_db, {**VALID, "id": 999, "user_id": 1, "is_admin": True, 7: "x"})
    contact_db.commit()

    rows = _stored(contact_db)
    assert len(rows) == 1
    assert rows[0].id != 999


def test_non_mapping_payload_is_refused(contact_db: Session) -> None:
    with pytest.raises(ValidationFailed):
        contact.submit(contact_db, ["not", "a", "form"])  # type: ignore[arg-type]

    assert _stored(contact_db) == []


def test_long_text_is_truncated_to_column_sizes(contact_db: Session) -> None:
    contact.submit(contact_db, {**VALID, "name": "N" * 500, "phone": "9" * 100, "message": "m" * 9000})
    contact_db.commit()

    row = _stored(contact_db)[0]
    assert (len(row.name), len(row.phone), len(row.message)) == (120, 30, 5000)
