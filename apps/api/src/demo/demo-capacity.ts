import type { MotivoCapacidade, PoliticaCapacidade } from '@paineis/contract/capacity';
import type { StandInAzureCapacity } from '@paineis/microsoft-stand-ins/types';
import { CAPACITY_MESSAGES } from '../modules/capacity/capacity.ts';
import { monthStart } from '../modules/capacity/capacity-hours.ts';
import { DEFAULT_POLICY, workingStretch } from '../modules/capacity/capacity-policy.ts';
import type { CapacityChange } from '../modules/capacity/capacity.repository.ts';

/**
 * The demo's Power BI capacity (issue 40): a running A1 in the stand-in's Azure Resource Manager, which every demo
 * report runs on (the stand-in's default Power BI capacity), so pausing it pauses the demo's panels.
 */
export const DEMO_CAPACITY: StandInAzureCapacity = {
  subscriptionId: '5e1f0c2a-7d3b-4c6e-9a8f-0b1d2e3f4a5b',
  resourceGroup: 'rg-paineis-demo',
  name: 'paineisdemo',
  kind: 'embedded',
  sku: 'A1',
  state: 'running',
};

/** How long the demo capacity takes to resume: long enough to see the viewer wait, short enough to wait. */
export const DEMO_RESUME_SECONDS = 10;

const MINUTE = 60_000;

/**
 * The demo capacity's month so far, as the default policy would have run it over the demo's openings, so that
 * '/capacidade' shows hours, savings and a history from the first start: running through working hours; outside them
 * woken by an opening and paused after the idle minutes since the last one (or the stretch's end). Each resume takes
 * DEMO_RESUME_SECONDS and each pause half a minute; the month ends running, as the stand-in starts.
 */
export function demoCapacityHistory(
  openings: readonly { at: number; email: string }[],
  now: Date,
  policy: PoliticaCapacidade = DEFAULT_POLICY,
): CapacityChange[] {
  const sku = DEMO_CAPACITY.sku;
  const idleMs = (policy.pausarAposMinutosOcioso ?? 30) * MINUTE;
  const from = monthStart(now, policy.fusoHorario).toMillis();
  const end = now.getTime();
  const changes: CapacityChange[] = [
    { em: new Date(from), estado: 'pausada', sku, motivo: 'ociosidade', pessoa: null, detalhe: null },
  ];
  let running = false;
  let lastActivity = from;
  const resume = (at: number, motivo: MotivoCapacidade, pessoa: string | null) => {
    running = true;
    lastActivity = at;
    changes.push({ em: new Date(at), estado: 'retomando', sku, motivo, pessoa, detalhe: null });
    changes.push({
      em: new Date(at + DEMO_RESUME_SECONDS * 1000),
      estado: 'ativa',
      sku,
      motivo,
      pessoa,
      detalhe: null,
    });
  };
  // Minute by minute, as the rule runs; an opening within the minute before it.
  const inMonth = openings.filter((o) => o.at >= from && o.at < end).sort((a, b) => a.at - b.at);
  let next = 0;
  for (let minute = from; minute < end; minute += MINUTE) {
    for (; next < inMonth.length && inMonth[next]!.at < minute + MINUTE; next++) {
      const opening = inMonth[next]!;
      if (running) lastActivity = opening.at;
      else resume(opening.at, 'abertura', opening.email);
    }
    const stretch = workingStretch(policy, new Date(minute));
    if (stretch && !running) resume(minute, 'horario', null);
    if (!stretch && running && minute - lastActivity >= idleMs) {
      running = false;
      const detalhe = CAPACITY_MESSAGES.ociosa(Math.floor((minute - lastActivity) / MINUTE));
      changes.push({ em: new Date(minute), estado: 'pausando', sku, motivo: 'ociosidade', pessoa: null, detalhe });
      changes.push({
        em: new Date(minute + 30_000),
        estado: 'pausada',
        sku,
        motivo: 'ociosidade',
        pessoa: null,
        detalhe,
      });
    }
  }
  if (!running) resume(end - DEMO_RESUME_SECONDS * 1000 - 1000, 'externo', null);
  return changes.filter((c) => c.em.getTime() <= end);
}
