"""Bearer keys to principals, from the TOML file named by ``TRACTATUS_PRINCIPALS``.

Keys may be stored in clear (``key``) or as ``key_sha256``; either way only hashes are
kept in memory and compared in constant time. The file is re-read when it changes, so a
revoked key (``revoked = true`` or removed) stops working without a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from graph_schema.core.errors import AuthenticationFailed
from graph_schema.core.types import GROUP_PATTERN, Principal

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
    if not isinstance(digest, str) or len(digest) != 64:
        raise ValueError(f"principal {pid}: give key or key_sha256")
    principal = Principal(id=pid, groups=tuple(sorted(set(groups))), role=role)
    return digest.lower(), principal


def load_principals(path: Path) -> dict[str, Principal]:
    data = tomllib.loads(path.read_text("utf-8"))
    table: dict[str, Principal] = {}
    for raw in data.get("principal", []):
        entry = _entry(raw)
        if entry is not None:
            table[entry[0]] = entry[1]
    return table


@dataclass
class KeyRing:
    """Principals by key hash, reloaded when the file's mtime changes."""

    path: Path
    _table: dict[str, Principal] = field(default_factory=dict)
    _mtime: float = -1.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _current(self) -> dict[str, Principal]:
        mtime = os.stat(self.path).st_mtime
        if mtime != self._mtime:
            with self._lock:
                if mtime != self._mtime:
                    self._table = load_principals(self.path)
                    self._mtime = mtime
        return self._table

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
