"""Draw the installed app's icons (assets/icons/) from the favicon's briefcase: `python -m scripts.app_icons`.

The PNGs are committed; run this again only to change them. 192 and 512 px with rounded corners
('any'), and a 512 px full-bleed one whose drawing stays inside the maskable safe zone.
"""

from pathlib import Path

from PIL import Image, ImageDraw

BLUE = (62, 99, 221, 255)  # app/api/pwa.py THEME_COLOR
OUT = Path(__file__).resolve().parent.parent / "assets" / "icons"
SUPERSAMPLE = 4


def icon(size: int, maskable: bool = False) -> Image.Image:
    """The briefcase of assets/favicon.svg (a 32-unit grid) on the brand blue, `size` pixels wide."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), BLUE if maskable else (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if not maskable:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=int(big * 7 / 32), fill=BLUE)
    shrink = 0.62 if maskable else 1.0  # the maskable safe zone is the central 80 % circle
    offset, unit = big * (1 - shrink) / 2, big / 32 * shrink
    width = int(2.2 * unit)

    def point(x: float, y: float) -> tuple[float, float]:
        return (offset + x * unit, offset + y * unit)

    draw.rectangle((*point(9, 12), *point(23, 23)), outline="white", width=width)
    draw.line((point(13, 12), point(13, 9.5), point(19, 9.5), point(19, 12)), fill="white", width=width, joint="curve")
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    """Write icon-192.png, icon-512.png and maskable-512.png."""
    OUT.mkdir(parents=True, exist_ok=True)
    icon(192).save(OUT / "icon-192.png", optimize=True)
    icon(512).save(OUT / "icon-512.png", optimize=True)
    icon(512, maskable=True).save(OUT / "maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
