"""Bearer keys to principals, from the TOML file named by ``TRACTATUS_PRINCIPALS``.

Keys may be stored in clear (``key``) or as ``key_sha256``; either way only hashes are
kept in memory and compared in constant time. The file is re-read when it changes, so a
revoked key (``revoked = true`` or removed) stops working without a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from graph_schema.core.errors import AuthenticationFailed
from graph_schema.core.types import GROUP_PATTERN, Principal

log = logging.getLogger("tractatus.auth")

MIN_KEY_CHARS = 24
MAX_HEADER_CHARS = 512


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _entry(raw: dict[str, object]) -> tuple[str, Principal] | None:
    pid = raw.get("id")
    if not isinstance(pid, str) or not pid:
        raise ValueError("every principal needs an id")
    if raw.get("revoked") is True:
        return None
    groups = raw.get("groups", [])
    if not isinstance(groups, list) or not all(
        isinstance(g, str) and GROUP_PATTERN.match(g) for g in groups
    ):
        raise ValueError(f"principal {pid}: groups must be a list of group names")
    role = raw.get("role", "member")
    if role not in ("member", "admin"):
        raise ValueError(f"principal {pid}: role is member or admin")
    key, digest = raw.get("key"), raw.get("key_sha256")
    if isinstance(key, str):
        if len(key) < MIN_KEY_CHARS:
            raise ValueError(f"principal {pid}: keys need at least {MIN_KEY_CHARS} characters")
        digest = hash_key(key)
    if digest is None:
        raise ValueError(f"principal {pid}: give key or key_sha256")
    if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", digest):
        raise ValueError(f"principal {pid}: key_sha256 must be 64 hexadecimal digits")
    principal = Principal(id=pid, groups=tuple(sorted(set(groups))), role=role)
    return digest.lower(), principal


class PrincipalsInvalid(ValueError):
    """The principals file cannot be read, or names a key twice or one id two ways."""


def load_principals(path: Path) -> dict[str, Principal]:
    """Principals by key hash. Refused (:class:`PrincipalsInvalid`, naming the file and the
    entry): a file that cannot be read or parsed, an invalid entry, one key for two entries
    (it authenticated silently as the later one, an admin in a new user's trial) and one id
    with two roles or group lists (rotation adds a key with the same id, groups and role)."""
    try:
        data = tomllib.loads(path.read_text("utf-8"))
        table: dict[str, Principal] = {}
        by_id: dict[str, Principal] = {}
        for raw in data.get("principal", []):
            entry = _entry(raw)
            if entry is None:
                continue
            digest, principal = entry
            if digest in table:
                raise ValueError(f"principal {principal.id}: its key is another entry's too")
            if by_id.setdefault(principal.id, principal) != principal:
                raise ValueError(
                    f"principal {principal.id}: two entries give it other groups or another role"
                )
            table[digest] = principal
    except (OSError, ValueError) as error:
        raise PrincipalsInvalid(f"TRACTATUS_PRINCIPALS ({path}): {error}") from None
    return table


@dataclass
class KeyRing:
    """Principals by key hash, reloaded when the file's mtime changes."""

    path: Path
    _table: dict[str, Principal] = field(default_factory=dict)
    _mtime: float = -1.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self) -> None:
        """Read the file now: refuse to start (:class:`PrincipalsInvalid`) on one that is
        missing, unreadable or invalid; every request answered 500 before."""
        self._table, self._mtime = load_principals(self.path), self._stat()

    def _stat(self) -> float:
        try:
            return os.stat(self.path).st_mtime
        except OSError:
            return -2.0  # gone: read again, which refuses every key until it is back

    def _current(self) -> dict[str, Principal]:
        mtime = self._stat()
        if mtime != self._mtime:
            with self._lock:
                if mtime != self._mtime:
                    self._table = self._reload()
                    self._mtime = mtime
        return self._table

    def _reload(self) -> dict[str, Principal]:
        """The file as it is now; a file broken while the server runs (a typo while editing)
        authenticates no one until it is fixed (401 for every key, and one error logged per
        change), never a 500."""
        try:
            return load_principals(self.path)
        except PrincipalsInvalid as error:
            log.error("no key authenticates until the principals file is fixed: %s", error)
            return {}

    def group_counts(self) -> set[int]:
        """How many groups each principal has (recall's plans are warmed for each count)."""
        return {len(p.groups) for p in self._current().values()}

    def authenticate(self, authorization: str | None) -> Principal:
        if not authorization or len(authorization) > MAX_HEADER_CHARS:
            raise AuthenticationFailed("a valid bearer key is required")
        scheme, _, key = authorization.partition(" ")
        key = key.strip()
        if scheme.lower() != "bearer" or not key or not key.isprintable():
            raise AuthenticationFailed("a valid bearer key is required")
        digest = hash_key(key)
        found: Principal | None = None
        for stored, principal in self._current().items():
            if hmac.compare_digest(stored, digest):
                found = principal
        if found is None:
            raise AuthenticationFailed("a valid bearer key is required")
        return found


def new_key() -> str:
    return "tr_live_" + secrets.token_urlsafe(32)


DEV_PRINCIPALS = """# Development principals written by `tractatus dev-principals`. Keep out of git.
[[principal]]
id = "dev"
key = "{member}"
groups = []
role = "member"

[[principal]]
id = "dev-admin"
key = "{admin}"
groups = []
role = "admin"
"""


def write_dev_principals(path: Path) -> str | None:
    """Write a development principals file if none exists; return the member key if written."""
    if path.exists():
        return None
    member, admin = new_key(), new_key()
    path.write_text(DEV_PRINCIPALS.format(member=member, admin=admin), "utf-8")
    path.chmod(0o600)
    return member
