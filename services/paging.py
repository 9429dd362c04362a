"""Page arithmetic shared by every list a user sees: each one is read one bounded page at a time.

Two shapes: numbered pages (`Page`, with the total, for lists behind the pager of
components/pager.py) and slices for 'Carregar mais' (`Slice`: the rows and whether more follow,
found by reading one row beyond the page, so no count is needed).
"""

import math
from dataclasses import dataclass, field
from typing import Generic, TypeVar

DASHBOARD_PAGE_SIZE = 20
"""Rows per page of the dashboards' lists and the conversation lists."""

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a numbered list.

    Attributes:
        items: The rows of this page.
        total: How many rows the whole list has.
        page: The page shown (clamped to 1..pages).
        pages: How many pages there are (at least 1).
    """

    items: list[T] = field(default_factory=list)
    total: int = 0
    page: int = 1
    pages: int = 1


@dataclass(frozen=True)
class Slice(Generic[T]):
    """Rows of a 'Carregar mais' list and whether more follow them."""

    items: list[T] = field(default_factory=list)
    has_more: bool = False


def clamp(page: object, total: int, size: int) -> tuple[int, int]:
    """The page to show and the number of pages for `total` rows in pages of `size`.

    Args:
        page: The page asked for (any value; anything but a positive int means the first).
        total: How many rows the list has.
        size: Rows per page.

    Returns:
        (page, pages), the page clamped to 1..pages.
    """
    pages = max(1, math.ceil(total / size))
    wanted = page if isinstance(page, int) and not isinstance(page, bool) else 1
    return min(max(1, wanted), pages), pages


def offset(page: int, size: int) -> int:
    """The number of rows before `page`."""
    return (page - 1) * size


def split(rows: list[T], size: int) -> Slice[T]:
    """A 'Carregar mais' slice from `size + 1` rows read: the first `size` and whether there was one more."""
    return Slice(items=list(rows[:size]), has_more=len(rows) > size)
