"""/dev/mailbox: e-mails kept locally when no SMTP server is configured (never in production)."""

import reflex as rx
from sqlmodel import select

from app.layout import public_page
from components.ui import empty_state, page_heading
from core import routes
from core.db import session_scope
from core.formatting import date_time
from core.settings import get_settings
from models import OutboxEmail


class MailboxState(rx.State):
    """The 50 newest local e-mails; empty and refused when the mailbox is disabled."""

    emails: list[dict[str, str]] = []
    enabled: bool = False

    @rx.event
    def load(self):
        """Load the newest messages when the dev mailbox is enabled."""
        self.enabled = get_settings().dev_mailbox_enabled
        if not self.enabled:
            self.emails = []
            return
        with session_scope() as db:
            rows = db.exec(select(OutboxEmail).order_by(OutboxEmail.id.desc()).limit(50)).all()
            self.emails = [
                {
                    "id": str(r.id),
                    "to": r.to_email,
                    "subject": r.subject,
                    "body": r.body,
                    "when": date_time(r.created_at),
                }
                for r in rows
            ]


def email_card(email: dict) -> rx.Component:
    """One message with its links clickable."""
    return rx.card(
        rx.vstack(
            rx.hstack(rx.text("Para: ", rx.el.strong(email["to"])), rx.spacer(), rx.text(email["when"], size="1")),
            rx.heading(email["subject"], as_="h2", size="3"),
            rx.el.pre(email["body"], style={"whiteSpace": "pre-wrap", "fontFamily": "inherit", "margin": 0}),
            rx.foreach(
                email["body"].split("\n"),
                lambda line: rx.cond(line.contains("http"), rx.link("Abrir link", href=line, class_name="mail-link")),
            ),
            spacing="2",
            align="stretch",
        ),
        class_name="mail-item",
        width="100%",
    )


@public_page(routes.DEV_MAILBOX, "Caixa de e-mails (desenvolvimento)", on_load=[MailboxState.load])
def mailbox_page() -> rx.Component:
    """List of kept e-mails."""
    return rx.vstack(
        page_heading(
            "Caixa de e-mails (desenvolvimento)", "E-mails enviados pelo sistema quando não há servidor SMTP."
        ),
        rx.cond(
            MailboxState.enabled,
            rx.cond(
                MailboxState.emails.length() > 0,
                rx.vstack(rx.foreach(MailboxState.emails, email_card), width="100%", spacing="3"),
                empty_state("inbox", "Nenhum e-mail ainda"),
            ),
            empty_state("lock", "Indisponível", "A caixa de e-mails só existe em desenvolvimento."),
        ),
        width="100%",
    )
