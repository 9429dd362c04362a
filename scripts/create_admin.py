"""Create a Turno staff account (role 'admin') from the command line; no form can.

    python -m scripts.create_admin EMAIL

The password is asked twice without echo, or read from the environment variable
TURNO_ADMIN_PASSWORD (scripts and tests). It follows the registration rules (8 characters or more,
with a capital letter, a small letter and a digit). Running it again for a staff e-mail sets a new
password and ends that account's sessions; an e-mail of a company or freelancer account is refused.
"""

import argparse
import getpass
import os
import sys

from core.db import session_scope
from services.accounts.accounts import create_admin
from services.common.errors import ServiceError

__all__ = ["create_admin", "main", "read_password"]
PASSWORD_ENV = "TURNO_ADMIN_PASSWORD"


def read_password() -> str:
    """The password from TURNO_ADMIN_PASSWORD, else typed twice at the terminal.

    Raises:
        SystemExit: The two typed passwords differ.
    """
    from_env = os.environ.get(PASSWORD_ENV)
    if from_env:
        return from_env
    first = getpass.getpass("Senha: ")
    if getpass.getpass("Repita a senha: ") != first:
        raise SystemExit("As senhas não coincidem.")
    return first


def main(argv: list[str] | None = None) -> int:
    """Create (or reset) the staff account named on the command line.

    Args:
        argv: The arguments (default: sys.argv[1:]).

    Returns:
        0 on success, 1 when the e-mail or password is refused.
    """
    parser = argparse.ArgumentParser(prog="python -m scripts.create_admin", description=__doc__.splitlines()[0])
    parser.add_argument("email", help="e-mail of the staff member")
    args = parser.parse_args(argv)
    password = read_password()
    try:
        with session_scope() as db:
            user, created = create_admin(db, args.email, password)
            email = user.email
    except ServiceError as exc:
        for message in exc.field_errors.values() or [exc.message]:
            print(message, file=sys.stderr)
        return 1
    print(f"Conta da equipe Turno {'criada' if created else 'atualizada (nova senha)'}: {email}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
