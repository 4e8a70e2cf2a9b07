import { useEffect } from 'react';
import { preLoadOff } from '../features/viewer/embedding/report-loading.ts';
import { useConfiguration } from '../lib/api/get-configuration.ts';
import { preloadViewer } from './routes.tsx';

/** Once a page session: the browser cache stays warm for every later opening. */
let preloaded = false;

/**
 * With Power BI configured (not the demo host), once the list has rendered and the browser is idle: the viewer's code,
 * then powerbi-client's preload(), so that a click renders the viewer at once and Power BI's scripts are cached when a
 * report opens (docs/requirements.md#report-loading). Both come in chunks of their own, fetched then: the list's
 * initial script budget does not grow. Not when the switch 'paineis.powerBi.preCarga' is 'desligada'
 * (report-loading.ts).
 */
export function usePowerBiPreload(listShown: boolean) {
  const configuration = useConfiguration().data;
  const wanted = listShown && configuration?.powerBi === true && !configuration.demonstracao && !preLoadOff();
  useEffect(() => {
    if (!wanted || preloaded) return;
    const run = () => {
      preloaded = true;
      // The viewer's own code first, then Power BI's: a click then waits for neither. A chunk that fails to arrive
      // is asked for again when the viewer opens.
      void preloadViewer()
        .catch(() => undefined)
        .then(() => import('../features/viewer/embedding/power-bi-embedder.ts'))
        .then(({ preloadPowerBi }) => preloadPowerBi())
        .catch(() => undefined);
    };
    // After the list's own work: when the browser is idle (a plain timer where requestIdleCallback is missing).
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(run);
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(run, 1);
    return () => window.clearTimeout(timer);
  }, [wanted]);
}
