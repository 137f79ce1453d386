"""SF-1: the public namespace is deliberate; this test guards it."""

from __future__ import annotations

import inspect

import cdpagent

EXPECTED = {
    "ConsoleMessage",
    "Download",
    "FailedRequest",
    "OperationError",
    "Screenshot",
    "StorageState",
    "Browser",
    "BrowserNotFound",
    "CDPAgentError",
    "Command",
    "ConnectionClosed",
    "Extension",
    "GridCapabilitiesRefused",
    "GridError",
    "GridNoFreeSlot",
    "GridNotAHub",
    "GridUnreachable",
    "LaunchError",
    "NavigationError",
    "Notification",
    "Observation",
    "ObservationError",
    "ObserveOptions",
    "PageApi",
    "PageApiError",
    "Pool",
    "ProtocolError",
    "Receipt",
    "SessionClosed",
    "SubscriptionOverflow",
    "Target",
    "TargetCrashed",
    "Tab",
    "Thread",
    "connect",
    "connect_grid",
    "invoke_page_method",
    "launch",
    "standard_extensions",
}


def test_sf1_exported_names_are_exactly_the_public_api() -> None:
    assert set(cdpagent.__all__) == EXPECTED
    for name in cdpagent.__all__:
        assert hasattr(cdpagent, name), name


def test_sf1_every_public_function_and_method_is_documented() -> None:
    missing = []
    for name in cdpagent.__all__:
        obj = getattr(cdpagent, name)
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
