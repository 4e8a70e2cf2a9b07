import { describe, expect, it } from 'vitest';
import { nextOccurrence, type Schedule } from './schedule.ts';

/**
 * When a subscription is sent (docs/requirements.md#subscriptions): a local hour in its own time zone, with that
 * zone's rules on the day, daylight-saving changes included. Instants are written in UTC so the expectations do not
 * depend on the zone the tests run in.
 */

const daily = (fusoHorario: string, hora: string): Schedule => ({
  frequencia: 'diaria',
  hora,
  diaSemana: null,
  diaMes: null,
  fusoHorario,
});
const weekly = (fusoHorario: string, hora: string, diaSemana: number): Schedule => ({
  ...daily(fusoHorario, hora),
  frequencia: 'semanal',
  diaSemana,
});
const monthly = (fusoHorario: string, hora: string, diaMes: number): Schedule => ({
  ...daily(fusoHorario, hora),
  frequencia: 'mensal',
  diaMes,
});

const next = (schedule: Schedule, after: string) => nextOccurrence(schedule, new Date(after)).toISOString();

describe('nextOccurrence', () => {
  it('daily: later today at the local hour, else tomorrow, in each zone', () => {
    // 09:00 in São Paulo (UTC-3, no daylight saving since 2019).
    expect(next(daily('America/Sao_Paulo', '10:00'), '2026-05-10T12:00:00Z')).toBe('2026-05-10T13:00:00.000Z');
    expect(next(daily('America/Sao_Paulo', '07:30'), '2026-05-10T12:00:00Z')).toBe('2026-05-11T10:30:00.000Z');
    // The same instant is already 21:00 in Tokyo (UTC+9): 07:30 there is the next (local) morning.
    expect(next(daily('Asia/Tokyo', '07:30'), '2026-05-10T12:00:00Z')).toBe('2026-05-10T22:30:00.000Z');
    expect(next(daily('Asia/Tokyo', '23:45'), '2026-05-10T12:00:00Z')).toBe('2026-05-10T14:45:00.000Z');
    // New York in May is EDT (UTC-4).
    expect(next(daily('America/New_York', '07:30'), '2026-05-10T12:00:00Z')).toBe('2026-05-11T11:30:00.000Z');
    expect(next(daily('America/New_York', '00:00'), '2026-05-10T12:00:00Z')).toBe('2026-05-11T04:00:00.000Z');
  });

  it('is strictly after: the occurrence at that very instant is the next day’s', () => {
    expect(next(daily('America/Sao_Paulo', '07:30'), '2026-05-10T10:30:00.000Z')).toBe('2026-05-11T10:30:00.000Z');
    expect(next(daily('America/Sao_Paulo', '07:30'), '2026-05-10T10:29:59.999Z')).toBe('2026-05-10T10:30:00.000Z');
    expect(next(weekly('Asia/Tokyo', '08:00', 1), '2026-05-10T23:00:00.000Z')).toBe('2026-05-17T23:00:00.000Z');
    expect(next(monthly('America/New_York', '06:00', 10), '2026-05-10T10:00:00.000Z')).toBe('2026-06-10T10:00:00.000Z');
  });

  it('weekly: the ISO weekday in the zone, which may be another day in UTC', () => {
    // Sunday 2026-05-10, 12:00 UTC.
    expect(next(weekly('America/Sao_Paulo', '08:00', 1), '2026-05-10T12:00:00Z')).toBe('2026-05-11T11:00:00.000Z');
    expect(next(weekly('America/Sao_Paulo', '08:00', 7), '2026-05-10T12:00:00Z')).toBe('2026-05-17T11:00:00.000Z');
    expect(next(weekly('America/Sao_Paulo', '10:00', 7), '2026-05-10T12:00:00Z')).toBe('2026-05-10T13:00:00.000Z');
    // Monday 07:00 in Tokyo is still Sunday in UTC.
    expect(next(weekly('Asia/Tokyo', '07:00', 1), '2026-05-10T12:00:00Z')).toBe('2026-05-10T22:00:00.000Z');
    // Friday 18:00 in New York (EDT).
    expect(next(weekly('America/New_York', '18:00', 5), '2026-05-10T12:00:00Z')).toBe('2026-05-15T22:00:00.000Z');
  });

  it('monthly: the day of the month in the zone, to the end of the year and across it', () => {
    expect(next(monthly('America/Sao_Paulo', '09:00', 1), '2026-05-10T12:00:00Z')).toBe('2026-06-01T12:00:00.000Z');
    // 2026-05-28 00:30 in Tokyo is 2026-05-27 15:30 UTC: already past at 16:00 UTC, so June's.
    expect(next(monthly('Asia/Tokyo', '00:30', 28), '2026-05-27T15:00:00Z')).toBe('2026-05-27T15:30:00.000Z');
    expect(next(monthly('Asia/Tokyo', '00:30', 28), '2026-05-27T16:00:00Z')).toBe('2026-06-27T15:30:00.000Z');
    // The 28th is in every month: February too, and December's is followed by January's.
    expect(next(monthly('America/New_York', '08:00', 28), '2026-01-28T14:00:00Z')).toBe('2026-02-28T13:00:00.000Z');
    expect(next(monthly('America/New_York', '08:00', 28), '2026-12-28T14:00:00Z')).toBe('2027-01-28T13:00:00.000Z');
    // From the 29th to the month's end, the next 28th is the next month's, 30 days or so ahead.
    expect(next(monthly('America/Sao_Paulo', '08:00', 28), '2026-01-31T12:00:00Z')).toBe('2026-02-28T11:00:00.000Z');
  });

  it('New York springs forward: 02:30 that does not exist on 2026-03-08 is sent at 03:30 EDT', () => {
    // Midnight EST on the day of the change.
    expect(next(daily('America/New_York', '02:30'), '2026-03-08T05:00:00Z')).toBe('2026-03-08T07:30:00.000Z');
    // The next day, 02:30 exists again (EDT, UTC-4).
    expect(next(daily('America/New_York', '02:30'), '2026-03-08T07:30:00Z')).toBe('2026-03-09T06:30:00.000Z');
    // An hour that exists is untouched that day: 08:00 EDT.
    expect(next(daily('America/New_York', '08:00'), '2026-03-08T05:00:00Z')).toBe('2026-03-08T12:00:00.000Z');
    expect(next(weekly('America/New_York', '02:30', 7), '2026-03-07T12:00:00Z')).toBe('2026-03-08T07:30:00.000Z');
  });

  it('New York falls back: 01:30 that happens twice on 2026-11-01 is sent once, at the first', () => {
    // Midnight EDT on the day of the change: the first 01:30 is EDT, 05:30 UTC.
    expect(next(daily('America/New_York', '01:30'), '2026-11-01T04:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    // Once it passed, the second 01:30 (EST, 06:30 UTC) is not another occurrence: the next is the next day's.
    expect(next(daily('America/New_York', '01:30'), '2026-11-01T05:30:00Z')).toBe('2026-11-02T06:30:00.000Z');
    expect(next(daily('America/New_York', '01:30'), '2026-11-01T06:00:00Z')).toBe('2026-11-02T06:30:00.000Z');
    // An hour after the change is EST (UTC-5).
    expect(next(daily('America/New_York', '09:00'), '2026-11-01T04:00:00Z')).toBe('2026-11-01T14:00:00.000Z');
  });

  it('Lisbon’s changes: 01:30 skipped on 2026-03-29 goes at 02:30 WEST; on 2026-10-25 the first 01:30 only', () => {
    expect(next(daily('Europe/Lisbon', '01:30'), '2026-03-29T00:00:00Z')).toBe('2026-03-29T01:30:00.000Z');
    expect(next(daily('Europe/Lisbon', '01:30'), '2026-03-29T01:30:00Z')).toBe('2026-03-30T00:30:00.000Z');
    // Winter (WET) is UTC itself; summer (WEST) UTC+1.
    expect(next(daily('Europe/Lisbon', '08:00'), '2026-03-28T12:00:00Z')).toBe('2026-03-29T07:00:00.000Z');
    expect(next(daily('Europe/Lisbon', '01:30'), '2026-10-24T23:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(next(daily('Europe/Lisbon', '01:30'), '2026-10-25T00:30:00Z')).toBe('2026-10-26T01:30:00.000Z');
    expect(next(monthly('Europe/Lisbon', '01:30', 25), '2026-10-01T00:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
  });

  it('São Paulo keeps UTC-3 all year: no shift in November, where it once sprang forward', () => {
    expect(next(daily('America/Sao_Paulo', '00:00'), '2026-11-01T00:00:00Z')).toBe('2026-11-01T03:00:00.000Z');
    expect(next(daily('America/Sao_Paulo', '00:00'), '2026-11-01T03:00:00Z')).toBe('2026-11-02T03:00:00.000Z');
  });
});
