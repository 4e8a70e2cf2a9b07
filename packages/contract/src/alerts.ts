import { z } from 'zod';
import { directoryId, isoDate } from './fields.ts';
import { ALERTA_MESSAGES, EVENTOS_ALERTA } from './alert-constants.ts';
import { MAX_DESTINATARIOS } from './subscription-constants.ts';

/**
 * Alerts to the people who look after the panels (docs/requirements.md#alerts): a message when a dataset's refresh
 * fails or a panel's report becomes unavailable, and one when it is over, to the people and groups an administrator
 * chose.
 */

// One source, zod-free for the web app.
export * from './alert-constants.ts';

/** PUT /alertas: the events on, and who receives them (people and Entra groups). */
export const alertasBody = z
  .object(
    {
      eventos: z
        .array(z.enum(EVENTOS_ALERTA, { error: ALERTA_MESSAGES.eventos }), { error: ALERTA_MESSAGES.eventos })
        .max(EVENTOS_ALERTA.length, ALERTA_MESSAGES.eventos),
      // As an administrator's subscription names them, but none is fine while every event is off.
      destinatarios: z.object(
        {
          usuarios: z
            .array(directoryId('Cada pessoa (destinatarios.usuarios)'), {
              error: 'As pessoas (destinatarios.usuarios) devem ser uma lista de ids.',
            })
            .max(MAX_DESTINATARIOS, `No máximo ${MAX_DESTINATARIOS} pessoas.`)
            .default([]),
          grupos: z
            .array(directoryId('Cada grupo (destinatarios.grupos)'), {
              error: 'Os grupos (destinatarios.grupos) devem ser uma lista de ids.',
            })
            .max(MAX_DESTINATARIOS, `No máximo ${MAX_DESTINATARIOS} grupos.`)
            .default([]),
        },
        { error: 'Os destinatários (destinatarios) devem ser um objeto com usuarios e grupos.' },
      ),
    },
    { error: 'Envie eventos e destinatarios.' },
  )
  .refine((d) => d.eventos.length === 0 || d.destinatarios.usuarios.length + d.destinatarios.grupos.length > 0, {
    error: ALERTA_MESSAGES.semDestinatarios,
  });
export type AlertasBody = z.input<typeof alertasBody>;
export type AlertasPut = z.output<typeof alertasBody>;

const pessoa = z.object({ id: z.string(), displayName: z.string(), email: z.string() });
const grupo = z.object({ id: z.string(), displayName: z.string() });

/** An incident: open while the failure or the unavailability lasts, each of its two notices with when it was sent. */
export const incidenteAlerta = z
  .object({
    id: z.string(),
    evento: z.enum(EVENTOS_ALERTA),
    /** The dataset's panels, or the panel, by name. */
    titulo: z.string(),
    /** Power BI's message, or the health check's. */
    mensagem: z.string().nullable(),
    paineis: z.array(z.object({ id: z.number().int(), nome: z.string() })),
    abertoEm: isoDate,
    /** Null while open. */
    fechadoEm: isoDate.nullable(),
    /** When the message that opened it was sent; null when not (yet, or never: the event was off). */
    avisoAberturaEm: isoDate.nullable(),
    avisoFechamentoEm: isoDate.nullable(),
  })
  .meta({ id: 'IncidenteAlerta' });
export type IncidenteAlerta = z.infer<typeof incidenteAlerta>;

/** GET /alertas: the settings, with the recipients by name, the incidents open now and the last ones closed. */
export const alertas = z
  .object({
    eventos: z.array(z.enum(EVENTOS_ALERTA)),
    destinatarios: z.object({ usuarios: z.array(pessoa), grupos: z.array(grupo) }),
    abertos: z.array(incidenteAlerta),
    encerrados: z.array(incidenteAlerta),
  })
  .meta({ id: 'Alertas' });
export type Alertas = z.infer<typeof alertas>;
