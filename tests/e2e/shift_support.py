"""Filling the shift part of 'Publicar Nova Vaga' in the browser (start, end, break, address)."""

from playwright.sync_api import Locator, Page, expect

from tests.shift_form import shift_fields


def fill_shift(dialog: Locator, days: int = 3, hour: int = 18, hours: float = 8, break_min: int = 60) -> dict:
    """Fill 'Início do turno', 'Fim do turno', the break and 'Endereço do turno' of the open dialog.

    Args:
        dialog: The 'Publicar Nova Vaga' dialog.
        days: Days from today (São Paulo) of the start.
        hour: Local hour of the start.
        hours: Length of the shift.
        break_min: The unpaid break in minutes.

    Returns:
        The values filled (tests.shift_form.shift_fields).
    """
    fields = shift_fields(days=days, hour=hour, hours=hours, break_min=break_min)
    dialog.get_by_label("Início do turno").fill(fields["inicio_em"])
    dialog.get_by_label("Fim do turno").fill(fields["fim_em"])
    dialog.get_by_label("Intervalo (minutos, não remunerado)").fill(fields["intervalo_min"])
    dialog.get_by_label("Endereço do turno").fill(fields["endereco"])
    return fields


def leave_and_send_hours(page: Page, card: Locator, hours: str) -> None:
    """'Registrar saída' with 'Não consigo registrar', then 'Enviar horas' with `hours` typed in."""
    card.get_by_role("button", name="Registrar saída").click()
    page.get_by_role("dialog", name="Registrar saída").get_by_role("button", name="Não consigo registrar").click()
    expect(page.locator("[data-sonner-toast]").filter(has_text="Saída registrada").first).to_be_visible()
    card.get_by_role("button", name="Enviar horas").click()
    dialog = page.get_by_role("dialog", name="Enviar horas")
    dialog.get_by_label("Horas trabalhadas").fill(hours)
    dialog.get_by_role("button", name="Enviar horas").click()
    expect(page.locator("[data-sonner-toast]").filter(has_text="Horas enviadas").first).to_be_visible()
