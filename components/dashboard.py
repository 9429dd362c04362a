"""Small stateless cards the dashboard tabs share: headings, counters, status badges, detail lists, avatars.

Every function takes the vars and events it shows or fires as arguments, so pages and the
dashboard template in app/layout.py decide where the data comes from.
"""

from collections.abc import Sequence

import reflex as rx

from services.jobs import job_lifecycle


def count_label(count: rx.Var, singular: str, plural: str) -> rx.Var:
    """'1 conversa' / '3 conversas': a count with the right noun form."""
    return rx.cond(count == 1, "1 " + singular, count.to_string() + " " + plural)


def avatar(photo: rx.Var, initials: rx.Var, size: str = "3") -> rx.Component:
    """The user's photo, or their initials when there is none."""
    return rx.avatar(src=photo, fallback=initials, size=size, radius="full", alt="")


def count_badge(text: rx.Var) -> rx.Component:
    """A small red counter pinned to the corner of an icon (hidden when `text` is empty).

    Screen readers get the count from the link's own label instead.
    """
    return rx.cond(
        text != "",
        rx.el.span(
            text,
            aria_hidden="true",
            style={
                "position": "absolute",
                "top": "-4px",
                "right": "-6px",
                "minWidth": "18px",
                "height": "18px",
                "padding": "0 4px",
                "borderRadius": "9999px",
                "background": rx.color("red", 9),
                "color": "white",
                "fontSize": "11px",
                "fontWeight": "700",
                "lineHeight": "18px",
                "textAlign": "center",
            },
        ),
    )


def unread_label(unread: rx.Var, name: str = "Notificações") -> rx.Var:
    """Accessible name of a link to the notifications, e.g. 'Notificações: 2 não lidas'."""
    return rx.cond(unread > 0, name + ": " + count_label(unread, "não lida", "não lidas"), name)


def tab_heading(title: str, subtitle: str | rx.Var = "", *actions: rx.Component) -> rx.Component:
    """The h1 of a dashboard tab with an optional lead and actions on the right."""
    return rx.flex(
        rx.vstack(
            rx.heading(title, as_="h1", size="7"),
            rx.text(subtitle, color=rx.color("gray", 11))
            if isinstance(subtitle, rx.Var) or subtitle
            else rx.fragment(),
            spacing="1",
        ),
        rx.spacer(),
        *actions,
        direction=rx.breakpoints(initial="column", sm="row"),
        align=rx.breakpoints(initial="start", sm="center"),
        gap="0.75rem",
        width="100%",
        margin_bottom="1.25rem",
    )


def stat_card(label: str, value: rx.Var, icon: str, element_id: str, hint: rx.Var | str = "") -> rx.Component:
    """A counter card."""
    return rx.card(
        rx.hstack(
            rx.center(
                rx.icon(icon, size=22, color=rx.color("accent", 11)),
                background=rx.color("accent", 3),
                border_radius="10px",
                width="44px",
                height="44px",
                flex_shrink="0",
            ),
            rx.vstack(
                rx.text(label, size="2", color=rx.color("gray", 11)),
                rx.text(value, size="6", weight="bold", id=element_id),
                rx.text(hint, size="1", color=rx.color("gray", 11))
                if isinstance(hint, rx.Var) or hint
                else rx.fragment(),
                spacing="0",
            ),
            spacing="3",
            align="center",
        ),
        width="100%",
    )


JOB_STATUS_COLORS = tuple((status.value, row.tone) for status, row in job_lifecycle.STAGE_ROWS.items())
APPLICATION_STATUS_COLORS = (("pending", "amber"), ("accepted", "green"), ("rejected", "red"))
# services/jobs/application_status.py `StatusView.tone`: the badge's colour is the tone itself.
TONE_COLORS = tuple((tone, tone) for tone in ("amber", "green", "blue", "red", "gray"))


def status_badge(status: rx.Var, label: rx.Var, colors: Sequence[tuple[str, str]] = JOB_STATUS_COLORS) -> rx.Component:
    """A coloured badge for a job or application status."""
    return rx.match(
        status,
        *[(value, rx.badge(label, color_scheme=color, variant="soft", size="2")) for value, color in colors],
        rx.badge(label, color_scheme="gray", variant="soft", size="2"),
    )


def section_card(title: str, *children: rx.Component, action: rx.Component | None = None) -> rx.Component:
    """A titled card grouping part of a tab."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading(title, as_="h2", size="4"),
                rx.spacer(),
                action or rx.fragment(),
                width="100%",
                align="center",
            ),
            *children,
            spacing="3",
            width="100%",
        ),
        width="100%",
    )


def detail_row(label: str, value: rx.Var, empty: str = "Não informado") -> rx.Component:
    """One label/value line of a read-only profile."""
    return rx.data_list.item(
        rx.data_list.label(label, min_width="140px"),
        rx.data_list.value(
            rx.cond(value != "", rx.text(value, word_break="break-word"), rx.text(empty, color=rx.color("gray", 10)))
        ),
    )


def detail_item(label: rx.Var | str, value: rx.Component) -> rx.Component:
    """One label/value line whose value is a component (badges, a list)."""
    return rx.data_list.item(rx.data_list.label(label, min_width="140px"), rx.data_list.value(value))


def detail_list(*rows: rx.Component) -> rx.Component:
    """A read-only list of label/value rows that stacks on small screens."""
    return rx.data_list.root(*rows, orientation=rx.breakpoints(initial="vertical", sm="horizontal"), size="2")


def loading(text: str = "Carregando...") -> rx.Component:
    """A centred spinner with a text."""
    return rx.center(
        rx.hstack(rx.spinner(size="3"), rx.text(text, color=rx.color("gray", 11)), spacing="3", align="center"),
        padding="3rem 1rem",
        width="100%",
    )
