import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { createUser, link, panel } from '../../../test/fixtures.ts';
import {
  openPanel,
  openPanelNow,
  NO_RLS_ROLE_TO_CHOOSE,
  ROLE_CHOICE_ADMIN_ONLY,
  unknownRlsRole,
  NO_RLS_ROLE_FOR_PERSON,
} from './panel-access.ts';
import type { Requester } from './requester.ts';
import type { FailureKind } from '../../lib/domain-failure.ts';
import { PANEL_NOT_FOUND } from '@paineis/contract/panels';

/** Who may open a panel, and with which RLS roles: the rule on its own, over a real database. */
describe('opening a panel (panel-access)', () => {
  const ctx = useTestApp();
  const admin: Requester = {
    id: 'admin-sem-vinculo',
    email: 'chefe@empresa.com.br',
    upn: null,
    username: 'chefe@empresa.com.br',
    isAdmin: true,
  };

  /** A person as the session gives them: their stored directory e-mail and UPN (null: none). */
  async function person(email = 'ana@empresa.com.br', upn: string | null = null): Promise<Requester> {
    const user = await createUser(ctx.db, { email, upn, tipo: upn ? 'Member' : null });
    return { id: user.id, email: user.email, upn, username: upn ?? user.email, isAdmin: false };
  }

  const rlsPanel = () =>
    panel(ctx.db, {
      usaRls: true,
      rlsConfigurations: [
        { roleName: 'Norte', userEmails: ['bia@empresa.com.br'] },
        { roleName: 'Diretoria', userEmails: ['ana@empresa.com.br'] },
        { roleName: 'Sul', userEmails: ['ana@empresa.com.br', 'bia@empresa.com.br'] },
      ],
    });

  /** The module's refusal that the API answers with this status (plugins/error-handler.ts). */
  const kinds: Record<number, FailureKind> = { 400: 'invalid', 403: 'forbidden', 404: 'not-found' };
  const refusal = (statusCode: number, message: string) =>
    expect.objectContaining({ kind: kinds[statusCode], message });

  it('opens any panel for an admin, linked or not, with no roles when the panel has no RLS', async () => {
    const p = await panel(ctx.db, { nomePainel: 'Metas' });
    expect(await openPanel(ctx.db, p.id, admin, undefined)).toEqual({
      panel: expect.objectContaining({ id: p.id, nomePainel: 'Metas' }),
      roles: [],
    });
  });

  it('opens a panel for a person linked to it, and for nobody else: 404, as if it did not exist', async () => {
    const p = await panel(ctx.db);
    const linked = await person('ana@empresa.com.br');
    const other = await person('bia@empresa.com.br');
    await link(ctx.db, p.id, [linked.id]);
    expect((await openPanel(ctx.db, p.id, linked, undefined)).panel.id).toBe(p.id);
    await expect(openPanel(ctx.db, p.id, other, undefined)).rejects.toEqual(refusal(404, PANEL_NOT_FOUND));
    await expect(openPanel(ctx.db, p.id + 1000, admin, undefined)).rejects.toEqual(refusal(404, PANEL_NOT_FOUND));
  });

  it('gives a person on an RLS panel the roles that list their e-mail, in the panel’s order', async () => {
    const p = await rlsPanel();
    const ana = await person('ana@empresa.com.br');
    await link(ctx.db, p.id, [ana.id]);
    expect((await openPanel(ctx.db, p.id, ana, undefined)).roles).toEqual(['Diretoria', 'Sul']);
    // The e-mail from the session is matched without regard to case, as it is stored.
    expect((await openPanel(ctx.db, p.id, { ...ana, email: 'Ana@Empresa.com.br' }, undefined)).roles).toEqual([
      'Diretoria',
      'Sul',
    ]);
  });

  it('matches a person whose UPN differs from their e-mail to the roles listing either, whatever the case', async () => {
    const p = await panel(ctx.db, {
      usaRls: true,
      rlsConfigurations: [
        { roleName: 'Norte', userEmails: ['dani@empresa.com.br'] },
        { roleName: 'Diretoria', userEmails: ['bia@empresa.com.br'] },
        { roleName: 'Sul', userEmails: ['d.souza@empresa.onmicrosoft.com'] },
      ],
    });
    const dani = await person('dani@empresa.com.br', 'D.Souza@empresa.onmicrosoft.com');
    await link(ctx.db, p.id, [dani.id]);
    expect((await openPanel(ctx.db, p.id, dani, undefined)).roles).toEqual(['Norte', 'Sul']);
  });

  it('refuses a linked person whom no role lists (403)', async () => {
    const p = await rlsPanel();
    const caio = await person('caio@empresa.com.br');
    await link(ctx.db, p.id, [caio.id]);
    await expect(openPanel(ctx.db, p.id, caio, undefined)).rejects.toEqual(refusal(403, NO_RLS_ROLE_FOR_PERSON));
  });

  it('gives an admin every role of an RLS panel, or only the one chosen, spelled as the panel spells it', async () => {
    const p = await rlsPanel();
    expect((await openPanel(ctx.db, p.id, admin, undefined)).roles).toEqual(['Norte', 'Diretoria', 'Sul']);
    expect((await openPanel(ctx.db, p.id, admin, 'norte')).roles).toEqual(['Norte']);
    expect((await openPanel(ctx.db, p.id, admin, 'DIRETORIA')).roles).toEqual(['Diretoria']);
  });

  it('refuses a role the panel lacks (400), and a chosen role on a panel without RLS (400)', async () => {
    const rls = await rlsPanel();
    const plain = await panel(ctx.db);
    await expect(openPanel(ctx.db, rls.id, admin, 'Leste')).rejects.toEqual(refusal(400, unknownRlsRole('Leste')));
    await expect(openPanel(ctx.db, plain.id, admin, 'Norte')).rejects.toEqual(refusal(400, NO_RLS_ROLE_TO_CHOOSE));
  });

  it('lets only admins choose a role (403), after the 404 for a panel the person may not see', async () => {
    const p = await rlsPanel();
    const ana = await person('ana@empresa.com.br');
    const bia = await person('bia@empresa.com.br');
    await link(ctx.db, p.id, [ana.id]);
    await expect(openPanel(ctx.db, p.id, ana, 'Sul')).rejects.toEqual(refusal(403, ROLE_CHOICE_ADMIN_ONLY));
    await expect(openPanel(ctx.db, p.id, bia, 'Sul')).rejects.toEqual(refusal(404, PANEL_NOT_FOUND));
  });

  it('opens an RLS panel with no roles yet for an admin with no roles, and leaves the refusal to Power BI', async () => {
    const p = await panel(ctx.db, { usaRls: true });
    expect((await openPanel(ctx.db, p.id, admin, undefined)).roles).toEqual([]);
  });

  it('answers from memory once the panel, the links and the roles are loaded, exactly as openPanel does', async () => {
    const p = await rlsPanel();
    const plain = await panel(ctx.db);
    const ana = await person('ana@empresa.com.br');
    const bia = await person('bia@empresa.com.br');
    const caio = await person('caio@empresa.com.br');
    await link(ctx.db, p.id, [ana.id, caio.id]);
    await link(ctx.db, plain.id, [ana.id]);
    const cases: [number, Requester, string | undefined][] = [
      [p.id, ana, undefined],
      [plain.id, ana, undefined],
      [p.id, admin, 'sul'],
      [p.id, admin, 'Leste'],
      [plain.id, admin, 'Norte'],
      [p.id, ana, 'Sul'],
      [p.id, bia, undefined],
      [p.id, caio, undefined],
      [p.id + 1000, admin, undefined],
    ];
    // Nothing is in memory yet after the writes above: the caller must wait on openPanel.
    expect(openPanelNow(ctx.db, p.id, ana, undefined)).toBeUndefined();
    for (const [id, who, papel] of cases) {
      const waited = await openPanel(ctx.db, id, who, papel).then(
        (opening) => ({ opening }),
        (failure: unknown) => ({ failure }),
      );
      let now: { opening?: unknown; failure?: unknown };
      try {
        now = { opening: openPanelNow(ctx.db, id, who, papel) };
      } catch (failure) {
        now = { failure };
      }
      expect(now, `painel ${id}, ${who.email}, papel ${papel}`).toEqual(waited);
    }
  });
});
