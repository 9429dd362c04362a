"""Rating UI: the per-row 'Avaliar' control, the stars a user gave, and the rating dialog."""

import reflex as rx

from components.forms import dialog_buttons, field_error

STAR_LABELS = ("1 estrela", "2 estrelas", "3 estrelas", "4 estrelas", "5 estrelas")
STAR_COLOR = rx.color("amber", 9)


def _star(filled: rx.Var | bool, size: int = 16) -> rx.Component:
    return rx.icon(
        "star",
        size=size,
        color=rx.cond(filled, STAR_COLOR, rx.color("gray", 8)),
        fill=rx.cond(filled, STAR_COLOR, "none"),
    )


def given_stars(stars: rx.Var) -> rx.Component:
    """The stars the viewer gave (read-only), e.g. 'Sua avaliação: ★★★★☆'."""
    return rx.hstack(
        rx.text("Sua avaliação:", size="1", color=rx.color("gray", 11)),
        rx.hstack(*[_star(stars >= n, 14) for n in range(1, 6)], spacing="0", aria_hidden="true"),
        rx.el.span(stars.to(str), " de 5 estrelas", class_name="sr-only"),
        spacing="1",
        align="center",
    )


def rating_control(row: rx.Var, on_open) -> rx.Component:
    """'Avaliar' while the row can still be rated; the stars given once rated; nothing otherwise.

    Args:
        row: A dashboard row with `id`, `can_rate` and `my_stars`.
        on_open: The mixin's `open_rating` handler, called with the row's application id.
    """
    return rx.cond(
        row["can_rate"].to(bool),
        rx.button(
            rx.icon("star", size=14),
            "Avaliar",
            size="1",
            variant="soft",
            color_scheme="amber",
            on_click=on_open(row["id"].to(int)),
        ),
        rx.cond(row["my_stars"].to(int) > 0, given_stars(row["my_stars"].to(int))),
    )


def _star_picker(state) -> rx.Component:
    return rx.hstack(
        *[
            rx.button(
                _star(state.rating_stars >= n, 28),
                type="button",
                variant="ghost",
                aria_label=STAR_LABELS[n - 1],
                aria_pressed=rx.cond(state.rating_stars == n, "true", "false"),
                on_click=state.pick_stars(n),
                padding="0.25rem",
            )
            for n in range(1, 6)
        ],
        role="group",
        aria_label="Nota",
        spacing="1",
    )


def rating_dialog(state) -> rx.Component:
    """The dialog that rates the other side of a finished job.

    Args:
        state: A state class that mixes in states.ratings.RatingMixin.
    """
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Avaliar ", state.rating_name),
            rx.dialog.description(
                "Como foi trabalhar na vaga \u201c", state.rating_job, "\u201d?", size="2", margin_bottom="1rem"
            ),
            rx.form(
                rx.vstack(
                    _star_picker(state),
                    field_error(state.rating_error, "rating-stars"),
                    rx.el.label("Comentário (opcional)", html_for="rating-comment", style={"fontWeight": "500"}),
                    rx.text_area(id="rating-comment", name="comment", max_length=1000, rows="3", width="100%"),
                    dialog_buttons("Enviar avaliação", "Enviando...", state.rating_submitting),
                    spacing="3",
                    width="100%",
                ),
                on_submit=state.submit_rating,
                reset_on_submit=True,
            ),
            max_width="440px",
        ),
        open=state.rating_open,
        on_open_change=state.close_rating,
    )


def company_rating(text: rx.Var, size: str = "2") -> rx.Component:
    """A company's received rating beside its name ('★ 4,8 (12 avaliações)'); nothing when it has none.

    Args:
        text: core.ratings.RatingSummary.text, or '' (not rated yet, or an anonymous vaga).
        size: The text size.
    """
    return rx.cond(
        text != "",
        rx.hstack(
            _star(True, 14),
            rx.el.span("Avaliação da empresa: ", class_name="sr-only"),
            rx.text(text, size=size, color=rx.color("gray", 11)),
            spacing="1",
            align="center",
            class_name="company-rating",
        ),
    )
