"""Build-time settings of the compiled frontend (used by rxconfig.py)."""

from reflex_components_radix.plugin import RadixThemesPlugin

# Radix Themes color scales the pages use: the theme's accent (indigo) and gray (slate), plain
# gray, and every color_scheme a component is given (grep 'color_scheme=' and the color tuples in
# components/ and app/). A color missing here renders that component without its colors.
COLORS = ("indigo", "slate", "gray", "amber", "blue", "cyan", "grass", "green", "orange", "red", "violet")


class LeanRadixThemesPlugin(RadixThemesPlugin):
    """Radix Themes with only what the pages need shipped to the browser.

    - JavaScript: the stock plugin declares `@radix-ui/themes` a frontend dependency, and Reflex
      bundles every plugin dependency into `window.__reflex` for components sent from the backend
      at runtime. That makes the app root import the library's whole namespace, so every page
      downloaded every Radix component (select, menus, slider, scroll area...: ~120 KB gzip)
      whether it renders them or not. No Turno page evaluates components at runtime; the package
      is still installed because each Radix component names it as its library, and each page now
      imports only the components it uses.
    - CSS: the stock stylesheet holds the color scales of all 31 Radix colors (35 KB gzip of the
      render-blocking CSS); this one imports the base tokens and the scales in COLORS only.
    """

    def get_frontend_dependencies(self, **context) -> tuple[str, ...]:
        """No dependency to bundle: the components' own imports install `@radix-ui/themes`."""
        return ()

    def get_stylesheet_paths(self, **context) -> tuple[str, ...]:
        """Radix's base tokens, the used color scales, the component styles and the utilities."""
        if not self.enabled:
            return ()
        root = "@radix-ui/themes"
        return (
            f"{root}/tokens/base.css",
            *(f"{root}/tokens/colors/{color}.css" for color in COLORS),
            f"{root}/components.css",
            f"{root}/utilities.css",
        )
