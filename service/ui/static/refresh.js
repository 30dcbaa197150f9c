// The overview's live part (#live) is fetched again every few seconds and swapped in, only while the tab is
// visible: a hidden tab asks nothing, and a tab shown again is brought up to date at once.
(() => {
  "use strict";
  const live = document.getElementById("live");
  if (!live) return;
  const every = Number(live.dataset.every || 5) * 1000;
  let timer = null;
  let fetching = false;

  async function refresh() {
    timer = null;
    if (fetching || document.hidden) return;
    fetching = true;
    try {
      const response = await fetch(live.dataset.refresh, { credentials: "same-origin" });
      if (response.redirected && !new URL(response.url).pathname.startsWith("/ui/live")) {
        window.location.assign(response.url); // signed out meanwhile: show the login form
        return;
      }
      if (response.ok) {
        live.innerHTML = await response.text();
        live.dataset.refreshes = String(Number(live.dataset.refreshes || 0) + 1);
      }
    } catch (error) {
      // The gateway is restarting or unreachable: keep what is shown and try again next time.
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
    } else {
      refresh();
    }
  });
  schedule();
})();
