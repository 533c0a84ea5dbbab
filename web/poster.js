// The embed's poster (poster.html?title=…#s=…): it names the scenario a
// share link holds and loads the embed of that link when its reader asks.
// Until then nothing of the simulator is downloaded: no wasm, no service
// worker. The link's fragment is "#s=" + base64url(raw deflate(JSON)),
// as app/share writes it; the poster reads the scenario's kinds and the
// tick from it, when the browser can inflate (DecompressionStream).
"use strict";

// maxDecodedBytes bounds the inflated link, as app/share's
// MaxDecodedBytes does: a scenario is at most 1 MiB. (Declared before
// the code below runs, which reads it.)
const maxDecodedBytes = 1 << 20;

(() => {
  const params = new URLSearchParams(location.search);
  const title = params.get("title");
  if (title) {
    document.querySelector("[data-testid=poster-title]").textContent = title;
    document.title = title;
  }
  const load = document.querySelector("[data-testid=poster-load]");
  const embed = new URL("../", location.href);
  embed.search = "?embed=1";
  embed.hash = location.hash;
  load.href = embed.href;
  describe(location.hash).then((what) => {
    if (what) {
      document.querySelector("[data-testid=poster-what]").textContent = what;
    }
  }, () => {});
})();

// describe is a line about the link's scenario: its kinds, counted, and
// the tick it opens at ("" when the fragment holds no scenario).
async function describe(hash) {
  if (!hash.startsWith("#s=") || typeof DecompressionStream !== "function") {
    return "";
  }
  const b64 = hash.slice(3).replace(/-/g, "+").replace(/_/g, "/");
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const state = JSON.parse(await inflated(stream, maxDecodedBytes));
  const counts = new Map();
  for (const m of String(state.s || "").matchAll(/^kind:\s*([A-Za-z]+)\s*$/gm)) {
    if (m[1] !== "Scenario") {
      counts.set(m[1], (counts.get(m[1]) || 0) + 1);
    }
  }
  if (counts.size === 0) {
    return "";
  }
  const kinds = [...counts].map(([kind, n]) => (n > 1 ? kind + " ×" + n : kind)).join(", ");
  const tick = Number(state.t) > 0 ? " It opens at tick " + Number(state.t) + "." : "";
  return "A simulated cluster with " + kinds + "." + tick;
}

// inflated reads a stream as text, failing past limit bytes (a link that
// inflates to more is not one Share made).
async function inflated(stream, limit) {
  const reader = stream.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    n += value.byteLength;
    if (n > limit) {
      await reader.cancel();
      throw new Error("the link inflates to more than " + limit + " bytes");
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
}
