"""The driver: the CDP wire, the browser process and what a tab decides (layer 1, above ``errors``).

Sans-IO cores — the message codec and pending calls (:mod:`.protocol`), the
websocket frame codec (:mod:`.wsframes`), one HTTP/1.1 request (:mod:`.http1`), the
frame/document tracker (:mod:`.documents`), the dialog rules (:mod:`.dialogs`), the
tab's decisions (:mod:`.tabstate`), the failure → code table (:mod:`.failures`) and
the traffic meter (:mod:`.meter`) — under a thin Trio layer: the transports
(:mod:`.transport`), the connection's reader task (:mod:`.connection`), the browser
process (:mod:`.launcher`, :mod:`.winjob`), the seam the cores are written against
(:mod:`.target`), trusted input (:mod:`.input`) and the page scripts
(:mod:`.pagescripts`) with the isolated world that holds them and the one caller of page
functions (:mod:`.world`).

Imports: :mod:`cdpagent.errors` and :mod:`cdpagent.version` only.
"""
