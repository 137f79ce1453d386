"""What a page may post, and whether it may: the pure half of ``thread_notify`` (SPEC PA-5, PA-6).

``window.agotalk.post(topic, payload)`` reaches Python as the payload of a
``Runtime.bindingCalled`` event: the JSON text ``[postId, topic, payload]``
written by the shim. Nothing in it is trusted. :func:`parse_post` checks its
shape strictly; :func:`check_notify` decides, from the post and from what CDP
says about the sender (never from the payload), whether it may be delivered.
Neither does IO; :mod:`cdpagent.runtime.pageapi` does the delivery and the reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Protocol

import msgspec

from .codes import (
    PAGE_API_UNKNOWN_TOPIC,
    THREAD_NOTIFY_BAD_MESSAGE,
    THREAD_NOTIFY_NOT_ALLOWED,
    refusal,
)
from .jsonstrict import decode_page_json

if TYPE_CHECKING:
    from ..cdp.target import Target

__all__ = [
    "MESSAGE_MAX_BYTES",
    "POST_MAX_CHARS",
    "THREAD_NOTIFY",
    "Owner",
    "PostCall",
    "Sender",
    "check_notify",
    "parse_post",
    "queued",
]

#: The only topic this runtime serves.
THREAD_NOTIFY: Final = "thread_notify"
#: Limit of ``message`` in UTF-8 bytes (the seed contract).
MESSAGE_MAX_BYTES: Final = 8192
#: Limit of a whole binding payload in characters, passed to the shim, which refuses larger
#: posts itself; so anything bigger did not come from the shim and is dropped unread.
POST_MAX_CHARS: Final = 65536
_MAX_POST_ID: Final = 2**53 - 1


class PostCall(msgspec.Struct, frozen=True):
    """One ``post()`` as the page sent it: its id (for the reply), topic and payload.

    ``replaced`` says that the text held lone UTF-16 surrogates, now U+FFFD: such a
    post is answered, but never delivered.
    """

    post_id: int
    topic: object
    payload: object
    replaced: bool = False


class Sender(msgspec.Struct, frozen=True):
    """Who sent a post, as CDP reports it: the tab, the frame and its document's URL.

    ``local`` says whether that URL is a local page (``file:`` or an allowed origin);
    ``main_frame`` whether the frame is the tab's main frame.
    """

    tab_id: str
    frame_id: str
    url: str
    main_frame: bool
    local: bool


class Owner(Protocol):
    """Who owns a tab and takes its pages' ``thread_notify`` posts.

    :class:`~cdpagent.runtime.threads.Thread` is the owner cdpagent provides.
    """

    def adopt(self, tab: Target) -> None:
        """Make ``tab`` (for example a popup its page opened) belong to this owner."""
        ...

    def deliver(self, sender: Sender, message: str) -> dict[str, Any]:
        """Queue ``message`` from ``sender`` without blocking; returns the answer for the page."""
        ...


def parse_post(payload: object) -> PostCall | None:
    """Decode a binding payload into a :class:`PostCall`, or ``None`` to drop it.

    A payload is dropped (no reply is possible or deserved) when it is not a string,
    is over :data:`POST_MAX_CHARS`, is not JSON, or is not ``[id, topic, payload]``
    with a positive integer id: the shim never sends such a thing. Lone surrogates do
    not drop it (the page must get its answer): they are replaced and marked.
    """
    if type(payload) is not str or len(payload) > POST_MAX_CHARS:
        return None
    try:
        value, replaced = decode_page_json(payload)
    except msgspec.DecodeError:
        return None
    if type(value) is not list or len(value) != 3:
        return None
    post_id, topic, body = value
    if type(post_id) is not int or not 0 < post_id <= _MAX_POST_ID:
        return None
    return PostCall(post_id, topic, body, replaced)


def check_notify(call: PostCall, sender: Sender, *, owned: bool) -> str | dict[str, Any]:
    """Return the message to deliver, or the refusal envelope for the page.

    Checks, in order: the topic is ``thread_notify`` (``PAGE_API_UNKNOWN_TOPIC``);
    the sender is the main frame of a local document in a thread-owned tab
    (``THREAD_NOTIFY_NOT_ALLOWED``); the payload is valid Unicode and exactly
    ``{"message": str}`` with a non-empty message of at most 8192 UTF-8 bytes
    (``THREAD_NOTIFY_BAD_MESSAGE``).
    """
    if call.topic != THREAD_NOTIFY:
        shown = call.topic[:60] if isinstance(call.topic, str) else type(call.topic).__name__
        return refusal(
            PAGE_API_UNKNOWN_TOPIC,
            f"post() topic {shown!r} is not served; the only topic is {THREAD_NOTIFY!r}",
        )
    if not sender.local:
        return refusal(THREAD_NOTIFY_NOT_ALLOWED, "thread_notify is only available to local pages")
    if not sender.main_frame:
        return refusal(THREAD_NOTIFY_NOT_ALLOWED, "thread_notify is only available to a tab's main frame")
    if not owned:
        return refusal(
            THREAD_NOTIFY_NOT_ALLOWED,
            "this tab belongs to no thread (a standalone tab); there is no thread to notify",
        )
    if call.replaced:
        return refusal(
            THREAD_NOTIFY_BAD_MESSAGE, "the payload is not valid Unicode (it holds a lone surrogate)"
        )
    body = call.payload
    if type(body) is not dict:
        return refusal(THREAD_NOTIFY_BAD_MESSAGE, "thread_notify needs a payload object {message}")
    extra = sorted(k for k in body if k != "message")
    if extra:
        return refusal(
            THREAD_NOTIFY_BAD_MESSAGE,
            f"thread_notify takes only 'message'; unexpected key {extra[0][:60]!r}",
        )
    message = body.get("message")
    if type(message) is not str:
        return refusal(THREAD_NOTIFY_BAD_MESSAGE, "message must be a string")
    if not message:
        return refusal(THREAD_NOTIFY_BAD_MESSAGE, "message must not be empty")
    size = len(message.encode("utf-8"))
    if size > MESSAGE_MAX_BYTES:
        return refusal(
            THREAD_NOTIFY_BAD_MESSAGE,
            f"message is {size} UTF-8 bytes; the limit is {MESSAGE_MAX_BYTES}",
        )
    return message


def queued(delivery_id: str) -> dict[str, Any]:
    """The success answer ``{"ok": True, "data": {"disposition": "queued", "deliveryId": …}}``."""
    return {"ok": True, "data": {"disposition": "queued", "deliveryId": delivery_id}}
