import type { Assinatura } from '@paineis/contract/subscriptions';
import { formatDateMinutes, formatInteger } from '../../../lib/format.ts';
import { searchKey } from '../../../lib/search-key.ts';

/** A row of 'Assinaturas': the subscription and the text the filter looks in, worked out once per answer. */
export interface SubscriptionRow {
  assinatura: Assinatura;
  search: string;
}

export function subscriptionRows(assinaturas: readonly Assinatura[]): SubscriptionRow[] {
  return assinaturas.map((assinatura) => {
    const { nomePainel, dono, destinatarios } = assinatura;
    const people = destinatarios?.usuarios.flatMap((p) => [p.displayName, p.email]) ?? [];
    const groups = destinatarios?.grupos.map((g) => g.displayName) ?? [];
    // Newlines keep a query from matching across the end of one field and the start of the next.
    const text = [nomePainel, dono.displayName, dono.email, ...people, ...groups].join('\n');
    return { assinatura, search: searchKey(text) };
  });
}

/**
 * The rows whose panel, owner or recipients (names, e-mails, groups) contain the query, ignoring case and accents;
 * with `onlyFailed`, only those whose last delivery failed.
 */
export function filterSubscriptionRows(rows: SubscriptionRow[], query: string, onlyFailed: boolean): SubscriptionRow[] {
  const needle = searchKey(query);
  if (!needle && !onlyFailed) return rows;
  return rows.filter(
    (row) => (!onlyFailed || row.assinatura.ultimaFalha !== null) && (!needle || row.search.includes(needle)),
  );
}

const plural = (n: number, one: string, many: string) => `${formatInteger(n)} ${n === 1 ? one : many}`;

/** 'Só o dono', or how many people and groups receive it: '3 pessoas, 1 grupo'. */
export function recipientsLabel(destinatarios: Assinatura['destinatarios']): string {
  if (destinatarios === null) return 'Só o dono';
  return `${plural(destinatarios.usuarios.length, 'pessoa', 'pessoas')}, ${plural(destinatarios.grupos.length, 'grupo', 'grupos')}`;
}

/** '12 de 40 assinaturas'. */
export const subscriptionsCount = (shown: number, total: number) =>
  `${formatInteger(shown)} de ${plural(total, 'assinatura', 'assinaturas')}`;

/** 'Falha em 27/11/2026 07:00: {motivo}'. */
export const failureText = (falha: NonNullable<Assinatura['ultimaFalha']>) =>
  `Falha em ${formatDateMinutes(new Date(falha.em))}: ${falha.motivo}`;
