import { useCallback, useSyncExternalStore } from 'react';

/** How often the relative times on screen ('Atualizado há 5 min') move on. */
export const CLOCK_TICK_MS = 60_000;

// One clock for the whole page, however many rows show a relative time: one timer while any is on screen, none
// otherwise.
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  if (listeners.size === 0) {
    // The clock stood still while nobody watched it.
    now = Date.now();
    timer = setInterval(tick, CLOCK_TICK_MS);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

/**
 * A text computed from the time, recomputed once a minute: the component re-renders only when the text changes
 * ('há 5 min' → 'há 6 min'), not at every tick, and never more than once a minute.
 */
export function useMinuteText(text: (now: number) => string): string {
  const snapshot = useCallback(() => text(now), [text]);
  return useSyncExternalStore(subscribe, snapshot);
}
