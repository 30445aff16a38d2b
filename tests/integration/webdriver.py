"""A small W3C WebDriver client (httpx) for Debian's headless Chromium and chromedriver.

Only what the Browser test needs: open a page, find elements, type, click, run a script, take a
screenshot. Chromium runs with a fresh profile and without its background connections (this
machine's network is closed and refuses them).
"""

from __future__ import annotations

import base64
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.fakes import free_port

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
CHROMIUM_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1600,1000",
)


# the errors of an element that is there but not ready for input yet
NOT_READY = frozenset({"element not interactable", "stale element reference"})


class WebDriverError(RuntimeError):
    """A WebDriver command answered with an error (``code``: the W3C error code)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def binaries() -> tuple[str, str] | None:
    chromium = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


class Session:
    def __init__(self, base: str, session_id: str) -> None:
        self.url = f"{base}/session/{session_id}"
        self.http = httpx.Client(timeout=60)

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.http.request(method, self.url + path, json=body)
        payload = response.json()
        if response.status_code >= 400:
            value = payload.get("value") or {}
            raise WebDriverError(f"webdriver {path}: {value}", value.get("error", ""))
        return payload.get("value")

    def open(self, url: str) -> None:
        self._call("POST", "/url", {"url": url})

    def run(self, script: str, *args: Any) -> Any:
        return self._call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css: str) -> str:
        found = self._call("POST", "/element", {"using": "css selector", "value": css})
        return str(found[ELEMENT])

    def type(self, css: str, text: str, timeout: float = 30) -> None:
        """Type into the element ``css`` selects, once it takes input: a page may draw a field
        before it is interactable, or draw it again (a CI run failed with 'element not
        interactable' on a field that was shown and enabled). Only those two errors wait."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                element = self.find(css)
                self._call("POST", f"/element/{element}/clear", {})
                self._call("POST", f"/element/{element}/value", {"text": text})
                return
            except WebDriverError as error:
                if error.code not in NOT_READY or time.monotonic() > deadline:
                    raise
            time.sleep(0.25)

    def click(self, css: str) -> None:
        self._call("POST", f"/element/{self.find(css)}/click", {})

    def wait_for(self, script: str, *args: Any, timeout: float = 30) -> Any:
        """Poll ``script`` until it returns something truthy; return that."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.run(script, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout:.0f} s for: {script[:120]}")
            time.sleep(0.25)

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self._call("GET", "/screenshot")))


@contextmanager
def chromium(profile: Path) -> Iterator[Session]:
    """A headless Chromium session driven through chromedriver on a free loopback port."""
    found = binaries()
    if found is None:
        raise RuntimeError("chromium and chromedriver are needed (Debian: apt-get install ...)")
    chromium_binary, driver_binary = found
    port = free_port()
    driver = subprocess.Popen(
        [driver_binary, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, driver)
        options = {
            "binary": chromium_binary,
            "args": [*CHROMIUM_ARGS, f"--user-data-dir={profile}"],
        }
        capabilities = {"browserName": "chrome", "goog:chromeOptions": options}
        created = httpx.post(
            f"{base}/session", json={"capabilities": {"alwaysMatch": capabilities}}, timeout=90
        ).json()["value"]
        session = Session(base, created["sessionId"])
        try:
            yield session
        finally:
            httpx.delete(session.url, timeout=30)
    finally:
        driver.terminate()
        driver.wait(timeout=10)


def _wait_ready(base: str, driver: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while True:
        if driver.poll() is not None:
            raise RuntimeError("chromedriver exited")
        try:
            if httpx.get(f"{base}/status", timeout=2).json()["value"]["ready"]:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("chromedriver did not become ready")
        time.sleep(0.1)
