// cdpagent stacks: error stacks of the isolated world name the file of js/ each frame is in.
//
// The isolated world's files are installed as one script (one install command per tab:
// cdpagent.cdp.pagescripts.world_source), named by a sourceURL comment at its end. This
// file comes first in it and rewrites each stack frame in that script to the file and
// line it came from, so a stack reads "at tallyNative (collect/rowactions.js:52:7)".
// The configuration names the script (url) and gives the first line of each file in it
// (files: [[line, "collect/kept.js"], ...], in order). V8 formats a stack only when it
// is read, so an error nobody reads costs nothing more.
(() => {
  'use strict';
  if (Error.prepareStackTrace) return;

  const CONFIG = __AGOTALK_CONFIG__;
  const FILES = CONFIG.files;
  const escaped = CONFIG.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const PLACE = new RegExp(`${escaped}:(\\d+)(?=:\\d+)`, 'g');

  // "file:line" of a line of the script.
  function place(_, line) {
    const n = Number(line);
    let i = FILES.length - 1;
    while (i > 0 && FILES[i][0] > n) i--;
    return `${FILES[i][1]}:${n - FILES[i][0] + 1}`;
  }

  Error.prepareStackTrace = (error, frames) => {
    let text = String(error);
    for (const frame of frames) text += `\n    at ${String(frame).replace(PLACE, place)}`;
    return text;
  };
})();
