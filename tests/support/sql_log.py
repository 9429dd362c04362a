"""Recording the SQL statements a piece of code sends, for tests that count or inspect them."""

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, event


@contextmanager
def sent_statements(engine: Engine) -> Iterator[list[str]]:
    """Every SQL statement sent through `engine` while the block runs, whitespace folded to single spaces.

    Args:
        engine: The engine to listen on (the app's: core.db.get_engine(); a session's: db.get_bind()).

    Yields:
        The list the statements are appended to, in the order they are sent.
    """
    sent: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:
        sent.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", record)
