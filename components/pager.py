"""Page navigation for long lists: at most 5 page numbers, ellipses, Anterior and Próxima.

The pager is made of plain links, so every page has its own URL; the state computes the links
with services.common.paging `pager_links` (or all three fields with `pager_fields`) and the page renders them with
`pager`. Lists that grow in place (a dialog, the notifications) use `load_more` instead.
"""

import reflex as rx

from components.links import link_button

SIZE = rx.breakpoints(initial="1", sm="2")


def _step(label: str, href: rx.Var, icon: str, icon_first: bool) -> rx.Component:
    """Anterior / Próxima: a link, or a disabled button on the first / last page."""
    text = rx.text(label, as_="span", display=["none", "none", "inline"])
    parts = [rx.icon(icon, size=16), text] if icon_first else [text, rx.icon(icon, size=16)]
    return rx.cond(
        href != "",
        link_button(*parts, href=href, variant="soft", size=SIZE, aria_label=label),
        rx.button(*parts, variant="soft", size=SIZE, disabled=True, aria_label=label),
    )


def _number(item: rx.Var) -> rx.Component:
    """One page number link (the current one highlighted), or an ellipsis."""
    return rx.cond(
        item["href"] == "",
        rx.text(item["label"], color=rx.color("gray", 11), padding_x="0.25rem", aria_hidden="true"),
        link_button(
            item["label"],
            href=item["href"],
            variant=rx.cond(item["current"], "solid", "outline"),
            size=SIZE,
            min_width=["2rem", "2rem", "2.25rem"],
            aria_label="Página " + item["label"].to(str),
            aria_current=rx.cond(item["current"], "page", "false"),
        ),
    )


def pager(links: rx.Var, prev_href: rx.Var, next_href: rx.Var) -> rx.Component:
    """The pager; renders nothing when `links` is empty (a single page).

    Args:
        links: The items from `pager_links`.
        prev_href: URL of the previous page, empty on the first page.
        next_href: URL of the next page, empty on the last page.

    Returns:
        A navigation landmark labelled 'Paginação'.
    """
    return rx.cond(
        links.length() > 0,
        rx.el.nav(
            rx.flex(
                _step("Anterior", prev_href, "chevron-left", icon_first=True),
                rx.foreach(links, _number),
                _step("Próxima", next_href, "chevron-right", icon_first=False),
                gap=rx.breakpoints(initial="0.375rem", sm="0.5rem"),
                align="center",
                justify="center",
                wrap="wrap",
            ),
            aria_label="Paginação",
            id="pager",
            style={"marginTop": "1.5rem"},
        ),
    )


def load_more(more: rx.Var, on_click: rx.EventHandler, busy: rx.Var, element_id: str) -> rx.Component:
    """'Carregar mais' under a list read in slices; shown only while more rows follow.

    Args:
        more: Whether rows follow the ones shown.
        on_click: The handler that appends the next slice.
        busy: True while that handler runs (the button shows a spinner and ignores clicks).
        element_id: The button's id.

    Returns:
        A centred soft button, or nothing.
    """
    return rx.cond(
        more,
        rx.center(
            rx.button(
                rx.icon("chevron-down", size=16),
                "Carregar mais",
                variant="soft",
                on_click=on_click,
                loading=busy,
                id=element_id,
            ),
            width="100%",
            padding_top="0.5rem",
        ),
    )
