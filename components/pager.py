"""Page navigation for long lists: at most 5 page numbers, ellipses, Anterior and Próxima.

The pager is made of plain links, so every page has its own URL; the state computes the links
with `pager_links` (or all three fields with `pager_fields`) and the page renders them with
`pager`. Lists that grow in place (a dialog, the notifications) use `load_more` instead.
"""

from collections.abc import Callable
from typing import TypedDict

import reflex as rx

from components.links import link_button

MAX_PAGE_NUMBERS = 5
SIZE = rx.breakpoints(initial="1", sm="2")


class PagerLink(TypedDict):
    """One item of the pager: a page number link or an ellipsis (empty href)."""

    label: str
    href: str
    current: bool


def page_numbers(page: int, pages: int) -> list[int | None]:
    """The page numbers to show, with None where an ellipsis goes.

    At most five numbers: every page when there are five or fewer; otherwise the first and the
    last page always, and the pages around the current one.

    Args:
        page: The current page (1-based).
        pages: How many pages there are.

    Returns:
        E.g. [1, None, 4, 5, 6, None, 10] for page 5 of 10.
    """
    if pages <= MAX_PAGE_NUMBERS:
        return list(range(1, pages + 1))
    if page <= 3:
        return [1, 2, 3, 4, None, pages]
    if page >= pages - 2:
        return [1, None, pages - 3, pages - 2, pages - 1, pages]
    return [1, None, page - 1, page, page + 1, None, pages]


def pager_links(page: int, pages: int, href_for: Callable[[int], str]) -> list[PagerLink]:
    """The pager's items as links built by `href_for(page_number)`.

    Args:
        page: The current page.
        pages: How many pages there are.
        href_for: Builds the URL of a page.

    Returns:
        The items; empty when there is only one page (the pager is then hidden).
    """
    if pages <= 1:
        return []
    return [
        PagerLink(label=str(number), href=href_for(number), current=number == page)
        if number is not None
        else PagerLink(label="…", href="", current=False)
        for number in page_numbers(page, pages)
    ]


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


class PagerFields(TypedDict):
    """What a state keeps for one pager: the page links and the Anterior / Próxima URLs ('' when none)."""

    links: list[PagerLink]
    prev_href: str
    next_href: str


def pager_fields(page: int, pages: int, href_for: Callable[[int], str]) -> PagerFields:
    """The links of `pager` for page `page` of `pages`, every URL built by `href_for(page_number)`."""
    return PagerFields(
        links=pager_links(page, pages, href_for),
        prev_href=href_for(page - 1) if page > 1 else "",
        next_href=href_for(page + 1) if page < pages else "",
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
