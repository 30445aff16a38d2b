#!/usr/bin/env python3
"""Run a local Neo4j 5.26 Community server for Tractatus, without Docker.

The server is assembled from Maven artifacts (see ``scripts/neo4j-runtime.pom.xml``) and
launched with Java 17 as ``org.neo4j.server.CommunityEntryPoint``. Everything it owns lives
under one home directory (``TRACTATUS_NEO4J_HOME``, default ``<repo>/var/neo4j``)::

    lib/              the jars, resolved by Maven (lib/.pom-sha256 stamps the pom they match)
    conf/neo4j.conf   generated on every start from the settings below
    data/ logs/       database files; logs/console.log is the JVM's stdout/stderr
    import/ plugins/  standard Neo4j directories (empty)
    run/neo4j.pid     pid of the running JVM
    password          the generated password of user ``neo4j`` (mode 600)
    connection.env    NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD lines (mode 600)
    run/guide.pid     pid of the Browser guide server (scripts/browser_guide.py, docs/browser/)

Usage::

    python scripts/neo4j_local.py start | stop | status | env [--shell]
    python scripts/neo4j_local.py backup DIR | restore DIR

``backup`` dumps the database ``neo4j`` to ``DIR/neo4j.dump`` and ``restore`` loads it back,
replacing the database; Community Edition does both offline, so a running server is stopped
for the dump or load and started again (the time it was down is printed; docs/operations.md).

Settings (environment, with defaults): TRACTATUS_NEO4J_HOME, TRACTATUS_NEO4J_BOLT_PORT (7687),
TRACTATUS_NEO4J_HTTP_PORT (7474), TRACTATUS_NEO4J_GUIDE_PORT (the HTTP port + 1000),
TRACTATUS_NEO4J_HEAP (2g), TRACTATUS_NEO4J_PAGECACHE (2g), TRACTATUS_NEO4J_START_TIMEOUT
(seconds, 120). If ``NEO4J_URI`` is set, that external server is
used instead: ``start`` does nothing, ``stop`` only ends a local server that still runs, and
``env`` echoes the NEO4J_* variables.

Only the standard library and the ``neo4j`` driver are used.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import logging
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

REPO_ROOT = Path(__file__).resolve().parent.parent
POM = REPO_ROOT / "scripts" / "neo4j-runtime.pom.xml"
GUIDE_SERVER = REPO_ROOT / "scripts" / "browser_guide.py"
GUIDE_DIR = REPO_ROOT / "docs" / "browser"
GUIDE_FILE = "guide.html"
STYLE_FILE = "tractatus.grass"
GUIDE_PORT_OFFSET = 1000

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ADMIN_TOOL = "org.neo4j.cli.AdminTool"
USER = "neo4j"
DATABASE = "neo4j"  # Community Edition has one user database
LOOPBACK = "127.0.0.1"

EXIT_STOPPED = 3  # `status` exit code when not running (LSB convention)

# JVM options: the server.jvm.additional defaults of the 5.26 distribution's neo4j.conf, plus
# ExitOnOutOfMemoryError and the file encoding its launcher sets; heap comes from the settings.
JVM_OPTIONS: tuple[str, ...] = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-XX:+ExitOnOutOfMemoryError",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
)


class Neo4jLocalError(Exception):
    """A failure to report to the user (printed without a traceback)."""


@dataclass(frozen=True)
class Settings:
    home: Path
    bolt_port: int
    http_port: int
    guide_port: int
    heap: str
    pagecache: str
    start_timeout: int

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        if env is None:
            env = os.environ
        home = Path(env.get("TRACTATUS_NEO4J_HOME") or REPO_ROOT / "var" / "neo4j")
        http_port = _int_setting(env, "TRACTATUS_NEO4J_HTTP_PORT", 7474)
        return cls(
            home=home.expanduser().resolve(),
            bolt_port=_int_setting(env, "TRACTATUS_NEO4J_BOLT_PORT", 7687),
            http_port=http_port,
            guide_port=_int_setting(
                env, "TRACTATUS_NEO4J_GUIDE_PORT", http_port + GUIDE_PORT_OFFSET
            ),
            heap=_size_setting(env, "TRACTATUS_NEO4J_HEAP", "2g"),
            pagecache=_size_setting(env, "TRACTATUS_NEO4J_PAGECACHE", "2g"),
            start_timeout=_int_setting(env, "TRACTATUS_NEO4J_START_TIMEOUT", 120, "a timeout"),
        )

    # Layout -------------------------------------------------------------------------------
    @property
    def lib_dir(self) -> Path:
        return self.home / "lib"

    @property
    def lib_stamp(self) -> Path:
        return self.lib_dir / ".pom-sha256"

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def conf_file(self) -> Path:
        return self.conf_dir / "neo4j.conf"

    @property
    def data_dir(self) -> Path:
        return self.home / "data"

    @property
    def logs_dir(self) -> Path:
        return self.home / "logs"

    @property
    def console_log(self) -> Path:
        return self.logs_dir / "console.log"

    @property
    def run_dir(self) -> Path:
        return self.home / "run"

    @property
    def pid_file(self) -> Path:
        return self.run_dir / "neo4j.pid"

    @property
    def guide_pid_file(self) -> Path:
        return self.run_dir / "guide.pid"

    @property
    def guide_log(self) -> Path:
        return self.logs_dir / "guide.log"

    @property
    def password_file(self) -> Path:
        return self.home / "password"

    @property
    def connection_env(self) -> Path:
        return self.home / "connection.env"

    @property
    def system_db_dir(self) -> Path:
        return self.data_dir / "databases" / "system"

    # URLs ---------------------------------------------------------------------------------
    @property
    def bolt_uri(self) -> str:
        return f"bolt://{LOOPBACK}:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://{LOOPBACK}:{self.http_port}/browser/"

    @property
    def guide_base(self) -> str:
        return f"http://{LOOPBACK}:{self.guide_port}"

    @property
    def browser_origins(self) -> tuple[str, ...]:
        return tuple(f"http://{host}:{self.http_port}" for host in (LOOPBACK, "localhost"))


def _int_setting(
    env: Mapping[str, str], name: str, default: int, what: str = "a port number"
) -> int:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise Neo4jLocalError(f"{name}={raw!r} is not {what}") from exc
    if not 0 < value < 65536:
        raise Neo4jLocalError(f"{name}={raw!r} is not {what}")
    return value


def _size_setting(env: Mapping[str, str], name: str, default: str) -> str:
    value = (env.get(name) or default).strip()
    if not re.fullmatch(r"[1-9][0-9]*[kKmMgG]?", value):
        raise Neo4jLocalError(f"{name}={value!r} is not a memory size such as 2g or 512m")
    return value.lower()


def log(message: str) -> None:
    print(f"neo4j_local: {message}", flush=True)


# Files ------------------------------------------------------------------------------------
def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable by the owner only (mode 600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def tail(path: Path, lines: int = 40, offset: int = 0) -> str:
    """The last ``lines`` lines of ``path``, reading only from byte ``offset`` on."""
    try:
        with path.open("rb") as fh:
            fh.seek(offset)
            content = fh.read().decode("utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return f"(no {path})"
    return "\n".join(content[-lines:]) or "(nothing written)"


def log_offsets(settings: Settings) -> dict[Path, int]:
    """Current sizes of the logs, so that an error shows only what this start wrote."""
    offsets: dict[Path, int] = {}
    for path in (settings.console_log, settings.logs_dir / "neo4j.log"):
        with contextlib.suppress(OSError):
            offsets[path] = path.stat().st_size
    return offsets


def failure_logs(settings: Settings, offsets: Mapping[Path, int] | None = None) -> str:
    """The tails of the JVM console log and of Neo4j's own user log, for error messages."""
    parts = []
    for path in (settings.console_log, settings.logs_dir / "neo4j.log"):
        start = (offsets or {}).get(path, 0)
        parts.append(f"--- {path} ---\n{tail(path, offset=start)}")
    return "\n".join(parts)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# External server --------------------------------------------------------------------------
def external_env() -> dict[str, str] | None:
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        return None
    values = {"NEO4J_URI": uri, "NEO4J_USER": os.environ.get("NEO4J_USER") or USER}
    if "NEO4J_PASSWORD" in os.environ:
        values["NEO4J_PASSWORD"] = os.environ["NEO4J_PASSWORD"]
    return values


# Jars -------------------------------------------------------------------------------------
def ensure_jars(settings: Settings) -> None:
    """Resolve the runtime jars into HOME/lib unless they already match the pom."""
    digest = sha256_of(POM)
    if settings.lib_stamp.is_file() and settings.lib_stamp.read_text().strip() == digest:
        return
    mvn = shutil.which("mvn")
    if mvn is None:
        raise Neo4jLocalError("Maven (`mvn`) is needed to resolve the Neo4j jars; not on PATH")
    staging = settings.home / "lib.partial"
    shutil.rmtree(staging, ignore_errors=True)
    settings.home.mkdir(parents=True, exist_ok=True)
    log(f"resolving Neo4j jars with Maven into {settings.lib_dir} (cached in ~/.m2) ...")
    started = time.monotonic()
    cmd = [
        mvn,
        "-q",
        "-B",
        "-Dstyle.color=never",
        "-f",
        str(POM),
        "dependency:copy-dependencies",
        "-DincludeScope=runtime",
        f"-DoutputDirectory={staging}",
    ]
    result = subprocess.run(
        cmd, cwd=settings.home, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    jars = sorted(staging.glob("*.jar")) if staging.is_dir() else []
    if result.returncode != 0 or not jars:
        shutil.rmtree(staging, ignore_errors=True)
        output = (result.stdout + result.stderr).strip()
        raise Neo4jLocalError(
            f"Maven could not resolve the Neo4j jars (exit {result.returncode}):\n{output}"
        )
    (staging / ".pom-sha256").write_text(digest + "\n")
    shutil.rmtree(settings.lib_dir, ignore_errors=True)
    staging.rename(settings.lib_dir)
    log(f"{len(jars)} jars ready in {time.monotonic() - started:.1f} s")


def java_executable() -> str:
    java_home = os.environ.get("JAVA_HOME")
    if java_home and (Path(java_home) / "bin" / "java").is_file():
        return str(Path(java_home) / "bin" / "java")
    java = shutil.which("java")
    if java is None:
        raise Neo4jLocalError("Java 17 (`java`) is needed to run Neo4j; not on PATH")
    return java


def classpath(settings: Settings) -> str:
    return str(settings.lib_dir / "*")


# Configuration ----------------------------------------------------------------------------
def render_conf(settings: Settings) -> str:
    home = settings.home
    entries: list[tuple[str, str]] = [
        # Directories: everything under HOME.
        ("server.directories.data", str(settings.data_dir)),
        ("server.directories.logs", str(settings.logs_dir)),
        ("server.directories.import", str(home / "import")),
        ("server.directories.plugins", str(home / "plugins")),
        ("server.directories.lib", str(settings.lib_dir)),
        ("server.directories.run", str(settings.run_dir)),
        # Network: loopback only, no TLS listener.
        ("server.default_listen_address", LOOPBACK),
        ("server.default_advertised_address", LOOPBACK),
        ("server.bolt.enabled", "true"),
        ("server.bolt.listen_address", f"{LOOPBACK}:{settings.bolt_port}"),
        ("server.bolt.advertised_address", f"{LOOPBACK}:{settings.bolt_port}"),
        ("server.bolt.tls_level", "DISABLED"),
        ("server.http.enabled", "true"),
        ("server.http.listen_address", f"{LOOPBACK}:{settings.http_port}"),
        ("server.http.advertised_address", f"{LOOPBACK}:{settings.http_port}"),
        ("server.https.enabled", "false"),
        # Memory: explicit, so nothing is guessed from the machine's 24 GB.
        ("server.memory.heap.initial_size", settings.heap),
        ("server.memory.heap.max_size", settings.heap),
        ("server.memory.pagecache.size", settings.pagecache),
        # Security: authentication stays on; the password is set before the first start.
        ("dbms.security.auth_enabled", "true"),
        # No phoning home from the server or from Browser (the network is closed anyway).
        ("dbms.usage_report.enabled", "false"),
        ("client.allow_telemetry", "false"),
        # Browser: load guides and styles only from the loopback guide server (docs/browser.md),
        # and open the analysts' guide with its style on every connect.
        ("browser.remote_content_hostname_whitelist", f"{LOOPBACK},localhost"),
        (
            "browser.post_connect_cmd",
            # Browser adds the command character itself
            f"style {settings.guide_base}/{STYLE_FILE};play {settings.guide_base}/{GUIDE_FILE}",
        ),
        # Transactions: a runaway query or a lock wait fails instead of hanging tests.
        ("db.transaction.timeout", "300s"),
        ("db.lock.acquisition.timeout", "60s"),
        # Keep transaction logs small on a development machine.
        ("db.tx_log.rotation.retention_policy", "2 days 1G"),
    ]
    lines = [
        "# Generated by scripts/neo4j_local.py on every start; edits here are overwritten.",
        "# Change the TRACTATUS_NEO4J_* environment variables instead.",
        *(f"{key}={value}" for key, value in entries),
    ]
    return "\n".join(lines) + "\n"


def write_conf(settings: Settings) -> None:
    settings.conf_dir.mkdir(parents=True, exist_ok=True)
    for directory in (
        settings.data_dir,
        settings.logs_dir,
        settings.run_dir,
        settings.home / "import",
        settings.home / "plugins",
    ):
        directory.mkdir(parents=True, exist_ok=True)
    settings.conf_file.write_text(render_conf(settings), encoding="utf-8")


# Password ---------------------------------------------------------------------------------
def read_password(settings: Settings) -> str | None:
    try:
        password = settings.password_file.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return password or None


def new_password() -> str:
    """A password for user neo4j: 48 hex digits (192 bits). Never one that starts with "-",
    which `neo4j-admin dbms set-initial-password` reads as an option and refuses (the
    URL-safe tokens used before did, one time in 64: a clean-clone CI run failed on it)."""
    return secrets.token_hex(24)


def refused_by_admin(password: str, first_start: bool) -> bool:
    """A stored password to replace before the first start (and only then): one neo4j-admin
    would refuse, written by an older version."""
    return first_start and password.startswith("-")


def ensure_password(settings: Settings) -> str:
    """Return the password of user neo4j, setting it up before the first start."""
    password = read_password(settings)
    first_start = not settings.system_db_dir.exists()
    if password is None or refused_by_admin(password, first_start):
        if not first_start:
            raise Neo4jLocalError(
                f"{settings.password_file} is missing but the database in {settings.data_dir} "
                "was already initialised with a password; restore the file or remove "
                f"{settings.data_dir} (e.g. `make clean`) to start afresh"
            )
        password = new_password()
        write_private(settings.password_file, password + "\n")
    if first_start:
        set_initial_password(settings, password)
    return password


def run_admin(settings: Settings, args: Sequence[str], secret: str | None = None) -> None:
    """`neo4j-admin ARGS` from the same jars; an error names the command (a secret masked)."""
    env = dict(os.environ, NEO4J_HOME=str(settings.home), NEO4J_CONF=str(settings.conf_dir))
    cmd = [java_executable(), "-Xmx256m", "-cp", classpath(settings), ADMIN_TOOL, *args]
    result = subprocess.run(
        cmd, cwd=settings.home, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()
        if secret:
            output = output.replace(secret, "****")
        raise Neo4jLocalError(f"neo4j-admin {args[0]} {args[1]} failed:\n{output}")


def set_initial_password(settings: Settings, password: str) -> None:
    """`neo4j-admin dbms set-initial-password` (writes data/dbms/auth.ini)."""
    run_admin(settings, ["dbms", "set-initial-password", password], secret=password)
    log(f"initial password of user neo4j set (stored in {settings.password_file})")


def write_connection_env(settings: Settings, password: str) -> None:
    write_private(
        settings.connection_env,
        f"NEO4J_URI={settings.bolt_uri}\nNEO4J_USER={USER}\nNEO4J_PASSWORD={password}\n",
    )


def read_env_file(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


# Process ----------------------------------------------------------------------------------
def read_pid(settings: Settings, path: Path | None = None) -> int | None:
    try:
        return int((path or settings.pid_file).read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (exited, not yet reaped by its parent) counts as gone.
    with contextlib.suppress(OSError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        if stat.rsplit(")", 1)[1].split()[0] in ("Z", "X"):
            return False
    return True


def is_our_server(settings: Settings, pid: int) -> bool:
    """Is ``pid`` alive and the Neo4j JVM of this home (guards against a recycled pid)?"""
    if not pid_alive(pid):
        return False
    cmdline_path = Path(f"/proc/{pid}/cmdline")
    if not cmdline_path.parent.exists():  # no procfs: trust the pid file
        return True
    try:
        cmdline = cmdline_path.read_bytes().split(b"\0")
    except OSError:
        return False
    args = [part.decode(errors="replace") for part in cmdline]
    return ENTRY_POINT in args and f"--home-dir={settings.home}" in args


def running_pid(settings: Settings) -> int | None:
    """Pid of this home's Neo4j: from the pid file, else (file lost) by scanning /proc."""
    pid = read_pid(settings)
    if pid is not None and is_our_server(settings, pid):
        return pid
    proc_dir = Path("/proc")
    if not proc_dir.is_dir():
        return None
    for entry in proc_dir.iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            with contextlib.suppress(OSError):
                args = (entry / "cmdline").read_bytes().split(b"\0")
                if ENTRY_POINT.encode() in args and f"--home-dir={settings.home}".encode() in args:
                    found = int(entry.name)
                    if pid_alive(found):
                        settings.pid_file.parent.mkdir(parents=True, exist_ok=True)
                        settings.pid_file.write_text(f"{found}\n")
                        return found
    return None


def port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((LOOPBACK, port))
        except OSError:
            return True
    return False


def port_open(port: int) -> bool:
    try:
        with socket.create_connection((LOOPBACK, port), timeout=1.0):
            return True
    except OSError:
        return False


def launch(settings: Settings) -> subprocess.Popen[bytes]:
    cmd = [
        java_executable(),
        f"-Xms{settings.heap}",
        f"-Xmx{settings.heap}",
        *JVM_OPTIONS,
        "-cp",
        classpath(settings),
        ENTRY_POINT,
        f"--home-dir={settings.home}",
        f"--config-dir={settings.conf_dir}",
    ]
    env = dict(os.environ, NEO4J_HOME=str(settings.home), NEO4J_CONF=str(settings.conf_dir))
    with settings.console_log.open("ab") as console:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        console.write(f"=== neo4j_local start {stamp} ===\n".encode())
        console.flush()
        proc = subprocess.Popen(
            cmd,
            cwd=settings.home,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=console,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
        )
    settings.pid_file.parent.mkdir(parents=True, exist_ok=True)
    settings.pid_file.write_text(f"{proc.pid}\n")
    return proc


# The Browser guide server -----------------------------------------------------------------
def guide_pid(settings: Settings) -> int | None:
    """Pid of this home's guide server (scripts/browser_guide.py), if it runs."""
    pid = read_pid(settings, settings.guide_pid_file)
    if pid is None or not pid_alive(pid):
        return None
    with contextlib.suppress(OSError):
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if str(GUIDE_SERVER).encode() not in args:
            return None
    return pid


def start_guide(settings: Settings) -> None:
    """Serve docs/browser/ on the guide port, detached like Neo4j; wait until it answers."""
    if guide_pid(settings) is not None:
        return
    cmd = [sys.executable, str(GUIDE_SERVER), "--port", str(settings.guide_port)]
    cmd += ["--directory", str(GUIDE_DIR)]
    for origin in settings.browser_origins:
        cmd += ["--origin", origin]
    settings.logs_dir.mkdir(parents=True, exist_ok=True)
    with settings.guide_log.open("ab") as log_file:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
        )
    settings.guide_pid_file.parent.mkdir(parents=True, exist_ok=True)
    settings.guide_pid_file.write_text(f"{proc.pid}\n")
    deadline = time.monotonic() + 15
    while not port_open(settings.guide_port):
        if proc.poll() is not None or time.monotonic() > deadline:
            settings.guide_pid_file.unlink(missing_ok=True)
            raise Neo4jLocalError(
                f"the Browser guide server did not start\n{tail(settings.guide_log, 10)}"
            )
        time.sleep(0.1)


def stop_guide(settings: Settings) -> None:
    pid = guide_pid(settings)
    if pid is not None:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 5
        while pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if pid_alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    settings.guide_pid_file.unlink(missing_ok=True)


# Readiness --------------------------------------------------------------------------------
@contextlib.contextmanager
def quiet_driver_logs() -> Iterator[None]:
    logger = logging.getLogger("neo4j")
    previous = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(previous)


def bolt_ready(uri: str, user: str, password: str) -> bool:
    """One attempt: connect, authenticate and run ``RETURN 1``.

    Returns False while the server is not (yet) answering; raises on a wrong password.
    """
    from neo4j import GraphDatabase
    from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable, SessionExpired

    with quiet_driver_logs():
        try:
            with GraphDatabase.driver(
                uri, auth=(user, password), connection_timeout=2.0, max_transaction_retry_time=0
            ) as driver:
                driver.verify_connectivity()
                records, _, _ = driver.execute_query("RETURN 1 AS ok")
                return bool(records and records[0]["ok"] == 1)
        except AuthError as exc:
            raise Neo4jLocalError(
                f"Neo4j at {uri} rejected the password in the password file: {exc.message}"
            ) from exc
        except (ServiceUnavailable, SessionExpired, Neo4jError, OSError):
            return False


def wait_until_ready(
    settings: Settings,
    password: str,
    proc: subprocess.Popen[bytes] | None,
    pid: int,
    offsets: Mapping[Path, int] | None = None,
) -> None:
    deadline = time.monotonic() + settings.start_timeout
    while True:
        exited = proc.poll() is not None if proc is not None else not pid_alive(pid)
        if exited:
            settings.pid_file.unlink(missing_ok=True)
            raise Neo4jLocalError(
                "Neo4j exited during start-up\n" + failure_logs(settings, offsets)
            )
        if port_open(settings.bolt_port) and bolt_ready(settings.bolt_uri, USER, password):
            return
        if time.monotonic() >= deadline:
            raise Neo4jLocalError(
                f"Neo4j did not answer on {settings.bolt_uri} within {settings.start_timeout:.0f} s"
                f" (pid {pid} left running; `stop` ends it)\n" + failure_logs(settings, offsets)
            )
        # Poll interval; also returns at once if the JVM exits.
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.5)
        else:
            time.sleep(0.5)


# Commands ---------------------------------------------------------------------------------
def announce(settings: Settings) -> None:
    log(f"Bolt    {settings.bolt_uri}  (user {USER}, password in {settings.password_file})")
    log(f"Browser {settings.browser_url}")
    log(f"Guide   {settings.guide_base}/{GUIDE_FILE}  (opened by the Browser on connect)")
    log(f"env     {settings.connection_env}")


def cmd_start(settings: Settings) -> int:
    external = external_env()
    if external is not None:
        log(f"NEO4J_URI is set: using the external server {external['NEO4J_URI']}; not starting")
        return 0

    pid = running_pid(settings)
    if pid is not None:
        password = read_password(settings)
        if password is None:
            raise Neo4jLocalError(f"Neo4j (pid {pid}) runs but {settings.password_file} is gone")
        if not bolt_ready(settings.bolt_uri, USER, password):
            log(f"Neo4j (pid {pid}) is starting; waiting for it ...")
            wait_until_ready(settings, password, None, pid)
        write_connection_env(settings, password)
        start_guide(settings)
        log(f"already running (pid {pid})")
        announce(settings)
        return 0

    settings.pid_file.unlink(missing_ok=True)
    ports = [("Bolt", settings.bolt_port), ("HTTP", settings.http_port)]
    if guide_pid(settings) is None:
        ports.append(("guide", settings.guide_port))
    for name, port in ports:
        if port_in_use(port):
            raise Neo4jLocalError(
                f"{name} port {LOOPBACK}:{port} is already in use by another process; stop it or "
                "choose other ports (TRACTATUS_NEO4J_BOLT_PORT / TRACTATUS_NEO4J_HTTP_PORT / "
                "TRACTATUS_NEO4J_GUIDE_PORT)"
            )

    started = time.monotonic()
    ensure_jars(settings)
    write_conf(settings)
    password = ensure_password(settings)
    offsets = log_offsets(settings)
    proc = launch(settings)
    log(f"starting Neo4j (pid {proc.pid}, home {settings.home}, log {settings.console_log}) ...")
    wait_until_ready(settings, password, proc, proc.pid, offsets)
    write_connection_env(settings, password)
    start_guide(settings)
    log(f"Neo4j is ready after {time.monotonic() - started:.1f} s")
    announce(settings)
    return 0


def cmd_stop(settings: Settings, grace: float = 60.0) -> int:
    if external_env() is not None and not settings.pid_file.exists():
        log("NEO4J_URI is set: the external server is not ours to stop")
        return 0
    stop_guide(settings)
    pid = running_pid(settings)
    if pid is None:
        settings.pid_file.unlink(missing_ok=True)
        log("not running")
        return 0
    log(f"stopping Neo4j (pid {pid}) ...")
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if pid_alive(pid):
        log(f"still running after {grace:.0f} s; sending SIGKILL")
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        while pid_alive(pid):
            time.sleep(0.1)
    settings.pid_file.unlink(missing_ok=True)
    log("stopped")
    return 0


def cmd_status(settings: Settings) -> int:
    external = external_env()
    if external is not None:
        print(f"external ({external['NEO4J_URI']})")
        return 0
    pid = running_pid(settings)
    if pid is None:
        print("stopped")
        return EXIT_STOPPED
    print(f"running (pid {pid}, {settings.bolt_uri}, {settings.browser_url})")
    return 0


def cmd_env(settings: Settings, shell: bool, out: TextIO = sys.stdout) -> int:
    values = external_env()
    if values is None:
        if not settings.connection_env.is_file():
            raise Neo4jLocalError(f"{settings.connection_env} does not exist; run `start` first")
        values = read_env_file(settings.connection_env)
    for key, value in values.items():
        out.write(f"export {key}={shlex.quote(value)}\n" if shell else f"{key}={value}\n")
    return 0


def _offline_admin(settings: Settings, what: str, args: list[str]) -> float:
    """Run an offline admin command (Community Edition dumps and loads only a stopped
    database): stop a running local server, run it, start the server again; return how long
    the store was down."""
    if external_env() is not None:
        raise Neo4jLocalError(
            f"NEO4J_URI is set: {what} works on the local runtime only; for an external "
            "server use its own `neo4j-admin database dump/load` (docs/operations.md)"
        )
    ensure_jars(settings)
    write_conf(settings)
    was_running = running_pid(settings) is not None
    if was_running:
        cmd_stop(settings)
    stopped = time.monotonic()
    try:
        run_admin(settings, ["database", *args, DATABASE, "--overwrite-destination=true"])
    finally:
        if was_running:
            cmd_start(settings)
    return time.monotonic() - stopped


def cmd_backup(settings: Settings, target: Path) -> int:
    """Dump the database `neo4j` to TARGET/neo4j.dump (the server is down meanwhile)."""
    target.mkdir(parents=True, exist_ok=True)
    down = _offline_admin(settings, "backup", ["dump", f"--to-path={target}"])
    log(f"backup: {target / (DATABASE + '.dump')} written; down {down:.1f} s")
    return 0


def cmd_restore(settings: Settings, source: Path) -> int:
    """Replace the database `neo4j` with SOURCE/neo4j.dump."""
    dump = source / f"{DATABASE}.dump"
    if not dump.is_file():
        raise Neo4jLocalError(f"restore: {dump} does not exist (give the folder a backup wrote)")
    down = _offline_admin(settings, "restore", ["load", f"--from-path={source}"])
    log(f"restore: {dump} loaded; down {down:.1f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("start", help="start Neo4j (or reuse the running one) and wait until ready")
    sub.add_parser("stop", help="stop Neo4j (SIGTERM, SIGKILL after 60 s)")
    sub.add_parser("status", help="print running/stopped (exit 0 when running, 3 when stopped)")
    env_parser = sub.add_parser("env", help="print NEO4J_URI/NEO4J_USER/NEO4J_PASSWORD lines")
    env_parser.add_argument(
        "--shell", action="store_true", help="print `export K='V'` lines for eval"
    )
    backup = sub.add_parser("backup", help="dump the database (offline) to DIR/neo4j.dump")
    backup.add_argument("dir", type=Path)
    restore = sub.add_parser("restore", help="load DIR/neo4j.dump, replacing the database")
    restore.add_argument("dir", type=Path)
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
        if args.command == "start":
            return cmd_start(settings)
        if args.command == "stop":
            return cmd_stop(settings)
        if args.command == "status":
            return cmd_status(settings)
        if args.command == "backup":
            return cmd_backup(settings, args.dir)
        if args.command == "restore":
            return cmd_restore(settings, args.dir)
        return cmd_env(settings, shell=args.shell)
    except Neo4jLocalError as exc:
        print(f"neo4j_local: error: {exc}", file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
