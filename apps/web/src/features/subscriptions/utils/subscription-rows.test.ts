import { describe, expect, it } from 'vitest';
import { assinatura } from '../../../test/data-generators.ts';
import { filterSubscriptionRows, recipientsLabel, subscriptionRows, subscriptionsCount } from './subscription-rows.ts';

const pessoa = (n: number) => ({ id: `u${n}`, displayName: `Pessoa ${n}`, email: `p${n}@x.com` });

describe('recipientsLabel', () => {
  it("says 'Só o dono' for the owner alone, else how many people and groups, in the singular for one", () => {
    expect(recipientsLabel(null)).toBe('Só o dono');
    expect(recipientsLabel({ usuarios: [pessoa(1)], grupos: [] })).toBe('1 pessoa, 0 grupos');
    expect(recipientsLabel({ usuarios: [], grupos: [{ id: 'g', displayName: 'G' }] })).toBe('0 pessoas, 1 grupo');
    const many = Array.from({ length: 1200 }, (_, i) => pessoa(i));
    expect(recipientsLabel({ usuarios: many, grupos: [] })).toBe('1.200 pessoas, 0 grupos');
  });
});

describe('subscriptionsCount', () => {
  it("reads 'X de Y assinaturas'", () => {
    expect(subscriptionsCount(0, 1)).toBe('0 de 1 assinatura');
    expect(subscriptionsCount(12, 1500)).toBe('12 de 1.500 assinaturas');
  });
});

describe('filterSubscriptionRows', () => {
  const rows = subscriptionRows([
    assinatura({ id: 'a', nomePainel: 'Gestão de Frota' }),
    assinatura({
      id: 'b',
      destinatarios: { usuarios: [pessoa(7)], grupos: [{ id: 'g', displayName: 'Diretoria Jurídica' }] },
      ultimaFalha: { em: '2026-11-05T10:00:00.000Z', motivo: 'x' },
    }),
  ]);
  const ids = (query: string, onlyFailed = false) =>
    filterSubscriptionRows(rows, query, onlyFailed).map((r) => r.assinatura.id);

  it('finds by panel, owner, recipient and group, without regard to case or accents', () => {
    expect(ids('')).toEqual(['a', 'b']);
    expect(ids('GESTAO')).toEqual(['a']);
    expect(ids('bruno@')).toEqual(['a', 'b']);
    expect(ids('p7@x')).toEqual(['b']);
    expect(ids('juridica')).toEqual(['b']);
    // Not across the end of one field and the start of the next.
    expect(ids('frotabruno')).toEqual([]);
  });

  it('keeps only those whose last delivery failed when asked', () => {
    expect(ids('', true)).toEqual(['b']);
    expect(ids('gestao', true)).toEqual([]);
  });
});
