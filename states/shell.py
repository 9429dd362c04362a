"""The site shell's interactive parts: city picker, search box and mobile menu."""

import reflex as rx

from core import routes
from core.catalog import CITIES
from core.text import clipped


class ShellState(rx.State):
    """Navigation side effects of the top bar (docs/product/site.md §1: choosing a city, submitting a search)."""

    menu_open: bool = False
    city: str = ""  # the city the header picker shows: the one chosen, or the job list's ?city=

    @rx.event
    def toggle_menu(self):
        """Open or close the mobile menu."""
        self.menu_open = not self.menu_open

    @rx.event
    def close_menu(self):
        """Close the mobile menu."""
        self.menu_open = False

    @rx.event
    def choose_city(self, city: str):
        """Go to the job list of a city; an empty or unknown choice shows every city."""
        self.menu_open = False
        self.city = city if isinstance(city, str) and city in CITIES else ""
        return rx.redirect(routes.jobs(city=self.city) if self.city else routes.JOBS)

    @rx.event
    def search(self, form_data: dict):
        """Go to the job list filtered by the search text, only when it is not blank."""
        text = clipped(form_data.get("search") if isinstance(form_data, dict) else "", 100)
        if not text:
            return None
        self.menu_open = False
        return rx.redirect(routes.jobs(search=text))
