// The web benchmark's probe (bench/web.ts): installed in every page before the app's own scripts (Playwright's
// addInitScript), in the top frame only. It times things from inside the page, where the clock is the page's own
// (performance.now(), from the navigation's start) and no round trip to the benchmark blurs the figure.
//
// Elements are found by what the app shows people (labels and texts), not by its DOM structure.
/* global window, document, requestAnimationFrame, MutationObserver */
(() => {
  if (window.top !== window || window.__bench) return;

  /** A panel row: each has its 'Visualizar painel {name}' link, for admins and users alike. */
  const PANEL_ROW = 'a[aria-label^="Visualizar painel "]';
  /** A row of the links modal's list: its checkbox, 'Selecionar {name}'. */
  const USER_ROW = '[role="dialog"] input[type="checkbox"][aria-label^="Selecionar "]';

  /** Every long task (over 50 ms) of the page's main thread since the navigation. */
  const longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No Long Tasks API: longTasksSince reports null.
  }

  /** When the frame that paints the DOM as it is now has been rendered: a message posted from its rAF callback. */
  const afterPaint = () =>
    new Promise((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
      }),
    );

  /** Resolves with { at, painted } once `test()` holds (checked now and after every DOM change). */
  const when = (test, timeoutMs, what) =>
    new Promise((resolve, reject) => {
      let observer = null;
      const timer = setTimeout(() => {
        observer?.disconnect();
        reject(new Error(`${what}: nada em ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const done = () => {
        observer?.disconnect();
        clearTimeout(timer);
        const at = performance.now();
        void afterPaint().then((painted) => resolve({ at, painted }));
      };
      if (test()) return done();
      observer = new MutationObserver(() => {
        if (test()) done();
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true });
    });

  /** The links modal's count, '1.234 de 25.000 usuários · 300 selecionados': [shown, total], or null. */
  const userCount = () => {
    const dialog = document.querySelector('[role="dialog"]');
    const match = dialog?.textContent?.match(/(\d[\d.]*) de (\d[\d.]*) usuários?/);
    return match ? [Number(match[1].replaceAll('.', '')), Number(match[2].replaceAll('.', ''))] : null;
  };

  /** The time of the next event of `type` (its timeStamp, when the browser received the input). */
  const nextEvent = (type) => {
    const seen = { at: null };
    window.addEventListener(type, (event) => (seen.at = event.timeStamp), { capture: true, once: true });
    return seen;
  };

  window.__bench = {
    /** The first panel row, from the navigation's start: in the DOM, and painted. */
    firstRow: when(() => document.querySelector(PANEL_ROW) !== null, 60_000, 'primeira linha de painel'),
    longTasksSince: (start) =>
      PerformanceObserver.supportedEntryTypes?.includes('longtask')
        ? longTasks.filter((task) => task.start >= start).map((task) => task.duration)
        : null,
    domNodes: () => document.querySelectorAll('*').length,
    userCount,
    pending: null,
    /** Before the click on 'Usuários': then `pending` gives click → rows of the list in the DOM / painted. */
    armLinksModal() {
      const click = nextEvent('click');
      this.pending = when(
        () => click.at !== null && document.querySelector(USER_ROW) !== null,
        60_000,
        'lista do modal',
      ).then(({ at, painted }) => ({ dom: at - click.at, painted: painted - click.at, count: userCount() }));
    },
    /** Before a key is typed in the modal's search: then `pending` gives keydown → the list showing `expected` users. */
    armSearchKey(expected) {
      const key = nextEvent('keydown');
      this.pending = when(() => key.at !== null && userCount()?.[0] === expected, 10_000, `lista com ${expected}`).then(
        ({ at, painted }) => ({ dom: at - key.at, painted: painted - key.at }),
      );
    },
  };
  // An unhandled rejection would be noise in the page's console before anyone awaits it.
  window.__bench.firstRow.catch(() => {});
})();
