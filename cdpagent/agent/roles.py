"""Roles: what an application adds to the framework rules (the seed's "role documents its methods").

A role is a small TOML file (read with the standard library's ``tomllib``)::

    name = "todos"
    page = "example:todos"                     # a bundled example, a path relative to the role file, or a URL
    application = "You help the user manage a personal task list."

    [wakeup]                                   # optional: after a thread_notify
    instructions = "Call read_current, then submit_review with the revision you read."

    capabilities = ["navigation", "screenshot"]  # optional: browser operations the agent may use

    [[methods]]                                # optional: the documented page method table
    name = "read_current"
    effect = "read"                            # "read" or "write"
    description = "The essay, its revision and the pending review request."
    args = "{}"                                # the argument shape, in words or JSON

``capabilities`` names the groups of browser operations the agent offers besides the
page's own actions (:data:`cdpagent.ops.operations.CAPABILITIES`: ``tabs``, ``navigation``,
``notifications``, ``screenshot``, ``pdf``, ``wait``, ``logs``, ``downloads``, ``vision``);
none by default, so a role that does not ask widens nothing.

Every field but ``wakeup``, ``capabilities`` and ``methods`` is required; a method needs all four
of its fields, ``effect`` is ``read`` or ``write``, and names are unique. When
``methods`` is not empty the agent offers the ``invoke_page_method`` tool with
``method`` enumerated from this table, so no other method can be called.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Final, Literal

import msgspec

from ..browser.bundled import EXAMPLE_PREFIX, example_page
from ..errors import RoleError
from ..ops.operations import CAPABILITIES

__all__ = [
    "GENERIC_APPLICATION",
    "SHIPPED_ROLES",
    "MethodDoc",
    "Role",
    "RoleError",
    "WakeUp",
    "generic_role",
    "load_role",
    "shipped_roles",
]

GENERIC_APPLICATION: Final = (
    "You help the user with the page that is open in the browser. Do what the user asks using the "
    "page's declared actions, and say plainly when the page does not offer what is needed."
)


class MethodDoc(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One documented page method: its name, what it does, its argument shape, read or write."""

    name: str
    effect: Literal["read", "write"]
    description: str
    args: str


class WakeUp(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the agent should do after a ``thread_notify`` wake-up."""

    instructions: str


class Role(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An application's role: its section of the system message, its page and its method table."""

    name: str
    page: str
    """A file path (absolute, or relative to the role file when loaded) or a URL."""
    application: str
    """The ``## This application`` section: short, fixed for the session."""
    methods: list[MethodDoc] = []
    wakeup: WakeUp | None = None
    capabilities: list[str] = []
    """The groups of browser operations the agent offers (:data:`cdpagent.ops.operations.CAPABILITIES`)."""

    def section(self) -> str:
        """The ``## This application`` section, with the method table and wake-up instructions."""
        lines = ["## This application", self.application.strip()]
        if self.methods:
            lines += ["", "Page methods (call with invoke_page_method; reads first, then writes):"]
            lines += [f"- {m.name} ({m.effect}) args {m.args}: {m.description}" for m in self.methods]
        if self.wakeup is not None:
            lines += ["", f"After a thread_notify wake-up: {self.wakeup.instructions.strip()}"]
        return "\n".join(lines)


#: The folder of the roles shipped with cdpagent, loadable by name (``load_role("writing")``).
SHIPPED_ROLES: Final = Path(__file__).resolve().parent / "roles"


def shipped_roles() -> list[str]:
    """The names of the roles shipped with cdpagent (``todos``, ``writing``)."""
    return sorted(p.stem for p in SHIPPED_ROLES.glob("*.toml"))


def generic_role(page: str) -> Role:
    """The role of ``cdpagent chat PAGE``: a generic application section and no method table."""
    return Role(name="page", page=page, application=GENERIC_APPLICATION)


def _resolve_page(page: str, base: Path) -> str:
    if page.startswith(EXAMPLE_PREFIX):
        # The bundled examples live in the package data, wherever the package is installed.
        try:
            return str(example_page(page.removeprefix(EXAMPLE_PREFIX)))
        except FileNotFoundError as error:
            raise RoleError(str(error)) from None
    if "://" in page or os.path.isabs(page):
        return page
    return str((base / page).resolve())


def load_role(path: str | os.PathLike[str]) -> Role:
    """Read and check the role file at ``path``; relative ``page`` paths resolve against its folder.

    ``path`` may also be the bare name of a shipped role (``"writing"``: no folder, no
    ``.toml``, and no file of that name here). Raises :class:`RoleError` for an
    unknown role name, an unreadable or non-UTF-8 file, invalid TOML, a missing or
    mistyped field, an unknown field, an ``effect`` other than read/write, a duplicate
    method name, an unknown capability or an unknown bundled example.
    """
    where = Path(path)
    if where.suffix != ".toml" and len(where.parts) == 1 and not where.exists():
        if where.name not in shipped_roles():
            raise RoleError(
                f"{where}: no such role file, and no shipped role of that name "
                f"(shipped: {', '.join(shipped_roles())})"
            )
        where = SHIPPED_ROLES / f"{where.name}.toml"
    try:
        raw = tomllib.loads(where.read_text(encoding="utf-8"))
    except OSError as error:
        hint = ""
        if where.suffix == ".toml" and where.stem in shipped_roles():
            hint = f"; the shipped role is loaded by name: load_role({where.stem!r}), --role {where.stem}"
        raise RoleError(f"{where}: cannot read the role file ({error.strerror}){hint}") from None
    except UnicodeDecodeError as error:
        raise RoleError(f"{where}: the role file is not UTF-8 text (byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise RoleError(f"{where}: not valid TOML ({error})") from None
    try:
        role = msgspec.convert(raw, Role)
    except msgspec.ValidationError as error:
        raise RoleError(f"{where}: {error}") from None
    names = [m.name for m in role.methods]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise RoleError(f"{where}: method {duplicates[0]!r} is documented twice")
    if not role.application.strip():
        raise RoleError(f"{where}: `application` is empty")
    unknown = [c for c in role.capabilities if c not in CAPABILITIES]
    if unknown:
        raise RoleError(f"{where}: unknown capability {unknown[0]!r} (known: {', '.join(CAPABILITIES)})")
    return msgspec.structs.replace(role, page=_resolve_page(role.page, where.parent))
