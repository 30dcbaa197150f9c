// A live region (#live) is fetched again every few seconds and swapped in, only while the tab is visible: a hidden
// tab asks nothing, and a tab shown again is brought up to date at once. #refresh-state says when the figures were
// last brought up to date, and says so when they are not: paused (tab hidden) or stale (a refresh failed: the
// gateway is restarting or unreachable, or answered an error); what is shown is then older.
//
// The overview asks for its live part alone (/ui/live, data-partial); a list (jobs, running, dead) asks for its own
// address again, filters and cursor included, and takes the #live of the answer. Either way the operator keeps
// their place: the page's scroll, each table's sideways scroll and every ticked box stay as they were.
(() => {
  "use strict";
  const live = document.getElementById("live");
  if (!live) return;
  const state = document.getElementById("refresh-state");
  const every = Number(live.dataset.every || 5) * 1000;
  const partial = live.dataset.partial === "true";
  const address = new URL(live.dataset.refresh, window.location.href);
  let timer = null;
  let fetching = false;
  let lastSuccess = new Date();

  function clock(moment) {
    return moment.toISOString().slice(11, 19) + " UTC";
  }

  function show(kind, text) {
    live.classList.toggle("stale", kind === "stale");
    if (!state) return;
    state.dataset.state = kind;
    state.textContent = text;
  }

  function succeeded() {
    lastSuccess = new Date();
    show("live", `Live: last refreshed at ${clock(lastSuccess)}, every ${every / 1000} s while this tab is shown.`);
  }

  function failed(why) {
    show("stale", `Stale: could not refresh since ${clock(lastSuccess)} (${why}); what is shown is from then. Trying again every ${every / 1000} s.`);
  }

  function swap(html) {
    const ticked = new Set(Array.from(live.querySelectorAll("input[type=checkbox]:checked"), (box) => box.value));
    const sideways = Array.from(live.querySelectorAll("section.card, .table-scroll"), (box) => box.scrollLeft);
    const [x, y] = [window.scrollX, window.scrollY];
    live.innerHTML = html;
    live.querySelectorAll("input[type=checkbox]").forEach((box) => {
      if (ticked.has(box.value)) box.checked = true;
    });
    live.querySelectorAll("section.card, .table-scroll").forEach((box, index) => {
      box.scrollLeft = sideways[index] || 0;
    });
    window.scrollTo(x, y);
  }

  async function refresh() {
    timer = null;
    if (fetching || document.hidden) return;
    fetching = true;
    try {
      const response = await fetch(address, { credentials: "same-origin" });
      if (response.redirected && new URL(response.url).pathname !== address.pathname) {
        window.location.assign(response.url); // signed out meanwhile: show the login form
        return;
      }
      if (response.ok) {
        const text = await response.text();
        const fresh = partial ? null : new DOMParser().parseFromString(text, "text/html").getElementById("live");
        if (!partial && !fresh) {
          failed("the answer held no list");
        } else {
          swap(partial ? text : fresh.innerHTML);
          live.dataset.refreshes = String(Number(live.dataset.refreshes || 0) + 1);
          succeeded();
        }
      } else {
        failed(`the gateway answered ${response.status}`);
      }
    } catch (error) {
      failed("the gateway did not answer"); // restarting or unreachable: keep what is shown, try again next time
    } finally {
      fetching = false;
    }
    schedule();
  }

  function schedule() {
    if (timer === null && !document.hidden) timer = window.setTimeout(refresh, every);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      window.clearTimeout(timer);
      timer = null;
      show("paused", `Paused while this tab is hidden; last refreshed at ${clock(lastSuccess)}.`);
    } else {
      refresh();
    }
  });
  succeeded();
  schedule();
})();
