"""Form building blocks: every control has a visible label tied to it by id."""

import json

import reflex as rx
from reflex.vars.function import FunctionStringVar

SHOW_PASSWORD, HIDE_PASSWORD = "Mostrar senha", "Ocultar senha"
# A function of the page's own script, called by the click itself: the typed password never travels
# for this, and the toggle answers at once even while an event waits for the server (a
# `rx.call_script` would queue behind it). The button's name is a hidden span, not an aria-label, so
# the field's label ('Senha') names only the input.
_TOGGLE_JS = """(() => {
  const input = document.getElementById(%(id)s);
  const button = document.getElementById(%(id)s + "-toggle");
  const name = document.getElementById(%(id)s + "-toggle-name");
  if (!input || !button || !name) return;
  const show = input.type === "password";
  input.type = show ? "text" : "password";
  button.setAttribute("aria-pressed", String(show));
  name.textContent = show ? %(hide)s : %(show)s;
})"""


def password_toggle(field_id: str) -> rx.Component:
    """The show/hide button at the end of the password input `field_id` (SPEC: show/hide toggle)."""
    script = _TOGGLE_JS % {
        "id": json.dumps(field_id),
        "show": json.dumps(SHOW_PASSWORD),
        "hide": json.dumps(HIDE_PASSWORD),
    }
    return rx.input.slot(
        rx.icon_button(
            rx.icon("eye", size=18, aria_hidden="true"),
            rx.el.span(SHOW_PASSWORD, id=f"{field_id}-toggle-name", class_name="sr-only"),
            type="button",
            id=f"{field_id}-toggle",
            variant="ghost",
            color_scheme="gray",
            aria_pressed="false",
            aria_controls=field_id,
            on_click=FunctionStringVar.create(script),
        ),
        side="right",
    )


def field_error(message: rx.Var | str, field_id: str) -> rx.Component:
    """The validation message under a control (announced to screen readers)."""
    return rx.cond(
        message != "",
        rx.text(message, id=f"{field_id}-error", color=rx.color("red", 11), size="2", role="alert"),
    )


def labelled(
    label: str, field_id: str, control: rx.Component, error: rx.Var | str = "", hint: str = ""
) -> rx.Component:
    """A label, a control, an optional hint and the field's validation message, stacked."""
    return rx.vstack(
        rx.el.label(label, html_for=field_id, style={"fontWeight": "500", "fontSize": "0.9rem"}),
        control,
        rx.cond(hint != "", rx.text(hint, size="1", color=rx.color("gray", 11))) if hint else rx.fragment(),
        field_error(error, field_id),
        spacing="1",
        width="100%",
        align="stretch",
    )


def text_field(
    label: str,
    name: str,
    error: rx.Var | str = "",
    *,
    type: str = "text",
    placeholder: str = "",
    hint: str = "",
    required: bool = False,
    auto_complete: str | None = None,
    field_id: str | None = None,
    **props,
) -> rx.Component:
    """A labelled single-line input named `name` (its id defaults to the name)."""
    field_id = field_id or name
    slots = [password_toggle(field_id)] if type == "password" else []
    return labelled(
        label,
        field_id,
        rx.input(
            *slots,
            id=field_id,
            name=name,
            type=type,
            placeholder=placeholder,
            required=required,
            auto_complete=auto_complete,
            aria_invalid=rx.cond(error != "", "true", "false"),
            size="3",
            width="100%",
            **props,
        ),
        error,
        hint,
    )


def text_area(
    label: str, name: str, error: rx.Var | str = "", *, placeholder: str = "", field_id: str | None = None
) -> rx.Component:
    """A labelled multi-line input."""
    field_id = field_id or name
    return labelled(
        label,
        field_id,
        rx.text_area(id=field_id, name=name, placeholder=placeholder, rows="4", width="100%"),
        error,
    )


def select_field(
    label: str,
    name: str,
    options: dict[str, str],
    error: rx.Var | str = "",
    *,
    placeholder: str = "",
    field_id: str | None = None,
) -> rx.Component:
    """A labelled native select (value: label options) with a placeholder as the empty choice."""
    field_id = field_id or name
    return labelled(
        label,
        field_id,
        rx.el.select(
            rx.el.option(placeholder, value=""),
            *[rx.el.option(text, value=value) for value, text in options.items()],
            id=field_id,
            name=name,
            default_value="",
            class_name="turno-select",
        ),
        error,
    )


def submit_button(label: str, busy_label: str, busy: rx.Var, **props) -> rx.Component:
    """A full-width submit button that is disabled and relabelled while the form is submitting."""
    return rx.button(
        rx.cond(busy, busy_label, label),
        type="submit",
        disabled=busy,
        size="3",
        width="100%",
        **props,
    )


def dialog_buttons(label: str, busy_label: str, busy: rx.Var, submit_id: str = "") -> rx.Component:
    """A dialog form's 'Cancelar' (closes the dialog) and its submit button, relabelled while busy."""
    return rx.flex(
        rx.dialog.close(rx.button("Cancelar", type="button", variant="soft", color_scheme="gray")),
        rx.button(
            rx.cond(busy, busy_label, label), type="submit", disabled=busy, **({"id": submit_id} if submit_id else {})
        ),
        justify="end",
        spacing="3",
        width="100%",
    )
