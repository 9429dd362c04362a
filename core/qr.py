"""QR code of the check-in link, as an SVG data URI for an <img> tag."""

import base64
import io

import segno

ERROR_LEVEL = "m"
BORDER = 2
SCALE = 10


def qr_svg_data_uri(text: str) -> str:
    """A QR code (not Micro QR) of `text` as a base64 SVG data URI.

    Error correction level M (not boosted), a quiet zone of 2 modules, black on white. The SVG has
    a viewBox and no width or height, so it scales to the size of its container. The same text
    always gives the same URI.

    Args:
        text: The text to encode (e.g. the check-in URL).

    Returns:
        'data:image/svg+xml;base64,...'.

    Raises:
        ValueError: If `text` is empty.
    """
    if not text:
        raise ValueError("text must not be empty")
    code = segno.make_qr(text, error=ERROR_LEVEL, boost_error=False)
    buffer = io.BytesIO()
    code.save(
        buffer,
        kind="svg",
        scale=SCALE,
        border=BORDER,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgclass=None,
        lineclass=None,
        omitsize=True,
    )
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
