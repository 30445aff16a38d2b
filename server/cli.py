"""The ``tractatus`` command: a thin layer over the library.

Each subcommand imports what it needs when it runs: ``tractatus ingest`` is an HTTP client
and starts without loading the neo4j driver or the settings (~0.7 s on the reference
machine, part of every bulk load's wall time).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

# the principals file `make run` serves with when TRACTATUS_PRINCIPALS names none
DEV_PRINCIPALS_FILE = "principals.local.toml"


def _migrate(_: argparse.Namespace) -> int:
    """Exit 0: done; 1: a predicate kept as stored; 3: the store's vectors come from another
    embedding model than the configured one (run `tractatus reembed`)."""
    from graph_schema.schema import migrations, ontology, space
    from ingest.embeddings.embedder import DISABLED
    from ingest.embeddings.model import model_identity
    from server.settings import get_settings, open_driver

    settings = get_settings()
    database = settings.neo4j_database
    with open_driver(settings) as driver:
        applied = migrations.migrate(driver, database=database)
        changes = ontology.seed(driver, database=database)
        embedding = settings.embedding_model
        try:
            if embedding.strip().lower() not in DISABLED:
                model = model_identity(embedding)
                space.ensure(driver, database=database, model=model)
                print(f"embedding space: {model}")
        except space.EmbeddingSpaceMismatch as refused:
            print(f"tractatus migrate: refused: {refused.message}", file=sys.stderr)
            return 3
    print(f"schema at version {migrations.LATEST_VERSION}; applied {applied or 'nothing'}")
    print(f"predicates registered: {changes.created or 'none new'}")
    print(f"predicates upgraded: {changes.upgraded or 'none'}")
    for name, reason in changes.refused.items():
        print(f"tractatus migrate: predicate {name} kept as stored: {reason}", file=sys.stderr)
    return 1 if changes.refused else 0


def _serve(args: argparse.Namespace) -> int:
    """Exit 2: a setting refused (TRACTATUS_PRINCIPALS unset included); 3: the principals file
    refused, or the application's start failed (uvicorn's own exit status)."""
    import logging

    from server import logs
    from server.auth import KeyRing, PrincipalsInvalid
    from server.settings import get_settings

    settings = get_settings()
    if settings.principals is None:
        print(
            "tractatus serve: setting refused: TRACTATUS_PRINCIPALS: name the principals TOML"
            " file (`tractatus dev-principals` writes one)",
            file=sys.stderr,
        )
        return 2
    # one stderr handler for every logger (structured: docs/operations.md); uvicorn's access
    # log is off: server.middleware.Metrics writes one line per request, without the query
    logs.configure(settings.log_level, settings.log_format)
    try:  # read before uvicorn starts: a refusal in its start-up is logged with a traceback
        KeyRing(settings.principals).check()
    except PrincipalsInvalid as refused:
        logging.getLogger("tractatus.app").error("refused to start: %s", refused)
        return 3
    import uvicorn

    from server.app import create_app

    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_config=None,
        log_level=settings.log_level,
        access_log=False,
    )
    return 0


def _dev_principals(args: argparse.Namespace) -> int:
    """A development key for the principals file the server will read: ``--path``, else
    ``TRACTATUS_PRINCIPALS``, else principals.local.toml. A file that exists is left alone
    and no key is printed: its keys are the ones that work. It reads no other setting (with
    ``--path`` or without, alike: README "Configuration")."""
    from server.auth import write_dev_principals
    from server.settings import PrincipalsSetting

    path = Path(args.path or PrincipalsSetting().principals or DEV_PRINCIPALS_FILE)
    try:
        key = write_dev_principals(path)
    except OSError as error:
        print(f"tractatus dev-principals: cannot write {path}: {error}", file=sys.stderr)
        return 2
    if key is None:
        print(f"{path} exists: the server reads the keys in it (no development key written)")
    else:
        print(f"wrote {path}; development key (member): {key}")
    print(f"export TRACTATUS_PRINCIPALS={path.resolve()}")
    return 0


def _openapi(args: argparse.Namespace) -> int:
    """Write the OpenAPI document of a server with the default settings (no store needed)."""
    from server import openapi
    from server.app import create_app

    settings = openapi.default_settings(Path("principals.toml"))
    text = openapi.render(create_app(settings).openapi())
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, "utf-8")
        print(f"wrote {args.output}")
    return 0


def _unreadable(command: str, error: Exception) -> int:
    """Exit 2, not 1 (which means problems found): the store could not be read at all (a
    new user's trial ran ``tractatus check`` without the password and read an AuthError
    traceback ending in exit 1). One line: the driver's message spans several."""
    said = " ".join(str(error).split())
    print(
        f"tractatus {command}: cannot read the store: {type(error).__name__}: {said}"
        " (the local server's NEO4J_* are in var/neo4j/connection.env: source it, or run"
        " through make)",
        file=sys.stderr,
    )
    return 2


def _check_chains(args: argparse.Namespace) -> int:
    import json

    from graph_schema.events import check as chaincheck
    from server.settings import get_settings, open_driver

    settings = get_settings()
    with open_driver(settings) as driver:
        report = chaincheck.check_chains(
            driver, database=settings.neo4j_database, sample=args.sample
        )
    print(json.dumps(report.as_json(), indent=2) if args.json else chaincheck.render(report))
    return 0 if report.ok else 1


def _checksum(_: argparse.Namespace) -> int:
    """Print the store's content checksum as JSON (compare a store before and after a
    backup's round trip)."""
    from graph_schema.schema.checksum import store_checksum
    from server.settings import get_settings, open_driver

    settings = get_settings()
    with open_driver(settings) as driver:
        checksum = store_checksum(driver, database=settings.neo4j_database)
    print(checksum.model_dump_json(indent=2))
    return 0


# The local runtime (make neo4j-start) is driven by scripts/neo4j_local.py of a checkout;
# backup and restore are its offline dump and load (docs/operations.md "Backup and restore").
LOCAL_RUNTIME = Path(__file__).resolve().parents[1] / "scripts" / "neo4j_local.py"


def _local_runtime(args: argparse.Namespace) -> int:
    """``tractatus backup DIR`` / ``restore DIR``: the local runtime's offline dump or load."""
    import subprocess

    if not LOCAL_RUNTIME.is_file():
        print(
            f"tractatus {args.command}: the local Neo4j runtime is part of a checkout of the"
            " repository and this installation has none; for an external server use its own"
            " `neo4j-admin database dump/load` or online backup (docs/operations.md)",
            file=sys.stderr,
        )
        return 2
    command = [sys.executable, str(LOCAL_RUNTIME), args.command, str(args.dir)]
    return subprocess.run(command, check=False).returncode


def _check(args: argparse.Namespace) -> int:
    """``check-chains`` and the ledger audit in one report; exit 1 on any problem, 2 when the
    store cannot be read."""
    import json

    from graph_schema.events import check as chaincheck
    from graph_schema.ledger.check import check_ledger
    from server.settings import get_settings, open_driver

    settings = get_settings()
    database = settings.neo4j_database
    with open_driver(settings) as driver:
        chains = chaincheck.check_chains(driver, database=database, sample=args.sample)
        ledger = check_ledger(driver, database=database, sample=args.sample)
    found = [chaincheck.Finding(p.kind, p.total, p.sample) for p in ledger]
    report = chaincheck.ChainReport([*chains.findings, *found], chains.notes)
    # each audit says how it went ("chains ok", then "ledger ok"): a new operator's trial
    # read only "ledger ok" and could not tell that the chains had been audited
    text = "\n".join(
        [
            chaincheck.render(chaincheck.ChainReport(chains.findings)),
            chaincheck.render(chaincheck.ChainReport(found, chains.notes), "ledger"),
        ]
    )
    print(json.dumps(report.as_json(), indent=2) if args.json else text)
    return 0 if report.ok else 1


def _sleep(args: argparse.Namespace) -> int:
    """Exit 0: done (or previewed); 3: another sleep holds the lock; 2: bad arguments."""
    import json

    from graph_schema.core.clock import SystemClock
    from graph_schema.core.errors import SleepRunning
    from graph_schema.core.timeutil import parse_rfc3339
    from graph_schema.core.types import Principal
    from ingest.lifecycle.consolidate import Lifecycle
    from ingest.lifecycle.sleep import run_sleep
    from server.settings import get_settings, open_driver

    if args.now is not None and not args.dry_run:
        print("tractatus sleep: --now only with --dry-run", file=sys.stderr)
        return 2
    try:
        now = parse_rfc3339(args.now) if args.now is not None else None
    except ValueError as error:
        print(f"tractatus sleep: {error}", file=sys.stderr)
        return 2
    settings = get_settings()
    life = Lifecycle(policy=settings.lifecycle_policy(), clock=SystemClock())
    # the operator's command: ids are listed for public assertions only (counts are total)
    operator = Principal(id="tractatus:cli", role="admin")
    with open_driver(settings) as driver:
        try:
            report = run_sleep(
                driver,
                database=settings.neo4j_database,
                principal=operator,
                life=life,
                config=settings.sleep_config(),
                now=now,
                dry_run=args.dry_run,
            )
        except SleepRunning as error:
            print(f"tractatus sleep: {error.message} {error.details}", file=sys.stderr)
            return 3
    print(
        report.model_dump_json(indent=2)
        if args.json
        else _sleep_summary(json.loads(report.model_dump_json()))
    )
    return 0


def _sleep_summary(report: dict[str, object]) -> str:
    counts = report["counts"]
    mode = "dry run" if report["dry_run"] else f"run {report['run_id']}"
    return f"sleep ({mode}) at {report['now']}: {counts}"


def _user_cache() -> Path:
    """The user's cache directory: ``$XDG_CACHE_HOME``, else ``~/.cache``."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def _ingest(args: argparse.Namespace) -> int:
    """Exit 0: all accepted; 1: some could not be sent (re-run to resume); 2: bad input, no key
    or a key the server refuses; 3: some refused."""
    import json
    import logging

    from ingest import bulk

    # what the loader and the client wait for (an unavailable server) goes to stderr
    logging.basicConfig(level=logging.WARNING, format="tractatus ingest: %(message)s")
    key = args.key or os.environ.get("TRACTATUS_API_KEY")
    if not key:
        print("tractatus ingest: give --key or set TRACTATUS_API_KEY", file=sys.stderr)
        return 2
    source = Path(args.file)
    try:
        items = bulk.read_observations(source, args.format, only=args.conversation)
    except (OSError, bulk.BulkInputError) as error:
        print(f"tractatus ingest: {error}", file=sys.stderr)
        return 2
    items = items[: args.limit] if args.limit else items
    path = None
    if not args.no_progress:
        path = (
            Path(args.progress)
            if args.progress
            else bulk.default_progress_path(source, args.url, key, cache=_user_cache())
        )
        if args.restart:
            path.unlink(missing_ok=True)
    try:
        summary = bulk.load(
            items,
            url=args.url,
            key=key,
            progress=bulk.Progress(path),
            batch_size=args.batch_size,
            workers=args.workers,
            patience=args.wait,
            show_progress=not args.quiet,
        )
    except bulk.BulkAborted as error:  # a refused key: 2, as running again cannot help
        print(f"tractatus ingest: {error}", file=sys.stderr)
        return 2 if isinstance(error, bulk.KeyRefused) else 1
    report = {**summary.as_dict(), "progress_file": str(path) if path else None}
    print(json.dumps(report, indent=2))
    return 1 if summary.failed or summary.not_sent else 3 if summary.rejected else 0


def _redistill(args: argparse.Namespace) -> int:
    """Re-run the configured distiller over stored observations (docs/distillers.md)."""
    import json

    from ingest.distill.factory import make_distiller
    from ingest.redistill import Run, Summary, redistill
    from server.settings import get_settings, open_driver, settings_embedder

    settings = get_settings()
    api_key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    distiller = make_distiller(
        llm_url=settings.llm_url,
        llm_model=settings.llm_model,
        llm_timeout=settings.llm_timeout,
        llm_retries=settings.llm_retries,
        llm_api_key=api_key,
        english_model=settings.english_model,
    )
    embedder = settings_embedder(settings)

    def progress(summary: Summary) -> None:
        if not args.quiet:
            print(f"redistill: {summary.observations} observations done", file=sys.stderr)
            sys.stderr.flush()

    with open_driver(settings) as driver:
        run = Run(driver, settings.neo4j_database, distiller, embedder)
        summary = redistill(
            run,
            batch=args.batch,
            limit=args.limit,
            conversation=args.conversation,
            progress=progress,
        )
    print(json.dumps(summary.as_dict(), indent=2))
    return 0


def _reembed(args: argparse.Namespace) -> int:
    """Re-embed every stored vector with the configured model (docs/ingestion.md)."""
    import json

    from ingest.embeddings.model import model_identity
    from ingest.reembed import Reembed, Summary, reembed
    from server.settings import get_settings, open_driver, settings_embedder

    settings = get_settings()
    embedder = settings_embedder(settings)
    if embedder is None:
        print(
            "tractatus reembed: embeddings are off (TRACTATUS_EMBEDDING_MODEL); configure the"
            " model to re-embed with",
            file=sys.stderr,
        )
        return 2

    def progress(summary: Summary) -> None:
        if not args.quiet:
            print(
                f"reembed: {summary.assertions} assertions, {summary.passages} passages done",
                file=sys.stderr,
            )
            sys.stderr.flush()

    with open_driver(settings) as driver:
        run = Reembed(driver, settings.neo4j_database, embedder, model_identity(embedder.name))
        summary = reembed(run, batch=args.batch, progress=progress)
    print(json.dumps(summary.as_dict(), indent=2))
    return 0


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (a new operator's trial gave
    ``--sample -1``, which kept all examples but the last, as a Python slice does)."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more (given {value})")
        return value

    return whole


def _add_audits(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    chains = sub.add_parser("check-chains", help="audit causal chains; exit 1 on problems")
    chains.set_defaults(func=_check_chains)
    check = sub.add_parser(
        "check",
        help="audit the chains and the ledger (versions, stamps, evidence, access); exit 1 on"
        " problems",
    )
    check.set_defaults(func=_check)
    for audit in (chains, check):
        audit.add_argument("--json", action="store_true", help="print the report as JSON")
        audit.add_argument(
            "--sample", type=_at_least(0), default=100, help="examples kept per problem"
        )


def _add_reembed(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    what = "re-embed every stored vector with the configured model (resumable)"
    redo = sub.add_parser("reembed", help=what, description=what)
    redo.add_argument("--batch", type=_at_least(1), default=256, help="nodes per write transaction")
    redo.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    redo.set_defaults(func=_reembed)


def _add_redistill(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    redo = sub.add_parser(
        "redistill", help="re-run the distiller over stored observations (resumable)"
    )
    redo.add_argument("--batch", type=_at_least(1), default=64, help="observations per batch")
    redo.add_argument("--limit", type=_at_least(1), default=None, help="at most N observations")
    redo.add_argument("--conversation", default=None, help="only this conversation_id")
    redo.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    redo.set_defaults(func=_redistill)


def _add_ingest(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ingest = sub.add_parser("ingest", help="post observations from a JSONL or LoCoMo file")
    ingest.add_argument("file")
    ingest.add_argument(
        "--format",
        choices=["jsonl", "locomo"],
        default=None,
        help="default: jsonl for .jsonl/.ndjson, else locomo",
    )
    ingest.add_argument("--url", default=os.environ.get("TRACTATUS_URL", "http://127.0.0.1:8000"))
    ingest.add_argument("--key", default=None, help="bearer key (default: $TRACTATUS_API_KEY)")
    ingest.add_argument("--batch-size", type=_at_least(1), default=128)  # = bulk.DEFAULT_BATCH
    ingest.add_argument("--workers", type=_at_least(1), default=2, help="concurrent requests")
    ingest.add_argument(
        "--conversation",
        action="append",
        default=None,
        help="LoCoMo sample_id to load (repeatable; default: all)",
    )
    ingest.add_argument(
        "--limit", type=_at_least(1), default=None, help="only the first N observations"
    )
    ingest.add_argument("--progress", default=None, help="progress file of finished keys")
    ingest.add_argument("--restart", action="store_true", help="forget the progress file")
    ingest.add_argument("--no-progress", action="store_true", help="keep no progress file")
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")
    ingest.add_argument(
        "--wait",
        type=float,
        default=300.0,  # = ingest.bulk.DEFAULT_PATIENCE
        help="seconds to keep waiting for an unavailable server before a batch is left for"
        " the next run (default 300)",
    )
    ingest.set_defaults(func=_ingest)


def _add_local_runtime(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    what = "dump the local Neo4j (offline: stopped meanwhile) to DIR/neo4j.dump"
    backup = sub.add_parser("backup", help=what, description=what)
    backup.add_argument("dir", type=Path)
    backup.set_defaults(func=_local_runtime)
    what = "replace the local Neo4j's database with DIR/neo4j.dump (offline)"
    restore = sub.add_parser("restore", help=what, description=what)
    restore.add_argument("dir", type=Path)
    restore.set_defaults(func=_local_runtime)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tractatus", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="apply schema migrations and seed the ontology").set_defaults(
        func=_migrate
    )
    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=_serve)
    dev = sub.add_parser(
        "dev-principals", help="write a development principals file if the server has none"
    )
    dev.add_argument(
        "--path",
        default=None,
        help=f"default: $TRACTATUS_PRINCIPALS, else {DEV_PRINCIPALS_FILE}",
    )
    dev.set_defaults(func=_dev_principals)
    _add_audits(sub)
    checksum = sub.add_parser(
        "checksum", help="print a checksum of the store's whole content (nodes, relationships)"
    )
    checksum.set_defaults(func=_checksum)
    spec = sub.add_parser("openapi", help="write the OpenAPI document (default settings)")
    spec.add_argument("--output", default="docs/openapi.json", help="a file, or - for stdout")
    spec.set_defaults(func=_openapi)
    sleep = sub.add_parser(
        "sleep", help="consolidate ended tasks, expire, let unused facts fall dormant, wake"
    )
    sleep.add_argument("--dry-run", action="store_true", help="preview; write nothing")
    sleep.add_argument("--now", default=None, help="RFC 3339 time to preview at (--dry-run)")
    sleep.add_argument("--json", action="store_true", help="print the whole report as JSON")
    sleep.set_defaults(func=_sleep)
    _add_ingest(sub)
    _add_redistill(sub)
    _add_reembed(sub)
    _add_local_runtime(sub)
    return parser


# the commands that open the store: one that cannot be reached (or refuses the credentials)
# stops them with one line and exit 2 (a new operator's trial read tracebacks ending in exit 1
# from `checksum` and `sleep`, where `check` said it in one line)
STORE_COMMANDS = frozenset(
    {"migrate", "check-chains", "check", "checksum", "sleep", "redistill", "reembed"}
)


def main(argv: list[str] | None = None) -> int:
    import logging

    from neo4j.exceptions import DriverError, Neo4jError
    from pydantic import ValidationError

    from server import setting_errors

    args = build_parser().parse_args(argv)
    for warning in setting_errors.unknown():
        print(f"tractatus {args.command}: warning: {warning}", file=sys.stderr)
    if args.command in STORE_COMMANDS:
        # the driver's notices of each retry (several lines each) would precede the one line
        logging.getLogger("neo4j").setLevel(logging.ERROR)
    try:
        code: int = args.func(args)
    except ValidationError as error:
        if error.title != "Settings":
            raise
        for line in setting_errors.describe(error):
            print(f"tractatus {args.command}: setting refused: {line}", file=sys.stderr)
        return 2
    except (DriverError, Neo4jError) as error:
        if args.command not in STORE_COMMANDS:
            raise
        return _unreadable(args.command, error)
    return code


if __name__ == "__main__":
    sys.exit(main())
