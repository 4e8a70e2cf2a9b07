import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { loadGroups, seedGroups, writeGroupChanges } from './groups.repository.ts';

describe('loadGroups', () => {
  const ctx = useTestApp();

  const groups = [
    { id: 'g1', nome: 'Comercial', descricao: null, tipo: 'seguranca' as const, visibilidade: null },
    { id: 'g2', nome: 'Comercial - Sul', descricao: 'Sul', tipo: 'microsoft365' as const, visibilidade: 'Public' },
  ];
  const byMember = (memberships: [string, string, boolean][]) =>
    [...memberships].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));

  it('reads every group and every direct membership, people and nested groups apart', async () => {
    await seedGroups(ctx.db, groups, [
      { grupoId: 'g1', membroId: 'g2', membroTipo: 'grupo' },
      { grupoId: 'g2', membroId: 'p1', membroTipo: 'usuario' },
      { grupoId: 'g1', membroId: 'p2', membroTipo: 'usuario' },
    ]);
    const loaded = await loadGroups(ctx.db);
    expect(loaded.groups.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(groups);
    expect(byMember(loaded.memberships)).toEqual([
      ['g1', 'g2', true],
      ['g2', 'p1', false],
      ['g1', 'p2', false],
    ]);
  });

  it('reads ids holding a tab or a line break as they are', async () => {
    await seedGroups(ctx.db, groups, [
      { grupoId: 'g1', membroId: 'p\t1', membroTipo: 'usuario' },
      { grupoId: 'g2', membroId: 'p\n2', membroTipo: 'usuario' },
    ]);
    expect(byMember((await loadGroups(ctx.db)).memberships)).toEqual([
      ['g1', 'p\t1', false],
      ['g2', 'p\n2', false],
    ]);
  });

  it('reads an empty directory', async () => {
    expect(await loadGroups(ctx.db)).toEqual({ groups: [], memberships: [] });
  });
});

describe('writeGroupChanges', () => {
  const ctx = useTestApp();

  it('merges the objects of one group in a round: a later one with only members@delta keeps the name and the members before it', async () => {
    // Graph may give a group in several objects anywhere in a round (delta-query-groups, "Paging through members in
    // a large group"), and under Prefer: return=minimal an object may carry only its id and members@delta.
    const member = (id: string, removed = false) => ({ id, tipo: 'usuario' as const, removed });
    await writeGroupChanges(
      ctx.database,
      [
        {
          id: 'g1',
          removed: false,
          nome: 'Comercial',
          descricao: 'Vendas',
          tipo: 'seguranca',
          members: [member('p1')],
        },
        { id: 'g2', removed: false, nome: 'Outro', tipo: 'seguranca', members: [member('p3')] },
        { id: 'g1', removed: false, members: [member('p2'), member('p3')] },
        { id: 'g1', removed: false, members: [member('p3', true)] },
        { id: 'g1', removed: false, members: [member('p3')] },
      ],
      true,
      'https://graph.microsoft.com/v1.0/groups/delta?$deltatoken=a',
    );
    const loaded = await loadGroups(ctx.db);
    expect(loaded.groups.find((g) => g.id === 'g1')).toEqual({
      id: 'g1',
      nome: 'Comercial',
      descricao: 'Vendas',
      tipo: 'seguranca',
      visibilidade: null,
    });
    const of = (grupo: string) =>
      loaded.memberships
        .filter(([g]) => g === grupo)
        .map(([, m]) => m)
        .sort();
    expect(of('g1')).toEqual(['p1', 'p2', 'p3']);

    // A later round: removed on one object, added again on a later one (stays); added, then removed (goes).
    await writeGroupChanges(
      ctx.database,
      [
        { id: 'g1', removed: false, members: [member('p1', true), member('p4')] },
        { id: 'g2', removed: false, nome: 'Outro', tipo: 'seguranca', members: [] },
        { id: 'g1', removed: false, members: [member('p1'), member('p4', true)] },
      ],
      false,
      'https://graph.microsoft.com/v1.0/groups/delta?$deltatoken=b',
    );
    const after = await loadGroups(ctx.db);
    expect(after.groups.find((g) => g.id === 'g1')?.nome).toBe('Comercial');
    expect(
      after.memberships
        .filter(([g]) => g === 'g1')
        .map(([, m]) => m)
        .sort(),
    ).toEqual(['p1', 'p2', 'p3']);
  });
});
