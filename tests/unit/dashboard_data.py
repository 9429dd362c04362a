"""A migrated SQLite database and small factories for the dashboard service tests."""

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from alembic.config import Config
from sqlmodel import Session

from alembic import command
from core.db import make_engine
from core.types import utcnow
from models import Application, Chat, Job, Message, Notification, Profile, Role, User, UserPreferences

_TEMPLATE: dict[str, Path] = {}


def _template(base: Path) -> Path:
    """Build one database at Alembic head per test session; tests get a copy of it."""
    if "path" not in _TEMPLATE:
        path = base / "template.db"
        cfg = Config("alembic.ini")
        cfg.attributes["database_url"] = f"sqlite:///{path}"
        cfg.attributes["skip_logging"] = True
        command.upgrade(cfg, "head")
        _TEMPLATE["path"] = path
    return _TEMPLATE["path"]


@contextmanager
def migrated_session(tmp_path: Path, template_dir: Path) -> Iterator[Session]:
    """Yield a session on a fresh copy of the migrated database."""
    path = tmp_path / "test.db"
    shutil.copy(_template(template_dir), path)
    engine = make_engine(f"sqlite:///{path}")
    with Session(engine, expire_on_commit=False) as session:
        yield session
    engine.dispose()


def make_user(db: Session, email: str, role: Role, **profile) -> User:
    """A confirmed user with a profile and default preferences."""
    user = User(email=email, password_hash="x", role=role, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    db.add(Profile(user_id=user.id, tipo_usuario=role, **profile))
    db.add(UserPreferences(user_id=user.id))
    db.flush()
    return user


def make_job(db: Session, company: User, title: str = "Garçom", hours_ago: int = 0, **fields) -> Job:
    """A job of `company`, created `hours_ago` hours ago."""
    values = {
        "categoria": "eventos",
        "descricao": "Descrição da vaga de teste.",
        "localizacao": "São Paulo",
        "valor_hora": Decimal("30.00"),
        **fields,
    }
    job = Job(cliente_id=company.id, titulo=title, criado_em=utcnow() - timedelta(hours=hours_ago), **values)
    db.add(job)
    db.flush()
    return job


def make_application(db: Session, job: Job, freelancer: User, status: str = "pending") -> Application:
    """An application of `freelancer` to `job`."""
    application = Application(vaga_id=job.id, freelancer_id=freelancer.id, status=status)
    db.add(application)
    db.flush()
    return application


def make_chat(db: Session, application: Application, company: User, freelancer: User) -> Chat:
    """The chat of an accepted application."""
    chat = Chat(client_id=company.id, freelancer_id=freelancer.id, application_id=application.id)
    db.add(chat)
    db.flush()
    return chat


def make_message(db: Session, chat: Chat, sender: User, content: str, minutes_ago: int = 0) -> Message:
    """A message in `chat`."""
    message = Message(
        chat_id=chat.id, sender_id=sender.id, content=content, created_at=utcnow() - timedelta(minutes=minutes_ago)
    )
    db.add(message)
    db.flush()
    return message


def make_notification(db: Session, user: User, message: str, read: bool = False, kind: str = "other") -> Notification:
    """A notification for `user`."""
    notification = Notification(user_id=user.id, type=kind, message=message, read=read)
    db.add(notification)
    db.flush()
    return notification
