"""Draw the default link-preview image (assets/og-default.png, 1200 × 630) from the product's name.

Link previews (WhatsApp, Facebook, LinkedIn) show it for pages without a picture of their own: the
vagas of companies without a photo, and closed vagas (core/seo.py DEFAULT_IMAGE). The PNG is
committed; run this again after renaming the product (core/settings.py `product_name`):

    python -m scripts.make_og_image
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from core.seo import DEFAULT_IMAGE, DEFAULT_IMAGE_SIZE
from core.settings import get_settings

ROOT = Path(__file__).resolve().parent.parent
BACKGROUND = (62, 99, 221)  # Radix indigo 9, the theme's accent
TEXT = (255, 255, 255)
TAGLINE = "Vagas temporárias em hotelaria, gastronomia e eventos"
# Debian's DejaVu (accents included); Pillow's built-in font has no 'á'.
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def _font(name: str, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = FONTS / name
    return ImageFont.truetype(str(path), size) if path.exists() else ImageFont.load_default(size=size)


def draw(product_name: str) -> Image.Image:
    """The image: the product's name large, the tagline under it, on the accent colour.

    Args:
        product_name: The name to show.

    Returns:
        The 1200 × 630 RGB image.
    """
    width, height = DEFAULT_IMAGE_SIZE
    image = Image.new("RGB", (width, height), BACKGROUND)
    pen = ImageDraw.Draw(image)
    title = _font("DejaVuSans-Bold.ttf", 150)
    tagline = _font("DejaVuSans.ttf", 40)
    pen.text((width / 2, height / 2 - 40), product_name, font=title, fill=TEXT, anchor="mm")
    pen.text((width / 2, height / 2 + 90), TAGLINE, font=tagline, fill=TEXT, anchor="mm")
    return image


def main() -> None:
    """Write assets/og-default.png."""
    target = ROOT / "assets" / DEFAULT_IMAGE.lstrip("/")
    draw(get_settings().product_name).save(target, optimize=True)
    print(target)


if __name__ == "__main__":
    main()
