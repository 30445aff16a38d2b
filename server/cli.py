"""The ``tractatus`` command: a thin layer over the library."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graph_schema import migrations, ontology
from server.auth import write_dev_principals
from server.settings import get_settings, open_driver


def _migrate(_: argparse.Namespace) -> int:
    settings = get_settings()
    with open_driver(settings) as driver:
        applied = migrations.migrate(driver, database=settings.neo4j_database)
        created = ontology.seed(driver, database=settings.neo4j_database)
    print(f"schema at version {migrations.LATEST_VERSION}; applied {applied or 'nothing'}")
    print(f"predicates registered: {created or 'none new'}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.app import create_app

    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="info")
    return 0


def _dev_principals(args: argparse.Namespace) -> int:
    path = Path(args.path)
    key = write_dev_principals(path)
    if key is None:
        print(f"{path} exists; keys are in it")
    else:
        print(f"wrote {path}; development key (member): {key}")
    print(f"export TRACTATUS_PRINCIPALS={path.resolve()}")
    return 0


def _check_chains(args: argparse.Namespace) -> int:
    import json

    from server import chaincheck

    settings = get_settings()
    with open_driver(settings) as driver:
        report = chaincheck.check_chains(
            driver, database=settings.neo4j_database, sample=args.sample
        )
    print(json.dumps(report.as_json(), indent=2) if args.json else chaincheck.render(report))
    return 0 if report.ok else 1


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
    dev = sub.add_parser("dev-principals", help="write a development principals file")
    dev.add_argument("--path", default="principals.local.toml")
    dev.set_defaults(func=_dev_principals)
    chains = sub.add_parser("check-chains", help="audit causal chains; exit 1 on problems")
    chains.add_argument("--json", action="store_true", help="print the report as JSON")
    chains.add_argument("--sample", type=int, default=100, help="examples kept per problem")
    chains.set_defaults(func=_check_chains)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
