import { describe, expect, it, vi } from 'vitest';
import type { SensorContext } from '@dnd-kit/core';
import type { GrupoPaineis, Painel } from '@paineis/contract/panels';
import { normalizeSearch } from '@paineis/contract/text';
import { grupoPaineis, painel } from '../../../test/data-generators.ts';
import { KEYBOARD_STEP_PX, panelKeyboardCoordinates } from './keyboard-coordinates.ts';
import {
  computeDrop,
  filterGroups,
  groupDropId,
  indexPanels,
  normalizedNames,
  parseDropTarget,
  renumber,
} from './reorder.ts';

const p = (id: number, nomePainel: string, classificacaoId: number, ordem: number): Painel =>
  painel({ id, nomePainel, classificacaoId, classificacaoNome: `C${classificacaoId}`, ordem });
const g = (id: number, nome: string, paineis: Painel[]): GrupoPaineis => grupoPaineis({ id, nome, paineis });

// Ordens as a real database may hold them: with gaps, not starting at 1.
const groups = (): GrupoPaineis[] => [
  g(1, 'Vendas', [p(11, 'A', 1, 5), p(12, 'B', 1, 7), p(13, 'C', 1, 9)]),
  g(2, 'Gestão', [p(21, 'D', 2, 1), p(22, 'E', 2, 2)]),
  g(3, 'Vazia', []),
  g(0, 'Sem Classificação', [p(31, 'F', 0, 1)]),
];
const ids = (grupo: GrupoPaineis | undefined) => grupo?.paineis.map((x) => x.id);

describe('computeDrop within a classification', () => {
  it('moves down: the dropped panel takes the target place; the group is renumbered from 1', () => {
    const before = groups();
    const drop = computeDrop(before, 11, 13)!;
    expect(drop.kind).toBe('reorder');
    expect(ids(drop.groups[0])).toEqual([12, 13, 11]);
    expect(drop.groups[0]!.paineis.map((x) => x.ordem)).toEqual([1, 2, 3]);
    expect(drop.items).toEqual([
      { painelId: 12, novaOrdem: 1 },
      { painelId: 13, novaOrdem: 2 },
      { painelId: 11, novaOrdem: 3 },
    ]);
    expect(drop.position).toBe(3);
    expect(drop.painel).toMatchObject({ id: 11, ordem: 3 });
    // Other groups keep their identity (their cards are not re-rendered); the input is not mutated.
    expect(drop.groups[1]).toBe(before[1]);
    expect(ids(before[0])).toEqual([11, 12, 13]);
  });

  it('moves up', () => {
    const drop = computeDrop(groups(), 13, 12)!;
    expect(ids(drop.groups[0])).toEqual([11, 13, 12]);
    expect(drop.position).toBe(2);
  });

  it('is nothing when dropped on itself, on nothing known, or when the panel is unknown', () => {
    expect(computeDrop(groups(), 12, 12)).toBeNull();
    expect(computeDrop(groups(), 12, 999)).toBeNull();
    expect(computeDrop(groups(), 999, 12)).toBeNull();
    expect(computeDrop(groups(), 12, 'outra-coisa')).toBeNull();
    expect(computeDrop(groups(), 12, groupDropId(42))).toBeNull();
  });
});

describe('computeDrop onto another classification', () => {
  it('coming from above, takes the target panel’s place there; renumbers that group and leaves a gap behind', () => {
    const drop = computeDrop(groups(), 12, 22)!;
    if (drop.kind !== 'move') throw new Error('esperava mover');
    expect(ids(drop.groups[0])).toEqual([11, 13]);
    expect(drop.groups[0]!.paineis.map((x) => x.ordem)).toEqual([5, 9]);
    expect(drop.groups[0]!.quantidadePaineis).toBe(2);
    expect(ids(drop.groups[1])).toEqual([21, 12, 22]);
    expect(drop.groups[1]!.quantidadePaineis).toBe(3);
    expect(drop.painel).toMatchObject({ id: 12, classificacaoId: 2, classificacaoNome: 'Gestão', ordem: 2 });
    expect(drop.position).toBe(2);
    expect(drop.from.id).toBe(1);
    expect(drop.to.id).toBe(2);
    expect(drop.items).toEqual([
      { painelId: 21, novaOrdem: 1 },
      { painelId: 12, novaOrdem: 2 },
      { painelId: 22, novaOrdem: 3 },
    ]);
  });

  it('coming from below, goes after the target panel (so the last place of a group above can be reached)', () => {
    const drop = computeDrop(groups(), 21, 13)!;
    expect(ids(drop.groups[0])).toEqual([11, 12, 13, 21]);
    expect(drop.position).toBe(4);
    expect(drop.painel).toMatchObject({ classificacaoId: 1, ordem: 4 });
    expect(computeDrop(groups(), 22, 11)!.position).toBe(2);
  });

  it('into an empty classification: its only panel, nothing to renumber', () => {
    const drop = computeDrop(groups(), 11, groupDropId(3))!;
    if (drop.kind !== 'move') throw new Error('esperava mover');
    expect(ids(drop.groups[2])).toEqual([11]);
    expect(drop.painel).toMatchObject({ classificacaoId: 3, classificacaoNome: 'Vazia', ordem: 1 });
    expect(drop.items).toEqual([]);
  });

  it("drops 'Sem Classificação' once it is empty, as the server does, but keeps empty real classifications", () => {
    const drop = computeDrop(groups(), 31, 11)!;
    expect(drop.groups.map((x) => x.id)).toEqual([1, 2, 3]);
    expect(ids(drop.groups[0])).toEqual([11, 31, 12, 13]);
    const emptied = computeDrop(drop.groups, 21, groupDropId(3))!;
    const again = computeDrop(emptied.groups, 22, groupDropId(3))!;
    expect(again.groups.map((x) => [x.id, x.paineis.length])).toEqual([
      [1, 4],
      [2, 0],
      [3, 2],
    ]);
  });

  it('into Sem Classificação: classificacaoId 0', () => {
    const drop = computeDrop(groups(), 21, 31)!;
    expect(drop.painel).toMatchObject({ classificacaoId: 0, classificacaoNome: 'Sem Classificação', ordem: 1 });
  });
});

describe('helpers', () => {
  it('indexes every panel with its group and position', () => {
    const index = indexPanels(groups());
    expect(index.size).toBe(6);
    expect(index.get(22)).toMatchObject({ groupIndex: 1, index: 1, grupo: { nome: 'Gestão' } });
  });

  it('tells panel ids from empty-classification drop zones', () => {
    expect(parseDropTarget(12)).toEqual({ type: 'painel', id: 12 });
    expect(parseDropTarget(groupDropId(0))).toEqual({ type: 'grupo', id: 0 });
    expect(parseDropTarget('grupo-x')).toBeNull();
    expect(parseDropTarget('12')).toBeNull();
  });

  it('renumbers from 1, keeping unchanged panels as they are', () => {
    const list = [p(1, 'a', 1, 1), p(2, 'b', 1, 5)];
    const { paineis, items } = renumber(list);
    expect(paineis[0]).toBe(list[0]);
    expect(paineis[1]!.ordem).toBe(2);
    expect(items).toEqual([
      { painelId: 1, novaOrdem: 1 },
      { painelId: 2, novaOrdem: 2 },
    ]);
  });

  it('searches without case or accents, trimming the query', () => {
    expect(normalizeSearch('  Gestão de CRÉDITO ')).toBe('gestao de credito');
    const list = [g(1, 'X', [p(1, 'Orçamento Anual', 1, 1), p(2, 'Vendas', 1, 2)]), g(2, 'Y', [p(3, 'Ação', 2, 1)])];
    const names = normalizedNames(list);
    expect(filterGroups(list, 'ORCAMENTO', names).map((x) => ids(x))).toEqual([[1]]);
    expect(filterGroups(list, 'acao', names).map((x) => x.nome)).toEqual(['Y']);
    expect(filterGroups(list, 'zzz', names)).toEqual([]);
    expect(filterGroups(list, '   ', names)).toBe(list);
    // The count badge keeps the classification's real size while searching.
    expect(filterGroups(list, 'vendas', names)[0]!.quantidadePaineis).toBe(2);
  });
});

describe('keyboard coordinates', () => {
  const context = { active: null, collisionRect: null } as unknown as SensorContext;
  const key = (code: string) => ({ code, preventDefault: vi.fn() }) as unknown as KeyboardEvent;

  it(`moves by the ${KEYBOARD_STEP_PX} px keyboard step where there is no panel to jump to (requirements: ui-constants)`, () => {
    const args = { active: 1, currentCoordinates: { x: 100, y: 200 }, context };
    expect(KEYBOARD_STEP_PX).toBe(25);
    expect(panelKeyboardCoordinates(key('ArrowDown'), args)).toEqual({ x: 100, y: 225 });
    expect(panelKeyboardCoordinates(key('ArrowUp'), args)).toEqual({ x: 100, y: 175 });
    expect(panelKeyboardCoordinates(key('ArrowRight'), args)).toEqual({ x: 125, y: 200 });
    expect(panelKeyboardCoordinates(key('ArrowLeft'), args)).toEqual({ x: 75, y: 200 });
    expect(panelKeyboardCoordinates(key('KeyA'), args)).toBeUndefined();
  });
});
