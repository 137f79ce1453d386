"""The upload performer: ``files`` into the file input an action stands for (SPEC BR-4).

The paths are first put to the browser's upload policy (:class:`Hooks.uploads
<cdpagent.act.roundtrip.Hooks>`): a path it refuses never reaches the page. The input
is the element itself, a label's control or the one file input inside it, and takes
the files by ``DOM.setFileInputFiles`` (the page's ``input``/``change`` handlers run).
Otherwise the control is clicked with the file chooser intercepted, as a styled button
that opens a hidden input is, and the input the chooser names takes them.
"""

from __future__ import annotations

import os
from contextlib import suppress
from typing import Any, Final, NoReturn

import msgspec
import trio

from ..cdp.world import PageFunction, call_function
from ..errors import ActRefused, CDPAgentError, OperationError, PageFunctionError
from ..snapshot import codes
from .step import Step, same_document

__all__ = ["upload"]

#: How long a click that should open a file chooser may take to open it.
_CHOOSER_WAIT: Final = 3.0
_UPLOAD_GROUP: Final = "cdpagent-upload"


class _FileInfo(msgspec.Struct, frozen=True):
    """``fileInfo``: what a file input takes."""

    multiple: bool = False
    disabled: bool = False
    accept: str = ""


async def upload(step: Step) -> str | None:
    """``files``, once the policy allows them, into the action's file input (see the module).

    Refuses the policy's codes (``FILE_NOT_ALLOWED``, ``INVALID_ARGUMENT``), and
    ``INVALID_ARGUMENT`` for several files to a single input.
    """
    try:
        files = step.trip.hooks.uploads.allowed(step.args.files or [])
    except OperationError as error:
        raise ActRefused(error.code, error.message) from None
    session = step.world[0]
    try:
        object_id = await _file_input(step)
        if object_id is not None:
            await _into(step, object_id, files)
        else:
            await _by_chooser(step, files)
    finally:
        with trio.CancelScope(shield=True), suppress(CDPAgentError):
            await session.send("Runtime.releaseObjectGroup", {"objectGroup": _UPLOAD_GROUP})
    names = ", ".join(os.path.basename(f) for f in files)
    step.trip.state = f"attached {len(files)} file{'s' if len(files) != 1 else ''}: {names}"
    return None


async def _file_input(step: Step) -> str | None:
    """The object id of the file input the action stands for (kept in :data:`_UPLOAD_GROUP`), or
    None when only clicking it can tell."""
    session, ctx = step.world
    try:
        found: str | None = await call_function(
            session, PageFunction.FILE_INPUT, step.where, context=ctx, group=_UPLOAD_GROUP
        )
    except PageFunctionError:
        raise ActRefused(
            codes.ACTION_FAILED, f"{step.id}: the acting helper failed to find its file input"
        ) from None
    return found


def _single_refusal(step: Step, files: list[str]) -> NoReturn:
    message = f"{step.entry.tool} takes one file (its input is not multiple), not {len(files)}"
    raise ActRefused(codes.INVALID_ARGUMENT, message)


async def _into(step: Step, object_id: str, files: list[str]) -> None:
    session = step.world[0]
    value = await call_function(session, PageFunction.FILE_INFO, object_id=object_id)
    info = msgspec.convert(value, _FileInfo)
    if info.disabled:
        step.refuse("disabled")
    if len(files) > 1 and not info.multiple:
        _single_refusal(step, files)
    same_document(step.trip)
    step.trip.performed = True
    await session.send("DOM.setFileInputFiles", {"files": files, "objectId": object_id})


async def _by_chooser(step: Step, files: list[str]) -> None:
    session = step.world[0]
    _, at = await step.ready("click")
    chosen: list[dict[str, Any]] = []
    opened = trio.Event()

    def on_chooser(params: dict[str, Any]) -> None:
        chosen.append(params)
        opened.set()

    off = session.on("Page.fileChooserOpened", on_chooser)
    try:
        await session.send("Page.setInterceptFileChooserDialog", {"enabled": True})
        step.trip.performed = True
        await step.click(at)
        with trio.move_on_at(min(trio.current_time() + _CHOOSER_WAIT, step.trip.deadline)):
            await opened.wait()
    finally:
        off()
        with trio.CancelScope(shield=True), suppress(CDPAgentError):
            await session.send("Page.setInterceptFileChooserDialog", {"enabled": False})
    if not chosen:
        raise ActRefused(
            codes.ACTION_FAILED, f"{step.id} is no file input, and clicking it opened no file chooser"
        )
    node = chosen[0].get("backendNodeId")
    if node is None:
        raise ActRefused(codes.ACTION_FAILED, f"clicking {step.id} opened a file chooser of no file input")
    if len(files) > 1 and chosen[0].get("mode") != "selectMultiple":
        _single_refusal(step, files)
    await session.send("DOM.setFileInputFiles", {"files": files, "backendNodeId": node})
