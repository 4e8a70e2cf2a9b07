import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Alertas, AlertasPut, EventoAlerta, IncidenteAlerta } from '@paineis/contract/alerts';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { MailError, type MailTransport } from '../../integrations/mail/mail-transport.ts';
import type { AuditActor } from '../audit/audit.ts';
import { datasetsOfPanels } from '../power-bi/freshness.ts';
import { panelChecks } from '../power-bi/panel-health.ts';
import { directoryEntries } from '../users/users.service.ts';
import { alertMessage, alertSubject } from './alert-message.ts';
import {
  alertRecipientIds,
  alertSettings,
  claimNotices,
  closeIncident,
  finishNotice,
  incidentNow,
  listedIncidents,
  openIncident,
  openIncidents,
  recordSentTo,
  releaseNotices,
  replaceAlertSettings,
  type Incident,
} from './alerts.repository.ts';
import { MailGate } from './mail-gate.ts';
import { peopleAndMembers, type Recipient } from './recipients.ts';

/**
 * Alerts to the people who look after the panels (docs/requirements.md#alerts). After each freshness round and each
 * health round, `reconcileAlerts` compares what the round stored with the incidents open: it opens an incident for a
 * dataset whose refresh failed or a panel whose report is unavailable, closes it when it is over, and sends each
 * incident's two notices (opened, over) once, to the recipients of the moment, recorded as the mail server accepts
 * each message. Incidents are tracked whether or not their event is on; a notice goes only for an event on with
 * someone to receive it.
 */

/** How long a reconciler holds an incident's notices: longer than the few messages of a notice take. */
const NOTICE_LEASE_MS = 5 * 60_000;
/** The incidents closed shown besides the open ones. */
const CLOSED_LISTED = 10;

/** This process's name in the notices' claims and the mail gate's places. */
const PROCESS_ID = `${hostname()}:${process.pid}:alertas:${randomUUID().slice(0, 8)}`;

export interface AlertDeps {
  db: Db;
  mail: MailTransport | null;
  config: Pick<Config, 'publicUrl' | 'port'>;
  log: FastifyBaseLogger;
  /** The moment (tests inject theirs). */
  now?: () => Date;
  /** A name for this reconciler in the claims (this process's by default). */
  instanceId?: string;
  /** The round's stop: a wait for the mail gate ends, and nothing more is sent. */
  signal?: AbortSignal;
}

/** The recipients now: the people named and the members of the groups named, each once, active and with an e-mail. */
async function recipientsNow(db: Db, ids: { usuarios: string[]; grupos: string[] }): Promise<Recipient[]> {
  return (await peopleAndMembers(db, ids)).filter((person) => person.ativo && person.email.trim() !== '');
}

/** What the round stored, per key: broken now (with what the incident says), over, or neither yet. */
type Verdict = { broken: { paineis: { id: number; nome: string }[]; mensagem: string | null } } | 'over' | 'gone';

/**
 * The state of every key of the event. 'falha-atualizacao', per dataset a panel reads: broken when its last refresh
 * failed; over when the last one completed; a refresh running, cancelled or of an unknown end leaves it as it was (the
 * data is still not refreshed); a dataset no panel reads any more, or one now in real time (no refreshes), is gone.
 * 'painel-indisponivel', per panel: broken when its report was found gone or unreadable, over when found again; not
 * checked yet, or Power BI's own error, leaves it as it was; a deleted panel is gone.
 */
async function verdicts(db: Db, evento: EventoAlerta): Promise<Map<string, Verdict | 'unchanged'>> {
  const found = new Map<string, Verdict | 'unchanged'>();
  if (evento === 'falha-atualizacao') {
    for (const d of await datasetsOfPanels(db)) {
      if (d.status === 'falhou') found.set(d.datasetId, { broken: { paineis: d.paineis, mensagem: d.mensagem } });
      else if (d.status === 'concluida') found.set(d.datasetId, 'over');
      else if (d.status === 'tempo-real') found.set(d.datasetId, 'gone');
      else found.set(d.datasetId, 'unchanged');
    }
  } else {
    for (const p of await panelChecks(db)) {
      const key = String(p.painelId);
      if (p.quebrado) {
        found.set(key, { broken: { paineis: [{ id: p.painelId, nome: p.nomePainel }], mensagem: p.mensagem } });
      } else if (p.estado === 'ok') found.set(key, 'over');
      else found.set(key, 'unchanged');
    }
  }
  return found;
}

/**
 * Opens and closes this event's incidents as the last round found them, then sends their notices still to be sent.
 * Safe to run on several instances at once: one incident per event and key is open (a unique index), a close applies
 * once, and each notice is sent by the reconciler holding its claim. Never throws: a failure is logged and what is
 * left is done at the next reconcile.
 */
export async function reconcileAlerts(deps: AlertDeps, evento: EventoAlerta): Promise<void> {
  const now = deps.now ?? (() => new Date());
  try {
    const settings = await alertRecipientIds(deps.db);
    const on = settings.eventos.includes(evento) && (await recipientsNow(deps.db, settings)).length > 0 ? true : false;
    const states = await verdicts(deps.db, evento);
    const open = await openIncidents(deps.db, evento);
    const openKeys = new Set(open.map((i) => i.chave));
    for (const incident of open) {
      const verdict = states.get(incident.chave) ?? 'gone';
      if (verdict === 'over') await closeIncident(deps.db, incident.id, now(), on);
      else if (verdict === 'gone') await closeIncident(deps.db, incident.id, now(), false);
    }
    for (const [chave, verdict] of states) {
      if (typeof verdict !== 'object' || openKeys.has(chave)) continue;
      await openIncident(deps.db, {
        evento,
        chave,
        ...verdict.broken,
        abertoEm: now(),
        avisoAbertura: on ? 'pendente' : 'dispensado',
      });
    }
    await sendNotices(deps, evento, now);
  } catch (err) {
    deps.log.error({ err, evento }, 'alertas: a conciliação falhou; fica para a próxima rodada');
  }
}

/** This reconciler's claim on an incident is gone (its lease lapsed) or the round is stopping. */
class ClaimLost extends Error {}

/** Sends the notices still to be sent of this event's incidents, each claimed by this reconciler alone. */
async function sendNotices(deps: AlertDeps, evento: EventoAlerta, now: () => Date): Promise<void> {
  const { db, mail, log } = deps;
  // Without a transport nothing is sent, and the notices wait for one.
  if (!mail) return;
  const instance = deps.instanceId ?? PROCESS_ID;
  const signal = deps.signal ?? new AbortController().signal;
  const gate = mail.limits
    ? new MailGate(
        {
          db,
          instanceId: instance,
          wait: (ms, s) => sleep(ms, undefined, { signal: s }).catch(() => undefined),
          signal,
        },
        mail.limits,
      )
    : null;
  const start = now();
  const claimed = await claimNotices(db, {
    evento,
    now: start,
    leaseUntil: new Date(start.getTime() + NOTICE_LEASE_MS),
    instance,
  });
  for (const incident of claimed) {
    const leaseEnds = incident.ocupadoAte!.getTime();
    const held = () => {
      if (signal.aborted || now().getTime() >= leaseEnds) throw new ClaimLost();
    };
    try {
      for (let current: Incident | undefined = incident; current; current = await incidentNow(db, current.id)) {
        const aviso =
          current.avisoAbertura === 'pendente'
            ? 'abertura'
            : current.avisoFechamento === 'pendente'
              ? 'fechamento'
              : null;
        if (!aviso) break;
        if (!(await sendNotice(deps, current, aviso, { instance, gate, held, now }))) break;
      }
    } catch (err) {
      if (err instanceof MailError) {
        log.warn({ err, incidenteId: incident.id }, 'alertas: o e-mail falhou; o aviso fica para a próxima rodada');
      } else if (!(err instanceof ClaimLost)) {
        log.error({ err, incidenteId: incident.id }, 'alertas: o aviso falhou');
      }
    } finally {
      await releaseNotices(db, incident.id, instance);
    }
  }
}

/**
 * One notice: to every recipient of the moment not sent it yet, each recorded the moment the mail server accepted it
 * (a process dying between the two is the one way a message goes twice); then the notice is recorded as sent, with
 * its audit record. An event off now, or nobody to receive it, and the notice is not sent (nor ever later). False
 * when the claim was lost.
 */
async function sendNotice(
  deps: AlertDeps,
  incident: Incident,
  aviso: 'abertura' | 'fechamento',
  { instance, gate, held, now }: { instance: string; gate: MailGate | null; held: () => void; now: () => Date },
): Promise<boolean> {
  const { db, config } = deps;
  const mail = deps.mail!;
  const evento = incident.evento;
  const settings = await alertRecipientIds(db);
  const recipients = settings.eventos.includes(evento) ? await recipientsNow(db, settings) : [];
  if (recipients.length === 0) return finishNotice(db, incident.id, instance, aviso, 'dispensado', now());
  const base = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
  const sent = new Set(incident.enviadosPara);
  for (const recipient of recipients) {
    if (sent.has(recipient.id)) continue;
    held();
    const message = alertMessage({
      incidenteId: incident.id,
      evento,
      aviso,
      base,
      recipient,
      paineis: incident.paineis,
      mensagem: incident.mensagem,
    });
    if (gate) await gate.send(mail, message, { held, clock: now, bytes: mail.requestBytes(message) });
    else await mail.send(message);
    if (!(await recordSentTo(db, incident.id, instance, recipient.id))) return false;
    sent.add(recipient.id);
  }
  const people = await directoryEntries(db);
  const finished = await finishNotice(db, incident.id, instance, aviso, 'enviado', now(), {
    objeto: 'alerta',
    acao: 'envio',
    objetoId: incident.id,
    objetoNome: alertSubject(evento, aviso, incident.paineis),
    mudancas: [
      { campo: 'evento', depois: evento },
      { campo: 'aviso', depois: aviso },
      { campo: 'enviadoPara', depois: [...sent].map((id) => people.get(id)?.email ?? id).sort() },
      ...(aviso === 'abertura' && incident.mensagem ? [{ campo: 'mensagem', depois: incident.mensagem }] : []),
    ],
  });
  deps.log.info({ incidenteId: incident.id, evento, aviso, enviados: sent.size }, 'alerta enviado');
  return finished;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function listed(incident: Incident): IncidenteAlerta {
  return {
    id: incident.id,
    evento: incident.evento,
    titulo: incident.paineis.map((p) => p.nome).join(', '),
    mensagem: incident.mensagem,
    paineis: incident.paineis,
    abertoEm: incident.abertoEm.toISOString(),
    fechadoEm: iso(incident.fechadoEm),
    avisoAberturaEm: iso(incident.avisoAberturaEm),
    avisoFechamentoEm: iso(incident.avisoFechamentoEm),
  };
}

/** GET /alertas. */
export async function alertsAnswer(db: Db): Promise<Alertas> {
  const [settings, incidents] = await Promise.all([alertSettings(db), listedIncidents(db, CLOSED_LISTED)]);
  return {
    eventos: settings.eventos,
    destinatarios: { usuarios: settings.usuarios, grupos: settings.grupos },
    abertos: incidents.abertos.map(listed),
    encerrados: incidents.encerrados.map(listed),
  };
}

/** PUT /alertas: replaces the settings (audited), then answers as GET does. */
export async function updateAlerts(db: Db, body: AlertasPut, actor: AuditActor): Promise<Alertas> {
  await replaceAlertSettings(
    db,
    {
      eventos: [...new Set(body.eventos)],
      usuarios: body.destinatarios.usuarios,
      grupos: body.destinatarios.grupos,
    },
    actor,
  );
  return alertsAnswer(db);
}

/** Demo data: the alerts on for both events, to these people. */
export async function seedAlerts(db: Db, usuarios: string[]): Promise<void> {
  await replaceAlertSettings(db, { eventos: ['falha-atualizacao', 'painel-indisponivel'], usuarios, grupos: [] }, null);
}
