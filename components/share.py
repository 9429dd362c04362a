"""'Compartilhar' on a job page: the WhatsApp link, 'Copiar link' and the browser's own share sheet.

In Brazil vagas travel by WhatsApp, so its link comes first. The Web Share API (the phone's share
sheet) exists only in some browsers; its button is hidden until a script in the browser finds it.
The scripts are constants: they read the address from the page itself, never from user text.
"""

from urllib.parse import quote

COPIED = "Link copiado"
NATIVE_BUTTON_ID = "share-native"
WHATSAPP = "https://wa.me/"
# The page's own address without query or fragment (the canonical form of /jobs/{id}).
_HERE = "location.origin + location.pathname"
NATIVE_SHARE_SCRIPT = f"navigator.share({{title: document.title, url: {_HERE}}}).catch(() => {{}})"
REVEAL_NATIVE_SCRIPT = f"if (navigator.share) document.getElementById('{NATIVE_BUTTON_ID}')?.removeAttribute('hidden')"


def message(title: str, location: str) -> str:
    """What the shared message says before the link: 'Vaga: Garçom em São Paulo, SP'."""
    return f"Vaga: {title} em {location}" if location else f"Vaga: {title}"


def whatsapp(text: str, url: str) -> str:
    """A wa.me link that opens WhatsApp with `text` and `url` as the message (the person picks the chat).

    Args:
        text: The message before the link.
        url: The page's public address.

    Returns:
        'https://wa.me/?text=…' with the message percent-encoded.
    """
    return f"{WHATSAPP}?text={quote(f'{text} {url}', safe='')}"
