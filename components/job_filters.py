"""The job search bar shared by /jobs and the freelancer dashboard's 'Buscar Vagas': text and category.

/jobs adds a 'Pagamento garantido' checkbox (only the vagas paid through the Turno).
"""

import reflex as rx

from components.forms import labelled
from components.ui import empty_state
from core.catalog import CATEGORIES, PAYMENT_GUARANTEED_BADGE
from services.jobs import jobs

SEARCH_PLACEHOLDER = "Pesquisar vagas por título ou categoria"
NO_OPEN_JOBS_TITLE = "Nenhuma vaga aberta no momento"
NO_OPEN_JOBS_TEXT = "Novas vagas aparecem aqui assim que as empresas publicam. Volte em breve."
BUTTON_TEXT_DISPLAY = ["none", "none", "inline"]


def job_filters(
    id_prefix: str,
    search: rx.Var,
    on_search: rx.EventHandler,
    category: rx.Var,
    on_category: rx.EventHandler,
    *,
    guaranteed: rx.Var | None = None,
    on_guaranteed: rx.EventHandler | None = None,
) -> rx.Component:
    """A search form (submitted text), a category select ('Todas as categorias' first) and, when asked, 'Pagamento garantido'.

    Args:
        id_prefix: Prefix of the controls' ids ('jobs' gives #jobs-search and #jobs-category).
        search: The active search text (the input is re-keyed on it, so a URL change refills it).
        on_search: Handler of the form's submit (gets {'search': text}).
        category: The active category slug ('' for all).
        on_category: Handler of the select's change (gets the slug).
        guaranteed: Whether only guaranteed vagas are listed (the checkbox #filter-garantido is shown
            only with `on_guaranteed`).
        on_guaranteed: Handler of the checkbox's change (gets whether it is now ticked).

    Returns:
        The controls side by side on wide screens, stacked on phones.
    """
    search_id, category_id = f"{id_prefix}-search", f"{id_prefix}-category"
    extra = [guaranteed_filter(guaranteed, on_guaranteed)] if on_guaranteed is not None else []
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
        *extra,
        direction=rx.breakpoints(initial="column", sm="row"),
        spacing="4",
        align=rx.breakpoints(initial="stretch", sm="end"),
        width="100%",
    )


GUARANTEED_FILTER_ID = "filter-garantido"


def guaranteed_filter(checked: rx.Var | bool | None, on_change: rx.EventHandler) -> rx.Component:
    """The 'Pagamento garantido' checkbox (#filter-garantido), its whole label clickable, 2.5rem tall like the select.

    Args:
        checked: Whether it is ticked (None: clear).
        on_change: Gets whether it is now ticked.
    """
    return rx.el.label(
        rx.checkbox(
            id=GUARANTEED_FILTER_ID,
            checked=checked if checked is not None else False,
            on_change=on_change,
            color_scheme="green",
            size="2",
        ),
        rx.icon("shield-check", size=16, color=rx.color("green", 10), aria_hidden="true"),
        rx.text(PAYMENT_GUARANTEED_BADGE, as_="span", size="2", weight="medium"),
        html_for=GUARANTEED_FILTER_ID,
        style={
            "display": "flex",
            "alignItems": "center",
            "gap": "0.5rem",
            "minHeight": "2.5rem",
            "whiteSpace": "nowrap",
            "cursor": "pointer",
        },
        flex_shrink="0",
    )


def no_jobs(filtered: rx.Var, on_clear: rx.EventHandler) -> rx.Component:
    """The empty list: SPEC.md's 'Nenhuma vaga encontrada' and 'Limpar filtros' when filtered, else no open vaga at all.

    Without a filter there is nothing to clear, so the text does not mention filters (issue 42).
    """
    return rx.cond(
        filtered,
        empty_state(
            "search-x",
            "Nenhuma vaga encontrada",
            "Atualmente não há vagas disponíveis que correspondam aos seus filtros.",
            rx.button("Limpar filtros", variant="outline", on_click=on_clear),
        ),
        empty_state("briefcase-business", NO_OPEN_JOBS_TITLE, NO_OPEN_JOBS_TEXT),
    )
