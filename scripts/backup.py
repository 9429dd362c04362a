"""Back up and restore the app's database (DATABASE_URL), SQLite or PostgreSQL.

    python -m scripts.backup create [--dir backups]     # prints the backup file it wrote
    python -m scripts.backup restore FILE

SQLite: `create` copies the database with SQLite's online backup API (the same as the sqlite3
shell's `.backup`), a consistent snapshot even while the app is writing; `restore` copies the
file back over the live database the same way, page by page under SQLite's locks. PostgreSQL:
`create` runs `pg_dump --format=custom`; `restore` runs `pg_restore --clean --if-exists
--single-transaction`, which replaces every object of the dump and changes nothing if it fails.
The PostgreSQL client programs (pg_dump, pg_restore) of the server's major version must be on PATH.
Stop the app (or put it in maintenance) before a restore: sessions open during it see the old
rows vanish. The password, if the URL has one, goes to the programs in PGPASSWORD, not on the
command line.
"""

import argparse
import os
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from core.settings import get_settings

SQLITE_SUFFIX = ".sqlite3"
POSTGRES_SUFFIX = ".dump"


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise SystemExit("backup: an in-memory SQLite database cannot be backed up")
    return Path(url.database)


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The libpq connection URL of `url` (no password) and the environment carrying the password."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _sqlite_copy(source: Path, target: Path) -> None:
    """Copy one SQLite database into another with the online backup API."""
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def create(database_url: str, directory: Path) -> Path:
    """Write a backup of the database into `directory` and return its path.

    Args:
        database_url: SQLAlchemy URL of the database (SQLite or PostgreSQL).
        directory: Where the backup file goes (created when missing).

    Returns:
        The backup file: turno-<UTC timestamp>.sqlite3 or .dump.
    """
    url = make_url(database_url)
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    if url.get_backend_name() == "sqlite":
        target = directory / f"turno-{stamp}{SQLITE_SUFFIX}"
        _sqlite_copy(_sqlite_path(url), target)
        return target
    target = directory / f"turno-{stamp}{POSTGRES_SUFFIX}"
    dsn, env = _libpq(url)
    command = ["pg_dump", "--format=custom", "--no-owner", f"--file={target}", dsn]
    subprocess.run(command, check=True, env=env)  # noqa: S603  (fixed program, arguments from the settings)
    return target


def restore(database_url: str, backup: Path) -> None:
    """Replace the database's contents with those of `backup` (made by `create` for the same engine).

    Args:
        database_url: SQLAlchemy URL of the database to overwrite.
        backup: A file written by `create`.
    """
    if not backup.is_file():
        raise SystemExit(f"restore: no such backup file: {backup}")
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        if backup.suffix != SQLITE_SUFFIX:
            raise SystemExit(f"restore: {backup} is not a SQLite backup")
        _sqlite_copy(backup, _sqlite_path(url))
        return
    if backup.suffix != POSTGRES_SUFFIX:
        raise SystemExit(f"restore: {backup} is not a PostgreSQL backup")
    dsn, env = _libpq(url)
    command = ["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", f"--dbname={dsn}"]
    subprocess.run([*command, str(backup)], check=True, env=env)  # noqa: S603  (fixed program, the operator's file)


def main() -> None:
    """Parse the command line and back up or restore the configured database."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    create_cmd = commands.add_parser("create", help="write a backup file and print its path")
    create_cmd.add_argument("--dir", type=Path, default=Path("backups"))
    restore_cmd = commands.add_parser("restore", help="replace the database with a backup file")
    restore_cmd.add_argument("file", type=Path)
    args = parser.parse_args()
    database_url = get_settings().database_url
    if args.command == "create":
        print(create(database_url, args.dir))
    else:
        restore(database_url, args.file)
        print(f"restored {args.file}")


if __name__ == "__main__":
    main()
