// How a report's opening is sped up and timed (docs/requirements.md#report-loading). Small on purpose: the list
// imports it, and its first script budget counts every byte.

/** localStorage key of the switch that turns powerbi-client's preload() and bootstrap() off. */
export const PRE_LOAD_KEY = 'paineis.powerBi.preCarga';
/** The switch's value that turns them off: the benchmark's baseline, and a way to tell whether they are to blame. */
export const PRE_LOAD_OFF = 'desligada';

/** The performance marks of an opening: the viewer calls powerbi-client's embed(), the report's `loaded` arrives. */
export const EMBED_MARK = 'paineis:embed';
export const LOADED_MARK = 'paineis:loaded';

/** Whether preload and bootstrap are turned off in this browser. */
export function preLoadOff(): boolean {
  try {
    return window.localStorage.getItem(PRE_LOAD_KEY) === PRE_LOAD_OFF;
  } catch {
    // Storage refused (a privacy setting): the switch cannot have been set.
    return false;
  }
}

/** A performance mark; where the browser has none, nothing. */
export function markReportLoading(name: typeof EMBED_MARK | typeof LOADED_MARK): void {
  try {
    performance.mark(name);
  } catch {
    // No User Timing: nothing to time with.
  }
}
