"""`make seed-large` fills either engine with consistent data (tiny sizes here)."""

import argparse
import random

from sqlalchemy import func, select, text
from sqlmodel import Session

from core.db import make_engine
from core.security import verify_password
from models import Application, Chat, Job, Message, Profile, User
from scripts.seed import DEMO_PASSWORD
from scripts.seed_large import seed_large

SIZES = argparse.Namespace(jobs=300, companies=20, freelancers=60, applications=900, chats=40, messages=400, seed=7)


def _count(db: Session, model) -> int:
    return db.exec(select(func.count()).select_from(model)).one()[0]


def test_seed_large_inserts_the_sizes_asked_for_and_keeps_every_rule(database_url):
    engine = make_engine(database_url)
    try:
        timings = seed_large(engine, SIZES, random.Random(SIZES.seed))
        assert set(timings) >= {"users", "jobs", "applications", "chats", "messages"}
        with Session(engine) as db:
            assert _count(db, User) == SIZES.companies + SIZES.freelancers
            assert _count(db, Profile) == SIZES.companies + SIZES.freelancers
            assert _count(db, Job) == SIZES.jobs
            assert _count(db, Application) == SIZES.applications
            assert _count(db, Chat) == SIZES.chats
            assert _count(db, Message) == SIZES.messages
            over_hired = db.exec(
                text(
                    "SELECT COUNT(*) FROM jobs j WHERE j.vagas_disponiveis < "
                    "(SELECT COUNT(*) FROM applications a WHERE a.vaga_id = j.id AND a.status = 'accepted')"
                )
            ).one()[0]
            assert over_hired == 0
            strangers = db.exec(
                text(
                    "SELECT COUNT(*) FROM chats c JOIN applications a ON a.id = c.application_id "
                    "JOIN jobs j ON j.id = a.vaga_id "
                    "WHERE c.client_id != j.cliente_id OR c.freelancer_id != a.freelancer_id"
                )
            ).one()[0]
            assert strangers == 0
            foreign_senders = db.exec(
                text(
                    "SELECT COUNT(*) FROM messages m JOIN chats c ON c.id = m.chat_id "
                    "WHERE m.sender_id NOT IN (c.client_id, c.freelancer_id)"
                )
            ).one()[0]
            assert foreign_senders == 0
            hashed = db.exec(select(User.password_hash).limit(1)).one()[0]
            assert verify_password(DEMO_PASSWORD, hashed)
    finally:
        engine.dispose()
