"""`flowagent serve` (`./run serve`): the production LangGraph server for the project's `langgraph.json`, with no
licence key: langgraph-runtime-pg (MIT, the open Postgres + Redis runtime for the stock langgraph-api) started
through its CLI `langhost`, in its own environment (`.venv-serve`, built by `./run serve`).

Settings come from the environment, then `.env` (which never overrides an exported variable):

- `DATABASE_URI` (threads, runs, checkpoints, the LangGraph store) and `REDIS_URI` (the run queue's wake-ups,
  streaming, the workers' heartbeats). Unset, a local PostgreSQL and Redis are started from Debian's packages
  (`scripts/postgres.sh`, `scripts/redis.sh`), and it says so.
- `FLOWAGENT_DB`, the workflow store shared by every instance; unset, the store lives in `DATABASE_URI`'s database
  (its tables do not clash with the runtime's).
- The sign-in: `FLOWAGENT_AUTH_SECRET`, or `FLOWAGENT_JWKS_URL` with `FLOWAGENT_JWT_ISSUER` and
  `FLOWAGENT_JWT_AUDIENCE`. With none, or a weak secret, it refuses to start, naming what is missing.
- The model: `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `FLOWAGENT_MODEL` (unset: the offline model, as `langgraph dev`).
- `LG_BG_JOB_HEARTBEAT` (default here 5 s, the runtime's own is 120 s): a run whose worker died is taken back by
  another within about two heartbeats, then retried (`BG_JOB_MAX_RETRIES`, 3) or marked failed.

The server then replaces this process (same pid, in the foreground): uvicorn's `--workers N` processes are its
children, in its process group (it becomes the group's leader when started without a terminal), so a supervisor
stops all of it by signalling that group. `/ok` answers 200 once it serves.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from flowagent.server.tokens import AuthConfigError, Settings, dev_secret

SERVE_VENV = ".venv-serve"
DEFAULT_PORT = 2024
DEFAULT_HEARTBEAT_S = "5"
DEFAULT_JOBS_PER_WORKER = 10
ENV_PG_PORT = "FLOWAGENT_LOCAL_POSTGRES_PORT"
ENV_REDIS_PORT = "FLOWAGENT_LOCAL_REDIS_PORT"
"""Ports of the local PostgreSQL and Redis that serve starts when DATABASE_URI / REDIS_URI are unset (5433, 6380)."""
NOT_BUILT = (
    "the production server's environment is not built ({venv}/bin/langhost is missing): run `./run serve`, which "
    "builds it"
)


def load_dotenv_file(path: Path) -> list[str]:
    """Put `.env`'s variables into the environment where they are not set already; returns the names it set."""
    if not path.is_file():
        return []
    from dotenv import dotenv_values

    loaded = []
    for name, value in dotenv_values(path).items():
        if value is not None and name not in os.environ:
            os.environ[name] = value
            loaded.append(name)
    return loaded


def sign_in_problem() -> str | None:
    """What is missing or wrong in the sign-in settings, or None when tokens can be checked."""
    try:
        settings = Settings.from_env()
        if not settings.production:
            dev_secret()
    except AuthConfigError as exc:
        return exc.message
    return None


def state_dir(root: Path) -> Path:
    """Where the local PostgreSQL and Redis keep their data: `.flowagent/serve`, or, as root (PostgreSQL runs as
    the `postgres` user, who may not reach a private home), a folder under /var/tmp named after the project."""
    if os.geteuid() != 0:
        return root / ".flowagent" / "serve"
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:10]
    return Path("/var/tmp") / f"flowagent-serve-{digest}"


def start_local(script: Path, folder: Path, port: int) -> str:
    """Start a local service with one of the project's scripts; returns the URL it prints."""
    done = subprocess.run(["bash", str(script), "start", str(folder), str(port)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"flowagent serve: could not start {script.name}: {done.stderr.strip()}")
    return done.stdout.strip().splitlines()[-1]


def find_langhost(root: Path) -> Path | None:
    """langhost beside this Python (run from `.venv-serve`), else in the project's `.venv-serve`."""
    for candidate in (Path(sys.executable).with_name("langhost"), root / SERVE_VENV / "bin" / "langhost"):
        if candidate.is_file():
            return candidate
    return None


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="flowagent serve", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--workers", type=int, default=1, help="server processes of this instance (default 1)")
    parser.add_argument("--jobs-per-worker", type=int,
                        default=int(os.environ.get("N_JOBS_PER_WORKER") or DEFAULT_JOBS_PER_WORKER),
                        help=f"runs each process executes at once (N_JOBS_PER_WORKER, default {DEFAULT_JOBS_PER_WORKER})")
    parser.add_argument("--config", default="langgraph.json", help="the LangGraph config (default langgraph.json)")
    return parser.parse_args(list(argv))


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    config = Path(args.config).resolve()
    if not config.is_file():
        print(f"flowagent serve: no {args.config} here: run it from the project's folder", file=sys.stderr)
        return 2
    root = config.parent
    load_dotenv_file(root / ".env")

    problem = sign_in_problem()
    if problem is not None:
        print(f"flowagent serve: refusing to start: {problem}", file=sys.stderr)
        return 2
    langhost = find_langhost(root)
    if langhost is None:
        print(f"flowagent serve: {NOT_BUILT.format(venv=root / SERVE_VENV)}", file=sys.stderr)
        return 2

    local = state_dir(root)
    scripts = Path(__file__).resolve().parents[2] / "scripts"
    if not os.environ.get("DATABASE_URI"):
        url = start_local(scripts / "postgres.sh", local / "postgres", int(os.environ.get(ENV_PG_PORT) or 5433))
        os.environ["DATABASE_URI"] = url
        print(f"==> DATABASE_URI is not set: started a local PostgreSQL at {url} (data in {local / 'postgres'}; "
              f"stop it with scripts/postgres.sh stop {local / 'postgres'})", flush=True)
    if not os.environ.get("REDIS_URI"):
        url = start_local(scripts / "redis.sh", local / "redis", int(os.environ.get(ENV_REDIS_PORT) or 6380))
        os.environ["REDIS_URI"] = url
        print(f"==> REDIS_URI is not set: started a local Redis at {url} (stop it with scripts/redis.sh stop "
              f"{local / 'redis'})", flush=True)
    if not os.environ.get("FLOWAGENT_DB"):
        os.environ["FLOWAGENT_DB"] = os.environ["DATABASE_URI"]
        print("==> FLOWAGENT_DB is not set: the workflow store shares DATABASE_URI's database", flush=True)
    elif "://" not in os.environ["FLOWAGENT_DB"] or os.environ["FLOWAGENT_DB"].startswith("sqlite"):
        print("==> warning: FLOWAGENT_DB is a SQLite file: only this machine's instances share it; use a "
              "postgresql:// URL for several machines", flush=True)
    os.environ.setdefault("LG_BG_JOB_HEARTBEAT", DEFAULT_HEARTBEAT_S)
    os.environ.setdefault("LANGGRAPH_CLI_NO_ANALYTICS", "1")

    if os.getpgrp() != os.getpid() and not sys.stdin.isatty():
        os.setpgid(0, 0)  # the server's processes form one group its supervisor can signal
    command = [
        str(langhost), "serve", "--host", args.host, "--port", str(args.port), "--workers", str(args.workers),
        "--n-jobs-per-worker", str(args.jobs_per_worker), "--config", str(config), "--no-browser",
    ]
    print(f"==> serving {config.name} on http://{args.host}:{args.port} ({args.workers} process(es), "
          f"{args.jobs_per_worker} runs each; health: /ok)", flush=True)
    os.chdir(root)
    os.execv(command[0], command)
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main())
