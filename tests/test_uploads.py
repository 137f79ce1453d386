"""File upload: ``Tab.act(action, files=[paths])`` against real Chromium, and its policy (BR-4).

The page's own ``input``/``change`` handlers record what they saw, so a test proves
the files reached the page the way a person's choice does; the policy
(:func:`cdpagent.primitives.uploads.allowed_files`) is checked on a temporary tree.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from conftest import PAGES, evaluate

import cdpagent
from cdpagent.errors import OperationError
from cdpagent.primitives.uploads import MAX_FILES, allowed_files, upload_dirs
from cdpagent.snapshot import present

DECLARED = PAGES / "uploads" / "declared.html"
INFERRED = PAGES / "uploads" / "inferred.html"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "cv.txt").write_text("my cv\n")
    (allowed / "photo.png").write_bytes(b"\x89PNG fake")
    (tmp_path / "secret.txt").write_text("not for the page\n")
    return allowed


@pytest.fixture
async def uploader(chrome_endpoint: str, files: Path) -> AsyncIterator[cdpagent.Browser]:
    async with cdpagent.connect(chrome_endpoint, allow_dirs=[files]) as browser:
        try:
            yield browser
        finally:
            for tab in browser.tabs:
                await tab.close()


async def _seen(tab: cdpagent.Tab) -> list[str]:
    seen: list[str] | None = await evaluate(tab, "window.__seen || []")
    assert seen is not None
    return seen


async def test_a_native_file_input_gets_the_file_and_its_handlers_run(
    uploader: cdpagent.Browser, files: Path
) -> None:
    tab = await uploader.open(DECLARED)
    observation = await tab.observe()
    entry = next(e for e in observation.actions if e.tool == "attach_cv")
    assert entry.kind == "upload" and entry.input is not None and not entry.input.multiple
    receipt = await tab.act("attach_cv", files=[str(files / "cv.txt")])
    assert receipt.ok, receipt
    assert receipt.result.state == "attached 1 file: cv.txt"
    assert await _seen(tab) == ["input:cv:cv.txt (6 bytes)", "change:cv:cv.txt (6 bytes)"]
    # The receipt's diff shows what the page's handler changed.
    assert receipt.result.changed is not None
    assert receipt.result.changed.state["attached"].after == "cv: cv.txt (6 bytes)"


async def test_several_files_only_into_a_multiple_input(uploader: cdpagent.Browser, files: Path) -> None:
    tab = await uploader.open(DECLARED)
    both = [str(files / "cv.txt"), str(files / "photo.png")]
    refused = await tab.act("attach_cv", files=both)
    assert refused.code == "INVALID_ARGUMENT" and "takes one file" in refused.result.error.message  # type: ignore[union-attr]
    assert await _seen(tab) == []
    receipt = await tab.act("attach_documents", files=both)
    assert receipt.ok and receipt.result.state == "attached 2 files: cv.txt, photo.png"
    assert (await _seen(tab))[-1] == "change:docs:cv.txt (6 bytes), photo.png (9 bytes)"


async def test_a_styled_button_uploads_into_the_hidden_input_it_opens(
    uploader: cdpagent.Browser, files: Path
) -> None:
    tab = await uploader.open(DECLARED)
    observation = await tab.observe()
    assert next(e for e in observation.actions if e.tool == "attach_photo").kind == "click"
    receipt = await tab.act("attach_photo", files=[str(files / "photo.png")])
    assert receipt.ok, receipt
    assert await _seen(tab) == ["input:photo:photo.png (9 bytes)", "change:photo:photo.png (9 bytes)"]


async def test_files_outside_the_allowed_directories_are_refused_before_the_page_sees_them(
    uploader: cdpagent.Browser, files: Path, chrome_endpoint: str
) -> None:
    tab = await uploader.open(DECLARED)
    link = files / "link.txt"
    link.symlink_to(files.parent / "secret.txt")
    for path in (files.parent / "secret.txt", link, files / ".." / "secret.txt", files, files / "none.txt"):
        receipt = await tab.act("attach_cv", files=[str(path)])
        assert receipt.code == "FILE_NOT_ALLOWED", (path, receipt)
    assert await _seen(tab) == []
    # A browser given no directory refuses every upload and says how to allow one.
    async with cdpagent.connect(chrome_endpoint) as plain:
        other = await plain.open(DECLARED)
        try:
            receipt = await other.act("attach_cv", files=[str(files / "cv.txt")])
            assert receipt.code == "FILE_NOT_ALLOWED"
            assert "allow_dirs" in receipt.result.error.message  # type: ignore[union-attr]
            assert "--allow-dir" in receipt.result.error.message  # type: ignore[union-attr]
            assert await _seen(other) == []
        finally:
            await other.close()


async def test_an_inferred_file_input_is_offered_as_an_upload_that_takes_files(
    uploader: cdpagent.Browser, files: Path
) -> None:
    tab = await uploader.open(INFERRED)
    observation = await tab.observe()
    text, tools = present(observation)
    kinds = {e.tool: e.kind for e in observation.actions}
    # The résumé's input is hidden behind its styled label: still offered, by the label's name.
    assert kinds == {"cover_letter": "upload", "upload_resume": "upload"}
    assert "- upload_resume (upload / " in text
    schema = next(t["function"]["parameters"] for t in tools if t["function"]["name"] == "upload_resume")
    assert schema["required"] == ["files"]
    assert schema["properties"]["files"]["type"] == "array" and schema["properties"]["files"]["maxItems"] == 1
    receipt = await tab.act("upload_resume", files=[str(files / "cv.txt")])
    assert receipt.ok, receipt
    assert receipt.result.changed is not None and receipt.result.changed.feedback is not None
    assert [n.message for n in receipt.result.changed.feedback.gained] == ["resume: cv.txt attached"]
    # Other kinds take no files.
    refused = await tab.act("cover_letter", text="hello")
    assert refused.code == "INVALID_ARGUMENT"


def test_the_policy_resolves_links_and_refuses_everything_else(tmp_path: Path, files: Path) -> None:
    dirs = upload_dirs([files])
    assert allowed_files([str(files / "cv.txt")], dirs) == [os.path.realpath(files / "cv.txt")]
    inner = files / "inner.txt"
    inner.symlink_to(files / "cv.txt")  # a link that stays inside is the file it names
    assert allowed_files([str(inner)], dirs) == [os.path.realpath(files / "cv.txt")]
    # A sibling directory whose name starts like the allowed one is not inside it.
    twin = tmp_path / "allowed-twin"
    twin.mkdir()
    (twin / "x.txt").write_text("x")
    cases = {
        str(twin / "x.txt"): "FILE_NOT_ALLOWED",
        str(files): "FILE_NOT_ALLOWED",
        str(files / "missing.txt"): "FILE_NOT_ALLOWED",
        "": "INVALID_ARGUMENT",
    }
    for path, code in cases.items():
        with pytest.raises(OperationError) as error:
            allowed_files([path], dirs)
        assert error.value.code == code, path
    # Outside every allowed directory, whether the file exists is never said.
    with pytest.raises(OperationError) as outside:
        allowed_files([str(tmp_path / "nothing-here.txt")], dirs)
    assert "no such file" not in outside.value.message
    for paths in ([], [str(files / "cv.txt")] * (MAX_FILES + 1)):
        with pytest.raises(OperationError) as error:
            allowed_files(paths, dirs)
        assert error.value.code == "INVALID_ARGUMENT"
    with pytest.raises(OperationError) as error:
        allowed_files([str(files / "cv.txt")], ())
    assert error.value.code == "FILE_NOT_ALLOWED" and "--allow-dir" in error.value.message


async def test_the_mcp_act_tool_uploads_only_from_the_servers_allowed_directories(
    chrome_endpoint: str, files: Path
) -> None:
    from mcp.client.client import Client
    from mcp_support import call_error, call_ok, receipt_of

    from cdpagent.mcp_server.server import SurfaceConfig, open_server

    config = SurfaceConfig(connect=chrome_endpoint, allow_dirs=(str(files), str(PAGES)))
    async with open_server(config) as server, Client(server) as client:
        tab = (await call_ok(client, "open_page", {"url": str(DECLARED)}))["tabId"]
        try:
            args = {"tabId": tab, "action": "attach_cv"}
            refused = await call_error(client, "act", {**args, "files": [str(files.parent / "secret.txt")]})
            assert refused["code"] == "FILE_NOT_ALLOWED"
            done = receipt_of(await call_ok(client, "act", {**args, "files": [str(files / "cv.txt")]}))
            assert done["ok"] and done["state"] == "attached 1 file: cv.txt"
        finally:
            await call_ok(client, "close_page", {"tabId": tab})
