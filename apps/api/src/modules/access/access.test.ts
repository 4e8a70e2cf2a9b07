import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AcessoPainel } from '@paineis/contract/groups';
import { PANEL_NOT_FOUND } from '@paineis/contract/panels';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panel, seedGroups } from '../../../test/fixtures.ts';
import { REFUSED, USER_NOT_FOUND } from './access-explained.ts';

const COMERCIAL = '0f0f0f0f-0000-4000-8000-000000000001';
const SUL = '0f0f0f0f-0000-4000-8000-000000000002';
const LITORAL = '0f0f0f0f-0000-4000-8000-000000000003';

/** "Who can open this, and why", and "why can this person open it, or not" (docs/decisions/018-access-by-group.md). */
describe('access explained', () => {
  const ctx = useTestApp();

  /** Comercial ⊃ Comercial - Sul ⊃ Litoral ⊃ Ana; Bia linked directly; Caio in nothing; Duda inactive, linked. */
  async function setup() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br', displayName: 'Zélia Admin' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br', displayName: 'Ana' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br', displayName: 'Bia' });
    const caio = await createUser(ctx.db, { email: 'caio@empresa.com.br', displayName: 'Caio' });
    const duda = await createUser(ctx.db, { email: 'duda@empresa.com.br', displayName: 'Duda', active: false });
    await seedGroups(ctx.database, [
      { id: COMERCIAL, nome: 'Comercial', groups: [SUL] },
      { id: SUL, nome: 'Comercial - Sul', groups: [LITORAL] },
      { id: LITORAL, nome: 'Litoral', people: [ana.id] },
    ]);
    const metas = await panel(ctx.db, { nomePainel: 'Metas' });
    const vendas = await panel(ctx.db, {
      nomePainel: 'Vendas',
      usaRls: true,
      rlsConfigurations: [
        { roleName: 'Sul', userEmails: [], grupos: [SUL] },
        { roleName: 'Bia', userEmails: ['bia@empresa.com.br'] },
      ],
    });
    await link(ctx.db, metas.id, [bia.id, duda.id]);
    await link(ctx.db, vendas.id, [caio.id]);
    const token = await ctx.tokenFor(admin);
    await ctx.request('POST', `/api/paineis/${metas.id}/grupos`, { token, body: [COMERCIAL] });
    await ctx.request('POST', `/api/paineis/${vendas.id}/grupos`, { token, body: [COMERCIAL] });
    return { token, admin, ana, bia, caio, duda, metas, vendas };
  }

  it('says who can open a panel: admins, direct links and groups with the path, by name; not the inactive', async () => {
    const s = await setup();
    const res = await ctx.request('GET', `/api/paineis/${s.metas.id}/acesso`, { token: s.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      pessoas: [
        {
          usuarioId: s.ana.id,
          nome: 'Ana',
          email: 'ana@empresa.com.br',
          motivos: [
            {
              tipo: 'grupo',
              grupo: { id: COMERCIAL, nome: 'Comercial', publico: false },
              via: ['Comercial', 'Comercial - Sul', 'Litoral'],
            },
          ],
        },
        { usuarioId: s.bia.id, nome: 'Bia', email: 'bia@empresa.com.br', motivos: [{ tipo: 'direto' }] },
        {
          usuarioId: s.admin.id,
          nome: 'Zélia Admin',
          email: 'admin@empresa.com.br',
          motivos: [{ tipo: 'administrador' }],
        },
      ],
      gruposSemEfeito: [],
    });
  });

  it('answers again from memory, with its ETag, until a link, a membership or a name changes', async () => {
    const s = await setup();
    const url = `/api/paineis/${s.metas.id}/acesso`;
    const names = async () => {
      const res = await ctx.request('GET', url, { token: s.token });
      expect(res.statusCode).toBe(200);
      return { etag: String(res.headers.etag), names: res.json<AcessoPainel>().pessoas.map((p) => p.nome) };
    };
    const first = await names();
    expect(first.names).toEqual(['Ana', 'Bia', 'Zélia Admin']);
    const again = await ctx.request('GET', url, { token: s.token, headers: { 'if-none-match': first.etag } });
    expect(again.statusCode).toBe(304);

    await link(ctx.db, s.metas.id, [s.bia.id, s.caio.id]);
    expect((await names()).names).toEqual(['Ana', 'Bia', 'Caio', 'Zélia Admin']);
    await seedGroups(ctx.database, [
      { id: COMERCIAL, nome: 'Comercial', groups: [SUL] },
      { id: SUL, nome: 'Comercial - Sul', groups: [LITORAL] },
      { id: LITORAL, nome: 'Litoral' },
    ]);
    expect((await names()).names).toEqual(['Bia', 'Caio', 'Zélia Admin']);
    await ctx.db.execute(sql`update usuarios set display_name = 'Abel' where id = ${s.caio.id}`);
    expect((await names()).names).toEqual(['Abel', 'Bia', 'Zélia Admin']);
  });

  it('explains a person: every panel, whether they may open it and why, their RLS roles and why, or why not', async () => {
    const s = await setup();
    const of = async (id: string) =>
      (await ctx.request('GET', `/api/usuarios365/${encodeURIComponent(id)}/acesso`, { token: s.token })).json();
    const ana = await of(s.ana.id);
    expect(ana.pessoa).toEqual({
      id: s.ana.id,
      nome: 'Ana',
      email: 'ana@empresa.com.br',
      administrador: false,
      ativo: true,
    });
    const viaComercial = {
      tipo: 'grupo',
      grupo: { id: COMERCIAL, nome: 'Comercial', publico: false },
      via: ['Comercial', 'Comercial - Sul', 'Litoral'],
    };
    expect(ana.paineis).toEqual([
      expect.objectContaining({
        nomePainel: 'Metas',
        podeAbrir: true,
        motivos: [viaComercial],
        papeisRls: [],
        recusa: null,
        gruposSemEfeito: [],
      }),
      expect.objectContaining({
        nomePainel: 'Vendas',
        podeAbrir: true,
        motivos: [viaComercial],
        papeisRls: [
          {
            papel: 'Sul',
            motivos: [
              {
                tipo: 'grupo',
                grupo: { id: SUL, nome: 'Comercial - Sul', publico: false },
                via: ['Comercial - Sul', 'Litoral'],
              },
            ],
          },
        ],
        recusa: null,
      }),
    ]);
    // Caio is linked to Vendas, but no role lists him; and nothing links him to Metas.
    const caio = await of(s.caio.id);
    expect(
      caio.paineis.map((p: { nomePainel: string; podeAbrir: boolean; recusa: string | null }) => [
        p.nomePainel,
        p.podeAbrir,
        p.recusa,
      ]),
    ).toEqual([
      ['Metas', false, REFUSED.notLinked],
      ['Vendas', false, REFUSED.noRole],
    ]);
    const duda = await of(s.duda.id);
    expect(duda.paineis[0]).toMatchObject({
      nomePainel: 'Metas',
      podeAbrir: false,
      motivos: [{ tipo: 'direto' }],
      recusa: REFUSED.inactive,
    });
    const admin = await of(s.admin.id);
    expect(admin.paineis[1]).toMatchObject({
      nomePainel: 'Vendas',
      podeAbrir: true,
      motivos: [{ tipo: 'administrador' }],
      papeisRls: [
        { papel: 'Sul', motivos: [{ tipo: 'administrador' }] },
        { papel: 'Bia', motivos: [{ tipo: 'administrador' }] },
      ],
    });
  });

  it('agrees with the opening itself: whoever it says may open a panel can, and nobody else', async () => {
    const s = await setup();
    const listed = (await ctx.request('GET', `/api/paineis/${s.metas.id}/acesso`, { token: s.token })).json<{
      pessoas: { usuarioId: string }[];
    }>();
    const allowed = new Set(listed.pessoas.map((p) => p.usuarioId));
    for (const person of [s.ana, s.bia, s.caio]) {
      const visible = (await ctx.request('GET', '/api/paineis', { token: await ctx.tokenFor(person) }))
        .json<{ id: number }[]>()
        .some((p) => p.id === s.metas.id);
      expect(visible, person.email).toBe(allowed.has(person.id));
    }
  });

  it('refuses unknown panels and people (404), bad ids (400) and non-admins (403)', async () => {
    const s = await setup();
    const get = (url: string, token = s.token) => ctx.request('GET', url, { token });
    expect((await get('/api/paineis/9999/acesso')).json()).toEqual({ message: PANEL_NOT_FOUND });
    expect((await get('/api/usuarios365/ninguem/acesso')).json()).toEqual({ message: USER_NOT_FOUND });
    expect((await get('/api/paineis/abc/acesso')).statusCode).toBe(400);
    expect((await get(`/api/usuarios365/${'x'.repeat(201)}/acesso`)).statusCode).toBe(400);
    const user = await ctx.tokenFor(s.ana);
    expect((await get(`/api/paineis/${s.metas.id}/acesso`, user)).statusCode).toBe(403);
    expect((await get(`/api/usuarios365/${s.ana.id}/acesso`, user)).statusCode).toBe(403);
  });
});
