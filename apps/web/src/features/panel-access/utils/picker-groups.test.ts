import { describe, expect, it } from 'vitest';
import { grupo365, grupoVinculado } from '../../../test/data-generators.ts';
import { filterGroups, membersLabel, preparePickerGroups, sameIds, selectedGroupsFirst } from './picker-groups.ts';

const GROUPS = [
  grupo365({ id: 'g-fin', nome: 'Financeiro', descricao: 'Contas a pagar e a receber' }),
  grupo365({ id: 'g-com', nome: 'Comercial', descricao: 'Equipe de vendas' }),
  grupo365({ id: 'g-ope', nome: 'Área de Operações', descricao: null, tipo: 'microsoft365' }),
];

describe('preparePickerGroups', () => {
  it('sorts by name (pt-BR) and keeps type, description and member count', () => {
    const groups = preparePickerGroups(GROUPS, []);
    expect(groups.map((g) => g.nome)).toEqual(['Área de Operações', 'Comercial', 'Financeiro']);
    expect(groups[0]).toMatchObject({ tipo: 'microsoft365', descricao: null, search: 'area de operacoes' });
    expect(groups[1]!.search).toBe('comercial\nequipe de vendas');
  });

  it('gives a linked group the directory does not list a row of its own, once, without type or members', () => {
    const ex = grupoVinculado({ id: 'g-ex', nome: 'Diretoria antiga' });
    const groups = preparePickerGroups(GROUPS, [ex, ex, grupoVinculado({ id: 'g-fin', nome: 'Financeiro' })]);
    expect(groups.map((g) => g.id)).toEqual(['g-ope', 'g-com', 'g-ex', 'g-fin']);
    expect(groups[2]).toMatchObject({ nome: 'Diretoria antiga', tipo: null, membros: null, descricao: null });
  });
});

describe('filterGroups', () => {
  const groups = preparePickerGroups(GROUPS, []);

  it('matches the name or the description, ignoring case and accents', () => {
    expect(filterGroups(groups, ' OPERACÕES ').map((g) => g.id)).toEqual(['g-ope']);
    expect(filterGroups(groups, 'area').map((g) => g.id)).toEqual(['g-ope']);
    expect(filterGroups(groups, 'VENDAS').map((g) => g.id)).toEqual(['g-com']);
    expect(filterGroups(groups, 'a receber').map((g) => g.id)).toEqual(['g-fin']);
    expect(filterGroups(groups, 'ninguém')).toEqual([]);
  });

  it('does not match across the end of the name and the start of the description', () => {
    expect(filterGroups(groups, 'comercial equipe')).toEqual([]);
  });

  it('answers the list itself for an empty query', () => {
    expect(filterGroups(groups, '   ')).toBe(groups);
  });
});

describe('selectedGroupsFirst', () => {
  it('puts the selected first, each part in the order given', () => {
    const groups = preparePickerGroups(GROUPS, []);
    expect(selectedGroupsFirst(groups, new Set(['g-fin', 'g-ope'])).map((g) => g.id)).toEqual([
      'g-ope',
      'g-fin',
      'g-com',
    ]);
  });
});

describe('membersLabel', () => {
  it('writes one member in the singular and thousands with a dot', () => {
    expect(membersLabel(0)).toBe('0 membros');
    expect(membersLabel(1)).toBe('1 membro');
    expect(membersLabel(2)).toBe('2 membros');
    expect(membersLabel(12345)).toBe('12.345 membros');
  });
});

describe('sameIds', () => {
  it('compares ids as sets', () => {
    expect(sameIds(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameIds(['a', 'b'], ['a'])).toBe(false);
    expect(sameIds([], [])).toBe(true);
    expect(sameIds(['a'], ['b'])).toBe(false);
  });
});
