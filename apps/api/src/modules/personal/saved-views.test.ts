import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_VISOES_POR_PAINEL, type VisaoSalva } from '@paineis/contract/personal';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';

const NOT_FOUND = { message: 'Painel não encontrado.' };
const VIEW_NOT_FOUND = { message: 'Visão não encontrada.' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('saved views (docs/requirements.md#personal)', () => {
  const ctx = useTestApp();

  async function setup() {
    const ana = await createUser(ctx.db);
    const bia = await createUser(ctx.db);
    const caio = await createUser(ctx.db); // not linked to the panel
    const admin = await createAdmin(ctx.db);
    const vendas = await panel(ctx.db, { nomePainel: 'Vendas' });
    const metas = await panel(ctx.db, { nomePainel: 'Metas' });
    await link(ctx.db, vendas.id, [ana.id, bia.id]);
    await link(ctx.db, metas.id, [ana.id]);
    return {
      ana: await ctx.tokenFor(ana),
      bia: await ctx.tokenFor(bia),
      caio: await ctx.tokenFor(caio),
      admin: await ctx.tokenFor(admin),
      vendas,
      metas,
    };
  }
  const save = (token: string, painelId: number, body: Record<string, unknown>) =>
    ctx.request('POST', `/api/paineis/${painelId}/visoes`, { token, body });
  const count = async () =>
    (await rows<{ n: number }>(ctx.db, sql`select count(*)::int as n from visoes_salvas`))[0]!.n;

  it('saves a view and lists the owner’s own views of the panel by name', async () => {
    const s = await setup();
    const created = await save(s.ana, s.vendas.id, {
      nome: '  Sul em 2025 ',
      estado: 'H4sI estado',
      pagina: 'Pagina1',
    });
    expect(created.statusCode).toBe(201);
    const view = created.json<VisaoSalva>();
    expect(view).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      painelId: s.vendas.id,
      nome: 'Sul em 2025',
      estado: 'H4sI estado',
      pagina: 'Pagina1',
      propria: true,
      doPainel: false,
      salvaPor: null,
      criadaEm: expect.stringMatching(ISO),
      atualizadaEm: expect.stringMatching(ISO),
    });
    await save(s.ana, s.vendas.id, { nome: 'área norte', estado: 'e2' });
    await save(s.ana, s.metas.id, { nome: 'Outra', estado: 'e3' });
    await save(s.bia, s.vendas.id, { nome: 'Da Bia', estado: 'e4' });

    const list = await ctx.request('GET', `/api/paineis/${s.vendas.id}/visoes`, { token: s.ana });
    expect(list.statusCode).toBe(200);
    expect(list.json<VisaoSalva[]>().map((v) => [v.nome, v.pagina])).toEqual([
      ['área norte', null],
      ['Sul em 2025', 'Pagina1'],
    ]);
    const bias = await ctx.request('GET', `/api/paineis/${s.vendas.id}/visoes`, { token: s.bia });
    expect(bias.json<VisaoSalva[]>().map((v) => v.nome)).toEqual(['Da Bia']);
  });

  it('keeps a state as it reads it back: trimmed, with a byte-order mark at its start gone on both engines', async () => {
    const s = await setup();
    // PGlite drops a leading U+FEFF from the values it reads; trimmed on the way in, both engines answer the same.
    const created = await save(s.ana, s.vendas.id, { nome: 'Com BOM', estado: '\ufeffH4sI estado \n' });
    expect(created.statusCode).toBe(201);
    expect(created.json<VisaoSalva>().estado).toBe('H4sI estado');
    const read = await ctx.request('GET', `/api/paineis/${s.vendas.id}/visoes/${created.json<VisaoSalva>().id}`, {
      token: s.bia,
    });
    expect(read.json<VisaoSalva>().estado).toBe('H4sI estado');
  });

  it('opens a shared view for anyone who may open the panel, and for no one else', async () => {
    const s = await setup();
    const view = (await save(s.ana, s.vendas.id, { nome: 'Sul', estado: 'estado-sul' })).json<VisaoSalva>();
    const url = `/api/paineis/${s.vendas.id}/visoes/${view.id}`;

    const own = await ctx.request('GET', url, { token: s.ana });
    expect(own.json()).toEqual(view);
    const shared = await ctx.request('GET', url, { token: s.bia });
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toEqual({ ...view, propria: false });
    expect((await ctx.request('GET', url, { token: s.admin })).json<VisaoSalva>().propria).toBe(false);

    // Caio may not open the panel: as if neither existed.
    const outsider = await ctx.request('GET', url, { token: s.caio });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json()).toEqual(NOT_FOUND);
    // The view's id under another panel is no view of it, even for its owner.
    const elsewhere = await ctx.request('GET', `/api/paineis/${s.metas.id}/visoes/${view.id}`, { token: s.ana });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual(VIEW_NOT_FOUND);
    const unknown = await ctx.request('GET', `/api/paineis/${s.vendas.id}/visoes/${crypto.randomUUID()}`, {
      token: s.ana,
    });
    expect(unknown.json()).toEqual(VIEW_NOT_FOUND);
  });

  it('lets only the owner rename and delete a view; anyone else gets 404 and changes nothing', async () => {
    const s = await setup();
    const view = (await save(s.ana, s.vendas.id, { nome: 'Sul', estado: 'e' })).json<VisaoSalva>();
    const url = `/api/paineis/${s.vendas.id}/visoes/${view.id}`;

    for (const token of [s.bia, s.admin]) {
      const rename = await ctx.request('PATCH', url, { token, body: { nome: 'Minha' } });
      expect(rename.statusCode).toBe(404);
      expect(rename.json()).toEqual(VIEW_NOT_FOUND);
      expect((await ctx.request('DELETE', url, { token })).statusCode).toBe(404);
    }
    expect((await ctx.request('PATCH', url, { token: s.caio, body: { nome: 'X' } })).json()).toEqual(NOT_FOUND);
    expect((await ctx.request('DELETE', url, { token: s.caio })).json()).toEqual(NOT_FOUND);
    expect((await ctx.request('GET', url, { token: s.ana })).json<VisaoSalva>().nome).toBe('Sul');

    const renamed = await ctx.request('PATCH', url, { token: s.ana, body: { nome: ' Sul 2025 ' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: view.id, nome: 'Sul 2025', estado: 'e', propria: true });
    expect(Date.parse(renamed.json<VisaoSalva>().atualizadaEm)).toBeGreaterThanOrEqual(Date.parse(view.criadaEm));

    expect((await ctx.request('DELETE', url, { token: s.ana })).statusCode).toBe(204);
    expect((await ctx.request('DELETE', url, { token: s.ana })).statusCode).toBe(404);
    expect(await count()).toBe(0);
  });

  it('refuses a second view of the same name (any case) by the same person on the same panel with 409', async () => {
    const s = await setup();
    expect((await save(s.ana, s.vendas.id, { nome: 'Sul', estado: 'e' })).statusCode).toBe(201);
    const duplicate = await save(s.ana, s.vendas.id, { nome: 'SUL', estado: 'e2' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ message: 'Você já tem uma visão com este nome neste painel.' });
    // Other people, and other panels, may use the name.
    expect((await save(s.bia, s.vendas.id, { nome: 'Sul', estado: 'e' })).statusCode).toBe(201);
    expect((await save(s.ana, s.metas.id, { nome: 'sul', estado: 'e' })).statusCode).toBe(201);

    const other = (await save(s.ana, s.vendas.id, { nome: 'Norte', estado: 'e' })).json<VisaoSalva>();
    const rename = await ctx.request('PATCH', `/api/paineis/${s.vendas.id}/visoes/${other.id}`, {
      token: s.ana,
      body: { nome: 'sul' },
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json()).toEqual({ message: 'Você já tem uma visão com este nome neste painel.' });
    expect(await count()).toBe(4);
  });

  it(`keeps at most ${MAX_VISOES_POR_PAINEL} views per person and panel, even when saved all at once`, async () => {
    const s = await setup();
    const answers = await Promise.all(
      Array.from({ length: MAX_VISOES_POR_PAINEL + 5 }, (_, i) =>
        save(s.ana, s.vendas.id, { nome: `Visão ${i}`, estado: 'e' }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(MAX_VISOES_POR_PAINEL);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused.map((a) => [a.statusCode, a.json()])).toEqual(
      Array.from({ length: 5 }, () => [
        409,
        { message: 'Limite de 50 visões por painel atingido. Exclua uma para salvar outra.' },
      ]),
    );
    // The limit is per panel.
    expect((await save(s.ana, s.metas.id, { nome: 'Visão 0', estado: 'e' })).statusCode).toBe(201);
  });

  it('refuses to save on a panel the person may not open, and bad input, in Portuguese', async () => {
    const s = await setup();
    const outsider = await save(s.caio, s.vendas.id, { nome: 'X', estado: 'e' });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json()).toEqual(NOT_FOUND);
    expect((await ctx.request('GET', `/api/paineis/${s.vendas.id}/visoes`, { token: s.caio })).statusCode).toBe(404);
    for (const [body, message] of [
      [{ nome: '', estado: 'e' }, 'Nome da visão (nome) é obrigatório.'],
      [{ nome: 'x'.repeat(101), estado: 'e' }, 'Nome da visão (nome) deve ter no máximo 100 caracteres.'],
      [{ nome: 'X' }, 'Estado da visão (estado) é obrigatório.'],
      [{ nome: 'X', estado: 'e', pagina: '' }, 'Página do relatório (pagina) não pode ser vazia.'],
    ] as const) {
      const res = await save(s.ana, s.vendas.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    const badId = await ctx.request('GET', `/api/paineis/${s.vendas.id}/visoes/nao-e-uuid`, { token: s.ana });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toEqual({ message: 'O id da visão (visaoId) deve ser um UUID.' });
    expect(await count()).toBe(0);
  });

  describe('panel views (Visão do painel)', () => {
    const PANEL_ONLY = { message: 'Só administradores podem salvar, renomear ou excluir uma visão do painel.' };
    const audits = () =>
      rows<{
        objeto: string;
        acao: string;
        objeto_id: string;
        objeto_nome: string;
        mudancas: unknown;
        usuario: string;
      }>(
        ctx.db,
        sql`select objeto, acao, objeto_id, objeto_nome, mudancas, usuario from auditoria where objeto = 'visao_painel' order by id`,
      );

    it('lets an administrator save one, which everyone who may open the panel lists apart from their own views', async () => {
      const s = await setup();
      const created = await save(s.admin, s.vendas.id, { nome: 'Sul da empresa', estado: 'e-sul', doPainel: true });
      expect(created.statusCode).toBe(201);
      const view = created.json<VisaoSalva>();
      expect(view).toMatchObject({ nome: 'Sul da empresa', doPainel: true, propria: false });
      expect(view.salvaPor).toEqual(expect.any(String));
      // A person's own view, and the administrator's own view, stay theirs.
      await save(s.ana, s.vendas.id, { nome: 'Minha', estado: 'e' });
      await save(s.admin, s.vendas.id, { nome: 'Do admin', estado: 'e' });
      await save(s.admin, s.vendas.id, { nome: 'Abertura', estado: 'e-a', doPainel: true });

      const list = async (token: string) =>
        (await ctx.request('GET', `/api/paineis/${s.vendas.id}/visoes`, { token }))
          .json<VisaoSalva[]>()
          .map((v) => [v.nome, v.doPainel, v.propria, v.salvaPor === null]);
      expect(await list(s.ana)).toEqual([
        ['Abertura', true, false, false],
        ['Sul da empresa', true, false, false],
        ['Minha', false, true, true],
      ]);
      expect(await list(s.bia)).toEqual([
        ['Abertura', true, false, false],
        ['Sul da empresa', true, false, false],
      ]);
      expect(await list(s.admin)).toEqual([
        ['Abertura', true, false, false],
        ['Sul da empresa', true, false, false],
        ['Do admin', false, true, true],
      ]);
      // Another panel's list has none of them.
      expect((await ctx.request('GET', `/api/paineis/${s.metas.id}/visoes`, { token: s.ana })).json()).toEqual([]);

      // Its link opens it for whoever may open the panel, and for no one else.
      const url = `/api/paineis/${s.vendas.id}/visoes/${view.id}`;
      const opened = await ctx.request('GET', url, { token: s.bia });
      expect(opened.statusCode).toBe(200);
      expect(opened.json()).toEqual(view);
      expect((await ctx.request('GET', url, { token: s.caio })).json()).toEqual(NOT_FOUND);
      expect((await ctx.request('GET', `/api/paineis/${s.vendas.id}/visoes`, { token: s.caio })).statusCode).toBe(404);
    });

    it('refuses a panel view to a person with 403, and to someone who may not open the panel with 404', async () => {
      const s = await setup();
      const refused = await save(s.ana, s.vendas.id, { nome: 'Para todos', estado: 'e', doPainel: true });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(PANEL_ONLY);
      expect((await save(s.caio, s.vendas.id, { nome: 'X', estado: 'e', doPainel: true })).json()).toEqual(NOT_FOUND);
      const bad = await save(s.admin, s.vendas.id, { nome: 'X', estado: 'e', doPainel: 'sim' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'Visão do painel (doPainel) deve ser verdadeiro ou falso.' });
      expect(await count()).toBe(0);
      expect(await audits()).toEqual([]);
    });

    it('lets administrators only rename and delete it: 403 for a person, 404 when the panel can’t be opened', async () => {
      const s = await setup();
      const view = (await save(s.admin, s.vendas.id, { nome: 'Sul', estado: 'e', doPainel: true })).json<VisaoSalva>();
      const url = `/api/paineis/${s.vendas.id}/visoes/${view.id}`;
      for (const token of [s.ana, s.bia]) {
        const rename = await ctx.request('PATCH', url, { token, body: { nome: 'Minha' } });
        expect(rename.statusCode).toBe(403);
        expect(rename.json()).toEqual(PANEL_ONLY);
        const removed = await ctx.request('DELETE', url, { token });
        expect(removed.statusCode).toBe(403);
        expect(removed.json()).toEqual(PANEL_ONLY);
      }
      expect((await ctx.request('PATCH', url, { token: s.caio, body: { nome: 'X' } })).json()).toEqual(NOT_FOUND);
      expect((await ctx.request('DELETE', url, { token: s.caio })).json()).toEqual(NOT_FOUND);
      expect((await ctx.request('GET', url, { token: s.ana })).json<VisaoSalva>().nome).toBe('Sul');

      // Any administrator, not only the one who saved it.
      const other = await ctx.tokenFor(await createAdmin(ctx.db));
      const renamed = await ctx.request('PATCH', url, { token: other, body: { nome: ' Região Sul ' } });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ id: view.id, nome: 'Região Sul', doPainel: true, propria: false });
      expect((await ctx.request('DELETE', url, { token: s.admin })).statusCode).toBe(204);
      expect((await ctx.request('DELETE', url, { token: s.admin })).statusCode).toBe(404);
      expect(await count()).toBe(0);
    });

    it('audits each creation, rename and deletion, without the state', async () => {
      const s = await setup();
      const view = (
        await save(s.admin, s.vendas.id, { nome: 'Sul', estado: 'estado-longo', pagina: 'P1', doPainel: true })
      ).json<VisaoSalva>();
      const url = `/api/paineis/${s.vendas.id}/visoes/${view.id}`;
      await ctx.request('PATCH', url, { token: s.admin, body: { nome: 'Norte' } });
      await ctx.request('DELETE', url, { token: s.admin });
      // A person's own view is theirs: not audited.
      const own = (await save(s.ana, s.vendas.id, { nome: 'Minha', estado: 'e' })).json<VisaoSalva>();
      await ctx.request('PATCH', `/api/paineis/${s.vendas.id}/visoes/${own.id}`, {
        token: s.ana,
        body: { nome: 'Minha 2' },
      });

      const records = await audits();
      expect(records.map((r) => [r.acao, r.objeto_id, r.objeto_nome])).toEqual([
        ['criacao', view.id, 'Sul'],
        ['alteracao', view.id, 'Norte'],
        ['exclusao', view.id, 'Norte'],
      ]);
      expect(records[0]!.usuario).toMatch(/@/);
      expect(records[0]!.mudancas).toEqual([
        { campo: 'nome', depois: 'Sul' },
        { campo: 'painel', depois: s.vendas.id },
        { campo: 'pagina', depois: 'P1' },
      ]);
      expect(records[1]!.mudancas).toEqual([{ campo: 'nome', antes: 'Sul', depois: 'Norte' }]);
      expect(JSON.stringify(records)).not.toContain('estado-longo');
    });

    it('keeps one name per panel among its views (409), apart from people’s own views', async () => {
      const s = await setup();
      await save(s.ana, s.vendas.id, { nome: 'Sul', estado: 'e' });
      expect((await save(s.admin, s.vendas.id, { nome: 'Sul', estado: 'e', doPainel: true })).statusCode).toBe(201);
      const other = await ctx.tokenFor(await createAdmin(ctx.db));
      const duplicate = await save(other, s.vendas.id, { nome: 'SUL', estado: 'e', doPainel: true });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toEqual({ message: 'Já existe uma visão do painel com este nome.' });
      // The administrator may still keep an own view of that name, and the name is free on other panels.
      expect((await save(s.admin, s.vendas.id, { nome: 'Sul', estado: 'e' })).statusCode).toBe(201);
      expect((await save(s.admin, s.metas.id, { nome: 'Sul', estado: 'e', doPainel: true })).statusCode).toBe(201);

      const norte = (await save(other, s.vendas.id, { nome: 'Norte', estado: 'e', doPainel: true })).json<VisaoSalva>();
      const rename = await ctx.request('PATCH', `/api/paineis/${s.vendas.id}/visoes/${norte.id}`, {
        token: s.admin,
        body: { nome: 'sul' },
      });
      expect(rename.statusCode).toBe(409);
      expect(rename.json()).toEqual({ message: 'Já existe uma visão do painel com este nome.' });
      expect(await audits()).toHaveLength(3);
    });

    it(`counts the panel’s views apart from the administrator’s own, at most ${MAX_VISOES_POR_PAINEL}`, async () => {
      const s = await setup();
      await Promise.all(
        Array.from({ length: MAX_VISOES_POR_PAINEL }, (_, i) =>
          save(s.admin, s.vendas.id, { nome: `Própria ${i}`, estado: 'e' }),
        ),
      );
      const answers = await Promise.all(
        Array.from({ length: MAX_VISOES_POR_PAINEL + 2 }, (_, i) =>
          save(s.admin, s.vendas.id, { nome: `Do painel ${i}`, estado: 'e', doPainel: true }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(MAX_VISOES_POR_PAINEL);
      expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json())).toEqual([
        { message: 'Limite de 50 visões do painel atingido. Exclua uma para salvar outra.' },
        { message: 'Limite de 50 visões do painel atingido. Exclua uma para salvar outra.' },
      ]);
    });
  });

  it('goes with its panel', async () => {
    const s = await setup();
    await save(s.ana, s.vendas.id, { nome: 'Sul', estado: 'e' });
    expect((await ctx.request('DELETE', `/api/paineis/${s.vendas.id}`, { token: s.admin })).statusCode).toBe(204);
    expect(await count()).toBe(0);
  });
});
