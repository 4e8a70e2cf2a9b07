import { describe, expect, it } from 'vitest';
import { occurrencesOf, scheduleZone } from './refresh-schedules.ts';

/** A refresh schedule's times, read in its own (Windows) time zone. */

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('a refresh schedule’s times', () => {
  it('maps Power BI’s Windows time zone ids to IANA zones, an IANA name as given, anything else to UTC', () => {
    expect(scheduleZone('E. South America Standard Time')).toBe('America/Sao_Paulo');
    expect(scheduleZone('Pacific Standard Time')).toBe('America/Los_Angeles');
    expect(scheduleZone('UTC')).toBe('Etc/UTC');
    expect(scheduleZone('Europe/Lisbon')).toBe('Europe/Lisbon');
    expect(scheduleZone('Nowhere Standard Time')).toBe('UTC');
    expect(scheduleZone(null)).toBe('UTC');
  });

  it('falls on the days and times named, in the schedule’s zone, between two times included', () => {
    const schedule = {
      dias: ['Monday', 'Wednesday'],
      horarios: ['06:00', '18:30'],
      fuso: 'E. South America Standard Time',
    };
    // Monday 30 November to Thursday 3 December 2026; São Paulo is UTC−3.
    expect(iso(occurrencesOf(schedule, new Date('2026-11-30T09:00:00Z'), new Date('2026-12-03T23:59:00Z')))).toEqual([
      '2026-11-30T09:00:00.000Z',
      '2026-11-30T21:30:00.000Z',
      '2026-12-02T09:00:00.000Z',
      '2026-12-02T21:30:00.000Z',
    ]);
    expect(occurrencesOf(schedule, new Date('2026-11-30T09:00:01Z'), new Date('2026-11-30T21:29:59Z'))).toEqual([]);
  });

  it('follows the zone’s daylight saving time', () => {
    // Los Angeles leaves daylight saving time on Sunday 1 November 2026: 06:00 is 13:00 UTC before, 14:00 after.
    const schedule = { dias: ['Saturday', 'Sunday'], horarios: ['06:00'], fuso: 'Pacific Standard Time' };
    expect(iso(occurrencesOf(schedule, new Date('2026-10-31T00:00:00Z'), new Date('2026-11-02T00:00:00Z')))).toEqual([
      '2026-10-31T13:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
    ]);
  });

  it('passes over a day or a time it does not read', () => {
    const schedule = { dias: ['Someday', 'Tuesday'], horarios: ['late', '07:00'], fuso: 'UTC' };
    expect(iso(occurrencesOf(schedule, new Date('2026-11-30T00:00:00Z'), new Date('2026-12-02T00:00:00Z')))).toEqual([
      '2026-12-01T07:00:00.000Z',
    ]);
  });
});
