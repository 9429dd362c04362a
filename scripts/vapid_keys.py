"""Print a new VAPID key pair for Web Push (README "Notificações no aparelho").

    python -m scripts.vapid_keys

Put the private key in the server's environment as VAPID_PRIVATE_KEY; the public key is derived
from it (browsers receive it on the settings page). A new key invalidates every existing browser
subscription, so keep it once production has subscribers.
"""

from core.vapid import new_private_key, public_key_of


def main() -> None:
    """Print VAPID_PRIVATE_KEY and the matching public key."""
    private = new_private_key()
    print(f"VAPID_PRIVATE_KEY={private}")
    print(f"# public key (applicationServerKey): {public_key_of(private)}")


if __name__ == "__main__":
    main()
