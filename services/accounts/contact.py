"""The contact form: stored, and e-mailed to the team when SMTP is configured."""

from sqlmodel import Session

from core.settings import get_settings
from models import ContactMessage
from services.common.account_forms import ContactForm
from services.common.email import send_email
from services.common.validation import parse


def submit(session: Session, data: dict) -> ContactMessage:
    """Validate and store a contact message.

    Raises:
        ValidationFailed: With the contact-form messages of docs/product/validation.md §3.
    """
    form = parse(ContactForm, data)
    row = ContactMessage(**form.model_dump())
    session.add(row)
    settings = get_settings()
    if settings.smtp_host:
        send_email(
            session,
            settings.contact_email,
            f"[Contato] {form.subject}: {form.name}",
            f"De: {form.name} <{form.email}> {form.phone}\n\n{form.message}",
        )
    return row
