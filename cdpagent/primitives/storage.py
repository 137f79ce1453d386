"""Staying logged in: cookies and local storage in Playwright's ``storageState`` format (SPEC BR-6).

The format is Playwright's own, so a file written by
``context.storage_state(path=…)`` loads here and a file written here loads there::

    {"cookies": [{"name", "value", "domain", "path", "expires", "httpOnly",
                  "secure", "sameSite"}],
     "origins": [{"origin": "https://…", "localStorage": [{"name", "value"}]}]}

Reading takes every cookie of the browser and the local storage of the origins
its open tabs show (``http:``/``https:`` main frames; a frame's or a closed tab's
storage is not read). Loading sets the cookies, then writes each origin's local
storage from a blank page of that origin served by the runtime itself — the way
Playwright does it. Nothing reaches the network: every origin is first brought to the
browser's own form (:func:`cdpagent.primitives.origins.web_origin`; one that is no
``scheme://host[:port]`` is refused with ``STORAGE_STATE_INVALID`` naming it), and
while the state loads, *every* request of its tab is intercepted: the blank page's own
is answered, any other (a favicon, a redirect) is failed. A file that is not such a
document is refused with ``STORAGE_STATE_INVALID``, naming the file and the first
offending field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Final, Literal, Protocol

import msgspec
import trio

from ..cdp.target import Target
from ..cdp.world import enter
from ..errors import CDPAgentError, OperationError
from .origins import web_origin

__all__ = ["Cookie", "OriginState", "StorageItem", "StorageState", "load_storage_state",
           "read_storage_state", "storage_state"]

SameSite = Literal["Strict", "Lax", "None"]
#: How long reading one tab's local storage may take before it is left out.
TAB_READ_TIMEOUT: Final = 5.0


class Cookie(msgspec.Struct, rename="camel", frozen=True):
    """One cookie, as Playwright writes it (``expires`` -1: a session cookie)."""

    name: str
    value: str
    domain: str
    path: str = "/"
    expires: float = -1
    http_only: bool = False
    secure: bool = False
    same_site: SameSite = "Lax"


class StorageItem(msgspec.Struct, frozen=True):
    """One local-storage entry."""

    name: str
    value: str


class OriginState(msgspec.Struct, rename="camel", frozen=True):
    """The local storage of one origin."""

    origin: str
    local_storage: list[StorageItem] = []


class StorageState(msgspec.Struct, frozen=True):
    """A browser's cookies and its origins' local storage (Playwright's ``storageState``)."""

    cookies: list[Cookie] = []
    origins: list[OriginState] = []


class _Browser(Protocol):
    """What this module needs of :class:`cdpagent.Browser`."""

    @property
    def tabs(self) -> Sequence[Target]: ...

    async def send(self, method: str, params: Any = None) -> Any: ...

    async def open(self, url_or_path: str = "about:blank", *, timeout: float = 30.0) -> Any: ...

    def start_soon(self, async_fn: Callable[..., Awaitable[Any]], *args: Any) -> None: ...


def read_storage_state(path: str | os.PathLike[str]) -> StorageState:
    """The :class:`StorageState` in the file at ``path``.

    Raises :class:`OperationError` ``STORAGE_STATE_INVALID`` when the file cannot
    be read or is not a storage-state document (the message names the file and why).
    """
    try:
        data = Path(path).read_bytes()
        return msgspec.json.decode(data, type=StorageState)
    except OSError as exc:
        raise OperationError("STORAGE_STATE_INVALID", f"cannot read {path}: {exc.strerror}") from None
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise OperationError("STORAGE_STATE_INVALID", f"{path} is not a storage state: {exc}") from None


def _cookie_of(raw: dict[str, Any]) -> Cookie:
    same_site = raw.get("sameSite")
    return Cookie(
        name=str(raw["name"]),
        value=str(raw["value"]),
        domain=str(raw["domain"]),
        path=str(raw.get("path", "/")),
        expires=-1 if raw.get("session") else float(raw.get("expires", -1)),
        http_only=bool(raw.get("httpOnly")),
        secure=bool(raw.get("secure")),
        same_site=same_site if same_site in ("Strict", "Lax", "None") else "Lax",
    )


_READ = "JSON.stringify([location.origin, Object.entries(localStorage)])"


async def _local_storage(tab: Target) -> OriginState | None:
    doc = tab.document
    if doc is None or not doc.url.startswith(("http://", "https://")):
        return None
    with trio.move_on_after(TAB_READ_TIMEOUT):
        try:
            ctx, _ = await enter(tab, TAB_READ_TIMEOUT)
            answer = await tab.session.send(
                "Runtime.evaluate", {"expression": _READ, "contextId": ctx, "returnByValue": True}
            )
        except CDPAgentError:
            return None
        value = answer.get("result", {}).get("value")
        if not isinstance(value, str):
            return None
        origin, entries = json.loads(value)
        return OriginState(str(origin), [StorageItem(str(k), str(v)) for k, v in entries])
    return None


async def storage_state(browser: _Browser, path: str | os.PathLike[str] | None = None) -> StorageState:
    """The browser's cookies and its open tabs' local storage; written to ``path`` when given.

    Raises :class:`OperationError` ``STORAGE_STATE_INVALID`` when ``path`` cannot be
    written, and the driver's errors when the browser is gone.
    """
    raw = await browser.send("Storage.getCookies")
    cookies = [_cookie_of(c) for c in raw.get("cookies", [])]
    origins: dict[str, OriginState] = {}
    for tab in list(browser.tabs):
        found = await _local_storage(tab)
        if found is not None and found.origin not in origins:
            origins[found.origin] = found
    state = StorageState(cookies, list(origins.values()))
    if path is not None:
        try:
            await trio.Path(path).write_bytes(msgspec.json.format(msgspec.json.encode(state), indent=2))
        except OSError as exc:
            raise OperationError("STORAGE_STATE_INVALID", f"cannot write {path}: {exc.strerror}") from None
    return state


def _cookie_param(cookie: Cookie) -> dict[str, Any]:
    param: dict[str, Any] = {
        "name": cookie.name, "value": cookie.value, "domain": cookie.domain, "path": cookie.path,
        "httpOnly": cookie.http_only, "secure": cookie.secure, "sameSite": cookie.same_site,
    }
    if cookie.expires >= 0:
        param["expires"] = cookie.expires
    return param


#: base64 of ``<!doctype html><link rel="icon" href="data:,"><title></title>``: the icon link keeps the
#: browser from fetching ``/favicon.ico`` itself, a request no tab's interception sees.
_BLANK = "PCFkb2N0eXBlIGh0bWw+PGxpbmsgcmVsPSJpY29uIiBocmVmPSJkYXRhOiwiPjx0aXRsZT48L3RpdGxlPg=="


async def load_storage_state(browser: _Browser, state: StorageState, *, timeout: float = 30.0) -> None:
    """Give ``browser`` the cookies and local storage of ``state`` (see the module docstring).

    Origins that are not ``http:``/``https:`` are skipped (their storage has no
    origin a page could load from). Raises :class:`OperationError`
    ``STORAGE_STATE_INVALID`` when an origin is not ``scheme://host[:port]`` (before
    anything is loaded) or the browser refuses a cookie, and ``TIMEOUT``.
    """
    try:
        with trio.fail_after(timeout):
            await _load(browser, state)
    except trio.TooSlowError:
        raise OperationError("TIMEOUT", f"loading the storage state took longer than {timeout:g} s") from None


async def _load(browser: _Browser, state: StorageState) -> None:
    if state.cookies:
        try:
            await browser.send("Storage.setCookies", {"cookies": [_cookie_param(c) for c in state.cookies]})
        except CDPAgentError as exc:
            raise OperationError("STORAGE_STATE_INVALID", f"the browser refused a cookie: {exc}") from None
    web: list[tuple[str, OriginState]] = []
    for entry in state.origins:
        if not entry.origin.lower().startswith(("http://", "https://")) or not entry.local_storage:
            continue
        try:
            web.append((web_origin(entry.origin), entry))
        except ValueError as why:
            raise OperationError("STORAGE_STATE_INVALID", f"the origin {entry.origin!r}: {why}") from None
    if not web:
        return
    tab = await browser.open("about:blank")
    try:
        session = tab.session
        expected: set[str] = set()

        async def answer(params: dict[str, Any]) -> None:
            request_id = str(params["requestId"])
            url = str((params.get("request") or {}).get("url", ""))
            try:
                if url in expected:
                    await session.send(
                        "Fetch.fulfillRequest",
                        {"requestId": request_id, "responseCode": 200, "body": _BLANK,
                         "responseHeaders": [{"name": "Content-Type", "value": "text/html"}]},
                    )
                else:  # anything else the blank page or the browser asks for stays here too
                    refused = {"requestId": request_id, "errorReason": "BlockedByClient"}
                    await session.send("Fetch.failRequest", refused)
            except CDPAgentError:
                pass

        off = session.on("Fetch.requestPaused", lambda p: browser.start_soon(answer, p))
        try:
            await session.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})
            for origin, entry in web:
                expected.add(f"{origin}/")
                await tab.navigate(f"{origin}/")
                items = json.dumps([[i.name, i.value] for i in entry.local_storage])
                await session.send(
                    "Runtime.evaluate",
                    {"expression": f"for (const [k, v] of {items}) localStorage.setItem(k, v); true"},
                )
            await session.send("Fetch.disable")
        finally:
            off()
    finally:
        with trio.CancelScope(shield=True):
            await tab.close()
