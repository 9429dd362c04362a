"""The city boxes' suggestions: the IBGE municipalities matching what is typed (components/city_field.py).

Public data only: any visitor may ask (the registration form has no session yet). A handler answers
only for the city boxes the product has, and what it keeps is the last box's suggestions.
"""

from typing import TypedDict

import reflex as rx

from core import cities
from core.text import clipped

# The city boxes: the registration forms, 'Publicar Nova Vaga' and the freelancer's 'Meu Perfil'.
CITY_FIELDS = frozenset({"company-location", "freelancer-location", "job-localizacao", "profile-localizacao"})
TYPED_MAX = 120
MIN_LETTERS = 2


class CityOption(TypedDict):
    """One suggestion: the display name, and the id of its element (for aria-activedescendant)."""

    label: str
    option_id: str


class CityPickerState(rx.State):
    """The suggestions under the city box a person is typing in."""

    field_id: str = ""  # the box the suggestions belong to ('' when none is open)
    options: list[CityOption] = []
    none_found: bool = False  # typed enough, and no municipality matches

    @rx.event
    def type_city(self, field_id: str, text: str):
        """Suggest municipalities for the text typed so far in the box `field_id` (up to 8)."""
        if field_id not in CITY_FIELDS or not isinstance(text, str):
            return
        typed = clipped(text, TYPED_MAX)
        found = cities.suggest(typed)
        self.field_id = field_id
        self.options = [CityOption(label=city.label, option_id=f"{field_id}-opcao-{n}") for n, city in enumerate(found)]
        self.none_found = not found and len(typed.replace(" ", "")) >= MIN_LETTERS

    @rx.event
    def choose(self, field_id: str, label: str):
        """Put the chosen municipality's name in the box and close the list."""
        self._close()
        if field_id not in CITY_FIELDS or not isinstance(label, str):
            return None
        found = cities.resolve(clipped(label, TYPED_MAX))
        if not isinstance(found, cities.City):
            return None
        return rx.set_value(field_id, found.label)

    @rx.event
    def close(self):
        """Close the list (the box lost focus, or Escape was pressed)."""
        self._close()

    def _close(self) -> None:
        self.field_id = ""
        self.options = []
        self.none_found = False
