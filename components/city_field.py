"""A city box: type part of a municipality's name, choose it from the list (WAI-ARIA combobox).

The suggestions come from the server (states/city_picker.py, core.cities), accent- and case-
insensitive, as the person types. The list follows the ARIA 1.2 combobox pattern: the input is the
combobox, the list a listbox of options; ArrowDown/ArrowUp move through them, Enter chooses,
Escape closes the list (and only the list, not a dialog around the form); a mouse or a finger
chooses with a click. The keys are handled in the browser by a listener this component installs
once (`KEYS_JS`, run through Reflex's `_call_script`; it listens on the window's capture phase, ahead
of Radix's own Escape handler), so Enter on a suggestion never submits the form and no key press
travels to the server.

What the form sends is the text in the box; the server reads it (services.common.validation.city_label),
so a typed 'curitiba' is as good as choosing 'Curitiba, PR', and a name several states share asks
for a choice.
"""

import reflex as rx

from components.forms import labelled
from states.city_picker import CityPickerState

KEYS_JS = """(() => {
  if (window.__turnoCityKeys) return;
  window.__turnoCityKeys = true;
  const parts = (input) => {
    const list = document.getElementById(input.getAttribute("aria-controls") || "");
    return list ? [...list.querySelectorAll('[role="option"]')] : [];
  };
  const mark = (input, options, to) => {
    options.forEach((option, n) => option.setAttribute("aria-selected", String(n === to)));
    if (to < 0) { input.removeAttribute("aria-activedescendant"); return; }
    input.setAttribute("aria-activedescendant", options[to].id);
    options[to].scrollIntoView({ block: "nearest" });
  };
  document.addEventListener("input", (event) => {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.dataset.cityBox !== undefined) mark(input, parts(input), -1);
  });
  window.addEventListener("keydown", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.dataset.cityBox === undefined) return;
    const options = parts(input).filter(() => input.getAttribute("aria-expanded") === "true");
    if (!options.length) return;
    const current = options.findIndex((option) => option.getAttribute("aria-selected") === "true");
    if (event.key === "ArrowDown") { event.preventDefault(); mark(input, options, (current + 1) % options.length); }
    else if (event.key === "ArrowUp") { event.preventDefault(); mark(input, options, current <= 0 ? options.length - 1 : current - 1); }
    else if (event.key === "Enter" && current >= 0) { event.preventDefault(); options[current].click(); }
    else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();  // closes the list only, not the dialog around the form
      document.getElementById(input.id + "-fechar")?.click();
    }
  }, true);
})()"""
HINT = "Digite e escolha sua cidade na lista."


def _option(field_id: str, option: rx.Var) -> rx.Component:
    return rx.el.li(
        option["label"],
        id=option["option_id"],
        role="option",
        aria_selected="false",
        class_name="turno-city-option",
        on_mouse_down=rx.prevent_default,  # the box keeps its focus, so the list stays for the click
        on_click=CityPickerState.choose(field_id, option["label"]),
    )


def city_field(
    label: str,
    name: str,
    error: rx.Var | str = "",
    *,
    field_id: str,
    default: rx.Var | str = "",
    placeholder: str = "Ex.: São Paulo, SP",
    hint: str = HINT,
) -> rx.Component:
    """A labelled city box named `name` whose suggestions are the municipalities matching the text.

    Args:
        label: The visible label ('Localização', 'Cidade').
        name: The form field the box sends.
        error: The field's validation message.
        field_id: The box's id; one of states.city_picker.CITY_FIELDS.
        default: The saved city, shown when the form opens.
        placeholder: The example in the empty box.
        hint: The line under the box.
    """
    list_id = f"{field_id}-cidades"
    mine = CityPickerState.field_id == field_id
    shown = mine & (CityPickerState.options.length() > 0)
    box = rx.input(
        id=field_id,
        name=name,
        default_value=default,
        placeholder=placeholder,
        role="combobox",
        aria_autocomplete="list",
        aria_controls=list_id,
        aria_expanded=rx.cond(shown, "true", "false"),
        aria_invalid=rx.cond(error != "", "true", "false"),
        auto_complete="off",
        spell_check=False,
        custom_attrs={"data-city-box": ""},
        size="3",
        width="100%",
        on_change=lambda text: CityPickerState.type_city(field_id, text),
        on_blur=CityPickerState.close,
        on_mount=rx.call_script(KEYS_JS),
    )
    suggestions = rx.el.ul(
        rx.foreach(CityPickerState.options, lambda option: _option(field_id, option)),
        id=list_id,
        role="listbox",
        aria_label="Cidades",
        class_name="turno-city-list",
        hidden=~shown,
    )
    return labelled(
        label,
        field_id,
        rx.box(
            box,
            suggestions,
            rx.cond(
                mine & CityPickerState.none_found,
                rx.text("Nenhuma cidade encontrada com esse nome.", size="2", class_name="turno-city-none"),
            ),
            rx.el.button(
                id=f"{field_id}-fechar",
                type="button",
                tab_index=-1,
                aria_hidden="true",
                class_name="sr-only",
                on_click=CityPickerState.close,
            ),
            rx.el.div(
                rx.cond(
                    shown,
                    CityPickerState.options.length().to_string() + " cidades na lista. Use as setas para escolher.",
                    "",
                ),
                role="status",
                class_name="sr-only",
            ),
            position="relative",
            width="100%",
        ),
        error,
        hint,
    )
