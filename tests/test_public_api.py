"""SF-1: the public namespace is deliberate; this test guards it."""

from __future__ import annotations

import importlib
import inspect

import pytest

import cdpagent
import cdpagent.codes
import cdpagent.errors
import cdpagent.lowlevel

EXPECTED = {
    "BindRefused",
    "ConsoleMessage",
    "Download",
    "FailedRequest",
    "OperationError",
    "Screenshot",
    "StorageState",
    "Browser",
    "BrowserNotFound",
    "CDPAgentError",
    "CallTimeout",
    "CodedError",
    "FrameError",
    "ModelError",
    "RoleError",
    "RunDirError",
    "StepError",
    "ToolCallError",
    "UserInputError",
    "Command",
    "ConnectionClosed",
    "Extension",
    "GridCapabilitiesRefused",
    "GridError",
    "GridNoFreeSlot",
    "GridNotAHub",
    "GridSession",
    "GridUnreachable",
    "HttpFailure",
    "LaunchError",
    "NavigationError",
    "Notification",
    "Observation",
    "ObservationError",
    "ObserveOptions",
    "ObserveResult",
    "PageApi",
    "PageApiError",
    "PageFunctionError",
    "Pool",
    "ProtocolError",
    "Receipt",
    "SessionClosed",
    "SubscriptionOverflow",
    "TabRefused",
    "Target",
    "TargetCrashed",
    "TaskFileError",
    "Tab",
    "Thread",
    "connect",
    "connect_grid",
    "grid_session",
    "invoke_page_method",
    "launch",
    "standard_extensions",
}


LOWLEVEL = {
    "Command",
    "Connection",
    "Extension",
    "FrameTarget",
    "Host",
    "PipeTransport",
    "Session",
    "Subscription",
    "Target",
    "Transport",
    "WebSocketTransport",
    "call_function",
}

#: Every public namespace and exactly the names it exports.
NAMESPACES = {"cdpagent": EXPECTED, "cdpagent.lowlevel": LOWLEVEL}


@pytest.mark.parametrize("namespace", sorted(NAMESPACES))
def test_sf1_exported_names_are_exactly_the_public_api(namespace: str) -> None:
    module = importlib.import_module(namespace)
    assert set(module.__all__) == NAMESPACES[namespace]
    for name in module.__all__:
        assert hasattr(module, name), name


def test_sf1_the_codes_namespace_names_every_code_with_its_meaning() -> None:
    codes = cdpagent.codes
    names = [n for n in codes.__all__ if n not in ("FAILURES", "MEANINGS")]
    assert all(getattr(codes, n) == n for n in names)
    assert set(codes.MEANINGS) == set(names)
    assert all(codes.MEANINGS[n].strip() for n in names)
    # Every failure code of the one failure table is a code of the namespace.
    assert {row.code for row in codes.FAILURES} | {row.invoke for row in codes.FAILURES} <= set(names)


def test_sf1_every_public_exception_class_lives_in_errors_with_a_code_where_it_has_one() -> None:
    classes = {
        name: obj
        for name in cdpagent.__all__
        if inspect.isclass(obj := getattr(cdpagent, name)) and issubclass(obj, BaseException)
    }
    assert set(classes) == set(cdpagent.errors.__all__)
    for name, cls in classes.items():
        assert cls.__module__ == "cdpagent.errors", name
        assert issubclass(cls, cdpagent.CDPAgentError), name
    fixed = [str(getattr(cls, "CODE", "")) for cls in classes.values()]
    assert all(code in cdpagent.codes.MEANINGS for code in fixed if code)


@pytest.mark.parametrize("namespace", ["cdpagent", "cdpagent.lowlevel", "cdpagent.codes"])
def test_sf1_every_public_function_and_method_is_documented(namespace: str) -> None:
    module = importlib.import_module(namespace)
    assert (module.__doc__ or "").strip()
    missing = []
    for name in module.__all__:
        obj = getattr(module, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        if not (inspect.getdoc(obj) or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") or not callable(member):
                    continue
                if not (inspect.getdoc(member) or "").strip():
                    missing.append(f"{name}.{attr}")
    assert missing == []


def test_sf1_tab_has_the_documented_surface() -> None:
    for method in ("invoke", "observe", "act", "navigate", "reload", "close", "wait_loaded"):
        assert inspect.iscoroutinefunction(getattr(cdpagent.Tab, method)), method


def test_sf1_no_module_but_errors_defines_an_exception_class() -> None:
    """Every exception class the package defines lives in ``cdpagent.errors``; only a module's
    private control flow (an ``_Underscored`` class that never leaves it) is defined beside its use."""
    import pkgutil

    elsewhere = []
    for info in pkgutil.walk_packages(cdpagent.__path__, "cdpagent."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        if info.name == "cdpagent.errors":
            continue
        for name, obj in vars(module).items():
            defined = inspect.isclass(obj) and obj.__module__ == info.name
            if defined and issubclass(obj, BaseException) and not name.startswith("_"):
                elsewhere.append(f"{info.name}.{name}")
    assert elsewhere == []
