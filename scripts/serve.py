"""Serve an already built Turno: the backend workers with the compiled frontend on one port.

`reflex run --env prod` compiles and builds the frontend on every start. In production (and in
the tests that restart the server) the build is made once (`reflex export --frontend-only
--no-zip` or a first `reflex run`) and this starts only the backend, mounting the built files, so
a restart takes seconds. Workers come from GRANIAN_WORKERS (see scripts/run_prod.sh).

    python -m scripts.serve --port 3000
"""

import argparse

from reflex.utils import exec as reflex_exec
from reflex_base import constants
from reflex_base.environment import environment


def main() -> None:
    """Parse --host/--port and serve until stopped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")  # noqa: S104 (a server listens on every interface)
    parser.add_argument("--port", type=int, default=3000)
    args = parser.parse_args()
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    environment.REFLEX_SKIP_COMPILE.set(True)
    reflex_exec.run_backend_prod(args.host, args.port, constants.LogLevel.ERROR, mount_frontend_compiled_app=True)


if __name__ == "__main__":
    main()
