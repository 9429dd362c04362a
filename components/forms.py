"""Form building blocks: every control has a visible label tied to it by id."""

import re

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

SHOW_PASSWORD, HIDE_PASSWORD = "Mostrar senha", "Ocultar senha"


def password_shown(field_id: str) -> ClientStateVar:
    """Whether the password field `field_id` shows its text: React state of the page, never sent anywhere.

    It has to be React's own state, not a change made to the input behind React's back: React 19
    writes an input's `type` prop back into the element whenever the form re-renders (after any
    answer from the server), which hid the password again while the button still said 'Ocultar
    senha'. The click sets it in the page itself, so it answers at once even while an event waits
    for the server.

    Args:
        field_id: The input's id (one state per field).
    """
    return ClientStateVar.create(f"password_shown_{re.sub(r'[^A-Za-z0-9]', '_', field_id)}", default=False)


def password_type(shown: ClientStateVar) -> rx.Var:
    """The input's `type`: 'text' while shown, 'password' otherwise."""
    return rx.cond(shown.value, "text", "password")


def password_toggle(field_id: str, shown: ClientStateVar) -> rx.Component:
    """The show/hide button at the end of the password input `field_id` (SPEC: show/hide toggle).

    The button's name is a hidden span, not an aria-label, so the field's label ('Senha') names
    only the input.
    """
    return rx.input.slot(
        rx.icon_button(
            rx.cond(
                shown.value,
                rx.icon("eye-off", size=18, aria_hidden="true"),
                rx.icon("eye", size=18, aria_hidden="true"),
            ),
            rx.el.span(rx.cond(shown.value, HIDE_PASSWORD, SHOW_PASSWORD), class_name="sr-only"),
            type="button",
            id=f"{field_id}-toggle",
            variant="ghost",
            color_scheme="gray",
            aria_pressed=rx.cond(shown.value, "true", "false"),
            aria_controls=field_id,
            on_click=shown.set_value(~shown.value),
        ),
        side="right",
    )


def password_input(field_id: str, name: str, error: rx.Var | str = "", **props) -> rx.Component:
    """A password input with its show/hide button, invalid while `error` is not empty."""
    shown = password_shown(field_id)
    return rx.input(
        password_toggle(field_id, shown),
        id=field_id,
        name=name,
        type=password_type(shown),
        aria_invalid=rx.cond(error != "", "true", "false"),
        size="3",
        width="100%",
        **props,
    )


def field_error(message: rx.Var | str, field_id: str) -> rx.Component:
    """The validation message under a control (announced to screen readers)."""
    return rx.cond(
        message != "",
        rx.text(message, id=f"{field_id}-error", color=rx.color("red", 11), size="2", role="alert"),
    )


def labelled(
    label: str, field_id: str, control: rx.Component, error: rx.Var | str = "", hint: rx.Var | str = ""
) -> rx.Component:
    """A label, a control, an optional hint and the field's validation message, stacked."""
    return rx.vstack(
        rx.el.label(label, html_for=field_id, style={"fontWeight": "500", "fontSize": "0.9rem"}),
        control,
        rx.cond(hint != "", rx.text(hint, size="1", color=rx.color("gray", 11)))
        if isinstance(hint, rx.Var) or hint
        else rx.fragment(),
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
    placeholder: rx.Var | str = "",
    hint: rx.Var | str = "",
    required: bool = False,
    auto_complete: str | None = None,
    field_id: str | None = None,
    **props,
) -> rx.Component:
    """A labelled single-line input named `name` (its id defaults to the name)."""
    field_id = field_id or name
    shared = {"placeholder": placeholder, "required": required, "auto_complete": auto_complete, **props}
    if type == "password":
        control = password_input(field_id, name, error, **shared)
    else:
        control = rx.input(
            id=field_id,
            name=name,
            type=type,
            aria_invalid=rx.cond(error != "", "true", "false"),
            size="3",
            width="100%",
            **shared,
        )
    return labelled(label, field_id, control, error, hint)


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
        **{"width": "100%", **props},
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
