import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { loadGroups, seedGroups } from './groups.repository.ts';

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
