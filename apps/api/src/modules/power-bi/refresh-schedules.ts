import type { FastifyBaseLogger } from 'fastify';
import { DateTime, IANAZone } from 'luxon';
import type { Db } from '../../db/client.ts';
import type { PowerBiClient } from '../../integrations/power-bi/power-bi-client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { allPanels } from '../panels/panel-access.ts';
import { callFailure, CONCURRENT_CALLS, eachLimited } from './power-bi-calls.ts';
import {
  datasetsToRead,
  enabledSchedules,
  saveSchedules,
  type DatasetSchedule,
} from './refresh-schedules.repository.ts';
import { ianaZoneOf } from './windows-time-zones.ts';

/**
 * The panels' datasets' scheduled refreshes (issue 40): read from Power BI in a background round and stored, so that
 * the capacity's rule, on whichever instance runs it, can wake the capacity before each (a paused capacity runs no
 * scheduled refresh).
 */

/** A scheduled refresh of a dataset some panel reads. */
export interface ScheduledRefresh {
  at: Date;
  datasetId: string;
  /** The names of the panels that read the dataset. */
  paineis: string[];
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The schedule's zone in IANA terms: its Windows id mapped, an IANA name as given, else UTC. */
export function scheduleZone(fuso: string | null): string {
  const mapped = ianaZoneOf(fuso);
  if (mapped) return mapped;
  return fuso && IANAZone.isValidZone(fuso) ? fuso : 'UTC';
}

/** The times a schedule's refreshes fall on between `from` and `to` (both included), in order. */
export function occurrencesOf(
  schedule: Pick<DatasetSchedule, 'dias' | 'horarios' | 'fuso'>,
  from: Date,
  to: Date,
): Date[] {
  const zone = scheduleZone(schedule.fuso);
  const days = new Set(schedule.dias.map((d) => WEEKDAYS.indexOf(d) + 1).filter((d) => d > 0));
  const times = schedule.horarios.flatMap((t) => {
    const match = /^(\d{1,2}):(\d{2})$/.exec(t.trim());
    return match ? [{ hour: Number(match[1]), minute: Number(match[2]) }] : [];
  });
  const found: Date[] = [];
  const last = DateTime.fromJSDate(to, { zone }).endOf('day');
  for (let day = DateTime.fromJSDate(from, { zone }).startOf('day'); day <= last; day = day.plus({ days: 1 })) {
    if (!days.has(day.weekday)) continue;
    for (const time of times) {
      const at = day.set(time).toJSDate();
      if (at >= from && at <= to) found.push(at);
    }
  }
  return found.sort((a, b) => a.getTime() - b.getTime());
}

/**
 * One round: the schedule of each import dataset a panel reads (where the freshness round found it), once. Power BI
 * refusing it (400 for a DirectQuery or live dataset) means there is none; any other failure keeps what was stored.
 * Schedules are the service's metadata: they are read while the capacity is paused too.
 */
export async function readRefreshSchedules(db: Db, client: PowerBiClient, log: FastifyBaseLogger): Promise<void> {
  const datasets = await datasetsToRead(db);
  const read: DatasetSchedule[] = [];
  const without: string[] = [];
  await eachLimited(datasets, CONCURRENT_CALLS, async ({ datasetId, workspaceId }) => {
    try {
      const schedule = await client.refreshSchedule(workspaceId, datasetId, 'background');
      if (schedule.enabled && !ianaZoneOf(schedule.timeZoneId)) {
        log.warn({ datasetId, timeZoneId: schedule.timeZoneId }, 'Fuso do agendamento do dataset desconhecido');
      }
      read.push({
        datasetId,
        dias: schedule.days,
        horarios: schedule.times,
        fuso: schedule.timeZoneId,
        habilitado: schedule.enabled,
      });
    } catch (error) {
      if (error instanceof MicrosoftError && error.failure === 'refused' && error.status === 400) {
        without.push(datasetId);
        return;
      }
      log.warn({ ...callFailure(error), datasetId }, 'Power BI não informou o agendamento do dataset');
    }
  });
  await saveSchedules(db, read, without);
}

/** The enabled scheduled refreshes of the panels' datasets between `from` and `to`, in order. */
export async function scheduledRefreshes(db: Db, from: Date, to: Date): Promise<ScheduledRefresh[]> {
  const schedules = await enabledSchedules(db);
  if (schedules.length === 0) return [];
  const names = new Map((await allPanels(db)).map((p) => [p.id, p.nomePainel]));
  return schedules
    .flatMap((schedule) =>
      occurrencesOf(schedule, from, to).map((at) => ({
        at,
        datasetId: schedule.datasetId,
        paineis: schedule.painelIds.flatMap((id) => names.get(id) ?? []).sort((a, b) => a.localeCompare(b, 'pt-BR')),
      })),
    )
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}
