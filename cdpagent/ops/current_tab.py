"""The operations run on a current tab: one runner per operation for the surfaces that have one.

The ``script`` steps and the agent's tools address the *current* tab (the MCP
server names a tab in every call instead); this module runs the operations of
:mod:`cdpagent.ops.operations` there once, so both surfaces give the same results:

* ``open`` opens a tab (of the thread, when there is one) that becomes current;
  ``close`` closes the current one (the newest left becomes current); ``list``
  lists the tabs with each popup's ``opener``; ``select`` makes ``tabId`` current.
* ``navigate`` / ``back`` / ``forward`` / ``reload`` answer ``{tabId, url,
  changed}``, ``changed`` being :func:`cdpagent.ops.operations.moved`'s line (plus
  what the page opened meanwhile).
* ``screenshot`` and ``pdf`` answer their facts; the bytes travel beside the
  JSON (:attr:`Outcome.image`, :attr:`Outcome.document`) for the surface to
  deliver (a script line carries them base64, the agent sends an image part).
* ``wait_for`` answers once the observation holds; ``console``, ``network`` and
  ``downloads`` list what their buffers hold; ``click_at`` / ``type_at`` answer
  the change receipt; ``notifications`` drains the thread's queue.

Where a model chooses the URL (the agent), :attr:`Current.policy` holds the
:class:`~cdpagent.primitives.urlpolicy.UrlPolicy`: ``open`` and ``navigate`` refuse a URL it
does not allow before loading it, and every navigation checks the URL the tab
ends on (a redirect, a link, a script), blanking the tab when it is refused
(``URL_NOT_ALLOWED`` / ``FILE_NOT_ALLOWED``). A script's steps are the user's
own: no policy.

Each runner takes the decoded argument Struct and raises what the Python API
raises (:class:`~cdpagent.errors.OperationError` with its code,
:class:`~cdpagent.errors.NavigationError` …); ``select`` of an unknown tab is
``OperationError("TAB_NOT_FOUND")``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

import msgspec
import trio

from ..browser.tabs import Tab, to_url
from ..cdp.failures import TAB_NOT_FOUND
from ..errors import CDPAgentError, OperationError, TabRefused
from ..primitives.capture import Screenshot
from ..primitives.urlpolicy import UrlPolicy
from ..runtime.threads import Thread
from .operations import (
    BackArgs,
    ClickAtArgs,
    CloseArgs,
    ConsoleArgs,
    DownloadsArgs,
    ForwardArgs,
    ListArgs,
    NavigateArgs,
    NetworkArgs,
    NotificationsArgs,
    OpenArgs,
    OperationArgs,
    PdfArgs,
    ReloadArgs,
    ScreenshotArgs,
    TypeAtArgs,
    WaitForArgs,
    moved,
    screenshot_summary,
)

__all__ = ["RUNNERS", "SERVED", "Current", "Outcome", "arrived", "keep_within", "run"]


class Current(Protocol):
    """What a runner works on: the current tab (which it may change) and the thread owning the tabs."""

    tab: Tab
    thread: Thread[Tab] | None
    policy: UrlPolicy | None
    """What the tabs may show when a model chooses where they go (None: anything, as for a script)."""


class Outcome(msgspec.Struct, frozen=True):
    """A runner's answer: its JSON ``value`` and the bytes that travel beside it, if any."""

    value: dict[str, Any]
    image: Screenshot | None = None
    document: bytes | None = None
    """A PDF."""


def _tabs(ctx: Current) -> list[Tab]:
    return ctx.thread.tabs if ctx.thread is not None else ctx.tab.browser.tabs


#: How long blanking a refused tab may take.
_BLANK_TIMEOUT: Final = 10.0


async def keep_within(policy: UrlPolicy | None, tab: Tab) -> None:
    """Refuse a tab that went where ``policy`` does not allow (a redirect, a link, a script).

    The tab is blanked (``about:blank``) first, so nothing of that page can be observed
    or operated on; raises :class:`~cdpagent.errors.TabRefused` with the policy's code
    (``URL_NOT_ALLOWED`` / ``FILE_NOT_ALLOWED``).
    """
    url = tab.document.url if tab.document is not None else ""
    refused = policy.refusal(url) if policy is not None else None
    if refused is None:
        return
    with trio.move_on_after(_BLANK_TIMEOUT):
        try:
            await tab.navigate("about:blank", timeout=_BLANK_TIMEOUT)
        except CDPAgentError:
            pass  # the refusal stands whatever the blank page does
    code, message = refused
    raise TabRefused(code, f"the tab went where it may not ({message}); it shows about:blank now")


async def _open(ctx: Current, args: OpenArgs) -> Outcome:
    if ctx.policy is not None:
        ctx.policy.check(to_url(args.url))
    opener = ctx.thread.open if ctx.thread is not None else ctx.tab.browser.open
    ctx.tab = await opener(args.url, timeout=args.timeout)
    await keep_within(ctx.policy, ctx.tab)
    document = ctx.tab.document
    return Outcome({"tabId": ctx.tab.id, "url": document.url if document else args.url})


async def _close(ctx: Current, args: CloseArgs) -> Outcome:
    closed = ctx.tab.id
    await ctx.tab.close()
    others = _tabs(ctx)
    if others:
        ctx.tab = others[-1]  # the newest tab left becomes current
    return Outcome({"closed": closed})


async def _list(ctx: Current, args: ListArgs) -> Outcome:
    pages = []
    for tab in _tabs(ctx):
        page = {"tabId": tab.id, "url": tab.document.url if tab.document else ""}
        if tab.opener is not None:
            page["opener"] = tab.opener.id
        pages.append(page)
    return Outcome({"pages": pages, "current": ctx.tab.id})


async def _select(ctx: Current, tab_id: str) -> Outcome:
    tab = next((t for t in _tabs(ctx) if t.id == tab_id), None)
    if tab is None:
        known = ", ".join(t.id for t in _tabs(ctx)) or "none"
        raise OperationError(TAB_NOT_FOUND, f"no open tab {tab_id[:60]!r} (open: {known})")
    ctx.tab = tab
    return Outcome({"tabId": tab.id, "url": tab.document.url if tab.document else ""})


async def arrived(policy: UrlPolicy | None, tab: Tab, verb: str, before: str, url: str) -> dict[str, Any]:
    """``{tabId, url, changed}`` once ``tab`` went from ``before`` to ``url`` (``verb``: "navigated" …).

    ``changed`` is :func:`cdpagent.ops.operations.moved`'s line plus what the runtime did
    meanwhile (a page it opened, a dialog it accepted). Raises what :func:`keep_within`
    raises when the tab ended where ``policy`` does not allow.
    """
    await keep_within(policy, tab)
    changed = "; ".join([moved(verb, before, url), *tab.take_notices()])
    return {"tabId": tab.id, "url": url, "changed": changed}


async def _moved(ctx: Current, verb: str, go: Awaitable[Any]) -> Outcome:
    before = ctx.tab.document.url if ctx.tab.document is not None else ""
    document = await go
    return Outcome(await arrived(ctx.policy, ctx.tab, verb, before, document.url))


async def _navigate(ctx: Current, args: NavigateArgs) -> Outcome:
    if ctx.policy is not None:
        ctx.policy.check(to_url(args.url))
    return await _moved(ctx, "navigated", ctx.tab.navigate(args.url, timeout=args.timeout))


async def _back(ctx: Current, args: BackArgs) -> Outcome:
    return await _moved(ctx, "went back", ctx.tab.back(timeout=args.timeout))


async def _forward(ctx: Current, args: ForwardArgs) -> Outcome:
    return await _moved(ctx, "went forward", ctx.tab.forward(timeout=args.timeout))


async def _reload(ctx: Current, args: ReloadArgs) -> Outcome:
    return await _moved(ctx, "reloaded", ctx.tab.reload(timeout=args.timeout))


async def _screenshot(ctx: Current, args: ScreenshotArgs) -> Outcome:
    shot = await ctx.tab.screenshot(
        full_page=args.full_page, target=args.target, format=args.format, quality=args.quality,
        max_edge=args.max_edge,
    )  # fmt: skip
    facts = {
        "format": shot.format, "width": shot.width, "height": shot.height, "bytes": len(shot.data),
        "masked": shot.masked, "truncated": shot.truncated, "summary": screenshot_summary(ctx.tab.id, shot),
    }  # fmt: skip
    return Outcome(facts, image=shot)


async def _pdf(ctx: Current, args: PdfArgs) -> Outcome:
    data = await ctx.tab.pdf(landscape=args.landscape)
    return Outcome({"bytes": len(data)}, document=data)


async def _wait_for(ctx: Current, args: WaitForArgs) -> Outcome:
    await ctx.tab.wait_for(text=args.text, gone=args.gone, action=args.action, timeout=args.timeout)
    held = {k: v for k, v in (("text", args.text), ("gone", args.gone), ("action", args.action)) if v}
    return Outcome({"tabId": ctx.tab.id, "holds": held})


async def _console(ctx: Current, args: ConsoleArgs) -> Outcome:
    return Outcome({"messages": msgspec.to_builtins(ctx.tab.console(args.limit))})


async def _network(ctx: Current, args: NetworkArgs) -> Outcome:
    return Outcome({"requests": msgspec.to_builtins(ctx.tab.network(args.limit))})


async def _downloads(ctx: Current, args: DownloadsArgs) -> Outcome:
    items = ctx.tab.browser.downloaded(args.limit)
    fields = ("name", "state", "size", "path", "tab")
    return Outcome({"downloads": [{k: getattr(d, k) for k in fields} for d in items]})


async def _click_at(ctx: Current, args: ClickAtArgs) -> Outcome:
    receipt = await ctx.tab.click_at(args.x, args.y)
    return Outcome({"receipt": receipt.to_builtins()})


async def _type_at(ctx: Current, args: TypeAtArgs) -> Outcome:
    receipt = await ctx.tab.type_at(args.x, args.y, args.text)
    return Outcome({"receipt": receipt.to_builtins()})


async def _notifications(ctx: Current, args: NotificationsArgs) -> Outcome:
    notes = await ctx.thread.notifications(args.wait_ms) if ctx.thread is not None else []
    return Outcome(
        {
            "notifications": [
                # refused: the runtime's own notice of refused posts; 0 for what a page wrote.
                {"tabId": n.tab_id, "message": n.message, "deliveryId": n.delivery_id, "url": n.url,
                 "refused": n.refused}
                for n in notes
            ]
        }
    )  # fmt: skip


Runner = Callable[[Current, Any], Awaitable[Outcome]]

#: The runner of each operation served on a current tab (``select`` is :func:`run`'s, it takes ``tabId``).
RUNNERS: Final[dict[str, Runner]] = {
    "open": _open,
    "close": _close,
    "list": _list,
    "navigate": _navigate,
    "back": _back,
    "forward": _forward,
    "reload": _reload,
    "screenshot": _screenshot,
    "pdf": _pdf,
    "wait_for": _wait_for,
    "console": _console,
    "network": _network,
    "downloads": _downloads,
    "click_at": _click_at,
    "type_at": _type_at,
    "notifications": _notifications,
}

#: The operations :func:`run` serves.
SERVED: Final = frozenset({*RUNNERS, "select"})


async def run(ctx: Current, name: str, args: OperationArgs, tab_id: str | None = None) -> Outcome:
    """Run operation ``name`` with its decoded ``args`` on ``ctx`` (``tab_id``: ``select``'s tab).

    Raises :class:`KeyError` for an operation not in :data:`SERVED`, and what the operation raises.
    """
    if name == "select":
        return await _select(ctx, tab_id or "")
    return await RUNNERS[name](ctx, args)
