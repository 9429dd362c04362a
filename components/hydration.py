"""The moment a page is hydrated, told to assets/held_forms.js (a form sent earlier waits for it).

An app wrap (app/app.py `extra_app_wraps`) around every page: its effect runs once React has
hydrated the page, sets `window.turnoReady` (from then on forms go to their handlers) and sends the
form the person submitted before, if any (docs/security.md "Forms before the page's scripts").
"""

import reflex as rx

HYDRATED_HOOK = "useEffect(() => { window.turnoReady = true; window.turnoHydrated?.(); }, []);"


class HydrationSignal(rx.Fragment):
    """Renders its children; once hydrated, lets the forms through and sends a held one."""

    def add_hooks(self) -> list[str]:
        """The effect that marks the page hydrated."""
        return [HYDRATED_HOOK]

    def add_imports(self) -> dict[str, str]:
        """React's useEffect, for the hook."""
        return {"react": "useEffect"}
