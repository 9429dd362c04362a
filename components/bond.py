"""The 'Termômetro de vínculo' on screen: the yellow or red notice and the red one's checkbox."""

import reflex as rx

from core import routes
from services.shifts.bond import ACKNOWLEDGE


def bond_notice(notice: rx.Var) -> rx.Component:
    """The notice of a services.trust.bond.BondNotice (nothing when its level is '')."""
    red = notice["level"] == "vermelho"
    return rx.cond(
        notice["level"] != "",
        rx.callout.root(
            rx.callout.icon(rx.icon("triangle-alert")),
            rx.callout.text(
                rx.text.strong(notice["title"]),
                " ",
                notice["text"],
                " ",
                notice["detail"],
                " ",
                rx.link("Entenda o termômetro de vínculo", href=routes.BOND_GUIDE, is_external=True),
            ),
            color_scheme=rx.cond(red, "red", "amber"),
            size="1",
            class_name="bond-notice",
            data_level=notice["level"],
            width="100%",
        ),
    )


def bond_ack(checked: rx.Var, on_change) -> rx.Component:
    """'Estou ciente e assumo a responsabilidade' (a red notice's condition to go on)."""
    return rx.el.label(
        rx.hstack(
            rx.checkbox(checked=checked, on_change=on_change, class_name="bond-ack"),
            rx.text(ACKNOWLEDGE, size="2", weight="medium"),
            spacing="2",
            align="center",
        ),
    )
