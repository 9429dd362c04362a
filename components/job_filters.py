"""The job search bar shared by /jobs and the freelancer dashboard's 'Buscar Vagas': text and category."""

import reflex as rx

from components.forms import labelled
from core.catalog import CATEGORIES
from services import jobs

SEARCH_PLACEHOLDER = "Pesquisar vagas por título ou categoria"
BUTTON_TEXT_DISPLAY = ["none", "none", "inline"]


def job_filters(
    id_prefix: str,
    search: rx.Var,
    on_search: rx.EventHandler,
    category: rx.Var,
    on_category: rx.EventHandler,
) -> rx.Component:
    """A search form (submitted text) and a category select ('Todas as categorias' first).

    Args:
        id_prefix: Prefix of the controls' ids ('jobs' gives #jobs-search and #jobs-category).
        search: The active search text (the input is re-keyed on it, so a URL change refills it).
        on_search: Handler of the form's submit (gets {'search': text}).
        category: The active category slug ('' for all).
        on_category: Handler of the select's change (gets the slug).

    Returns:
        The two controls side by side on wide screens, stacked on phones.
    """
    search_id, category_id = f"{id_prefix}-search", f"{id_prefix}-category"
    return rx.flex(
        rx.form(
            labelled(
                "Pesquisar vagas",
                search_id,
                rx.hstack(
                    rx.input(
                        id=search_id,
                        name="search",
                        type="search",
                        placeholder=SEARCH_PLACEHOLDER,
                        default_value=search,
                        key=search,
                        max_length=jobs.SEARCH_MAX_LENGTH,
                        size="3",
                        width="100%",
                    ),
                    rx.button(
                        rx.icon("search", size=16),
                        rx.text("Buscar", as_="span", display=BUTTON_TEXT_DISPLAY),
                        type="submit",
                        size="3",
                        aria_label="Buscar",
                    ),
                    spacing="2",
                    width="100%",
                ),
            ),
            on_submit=on_search,
            reset_on_submit=False,
            role="search",
            flex="1",
            width="100%",
        ),
        rx.box(
            labelled(
                "Categoria",
                category_id,
                rx.el.select(
                    rx.el.option("Todas as categorias", value=""),
                    *[rx.el.option(label, value=slug) for slug, label in CATEGORIES.items()],
                    id=category_id,
                    value=category,
                    on_change=on_category,
                    class_name="turno-select",
                    style={"minHeight": "2.5rem"},
                ),
            ),
            width=["100%", "100%", "240px"],
        ),
        direction=rx.breakpoints(initial="column", sm="row"),
        spacing="4",
        align=rx.breakpoints(initial="stretch", sm="end"),
        width="100%",
    )
