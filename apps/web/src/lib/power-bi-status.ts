import { useQuery } from '@tanstack/react-query';
import { freshnessQuery, POWER_BI_STATUS_REFRESH_MS } from './api/get-freshness.ts';
import { panelHealthQuery } from './api/get-panel-health.ts';

/*
 * What Power BI says of each panel, as the list and the viewer show it: when its data was last refreshed (everyone,
 * api/get-freshness.ts) and whether its report can still be opened (admins, api/get-panel-health.ts). Each is asked
 * for once per screen (its route keeps it fresh, below), and a row (or the viewer's header) picks its own panel's
 * entry out, never asking by itself.
 */

/**
 * Asks for the answers as the screen opens and again every few minutes while it stays open. Called once per screen
 * (its route): each row asking on its own would set a timer per row. Reads nothing of the answers, so the screen
 * does not re-render when they arrive.
 */
export function useKeepPowerBiStatusFresh(isAdmin: boolean) {
  useQuery({ ...freshnessQuery, refetchInterval: POWER_BI_STATUS_REFRESH_MS });
  useQuery({ ...panelHealthQuery, enabled: isAdmin, refetchInterval: POWER_BI_STATUS_REFRESH_MS });
}
