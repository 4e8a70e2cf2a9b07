import { PANEL_NOT_FOUND } from '@paineis/contract/panels';
import type { AcessoPainel, AcessoPessoa } from '@paineis/contract/groups';
import type { Db } from '../../db/client.ts';
import { VersionedKeyedCache } from '../../db/versioned-cache.ts';
import { byNome } from '../../lib/collation.ts';
import { notFound } from '../../lib/domain-failure.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { explainPanel, explainPerson, personOf, type Refusal } from '../panels/access-model.ts';
import { directoryEntries } from '../users/users.service.ts';

/**
 * "Who can open this, and why" and "why can this person open it, or not" (docs/decisions/018-access-by-group.md): the
 * access model's answers (panels/access-model.ts), the very ones the opening follows, put into words.
 */

export const USER_NOT_FOUND = 'Usuário não encontrado.';
export const REFUSED = {
  inactive: 'Pessoa desativada: não entra no portal.',
  notLinked: 'Sem vínculo com o painel, direto ou por grupo.',
  noRole: 'O painel usa RLS e nenhum papel lista a pessoa, por e-mail ou por grupo: a abertura seria recusada.',
} as const;

const REFUSAL_TEXTS: Record<Refusal, string> = {
  inativo: REFUSED.inactive,
  'sem-vinculo': REFUSED.notLinked,
  'sem-papel': REFUSED.noRole,
};

/**
 * GET /paineis/{id}/acesso as bytes, made once per change of what it tells (the panel's links and roles, the groups,
 * the directory, the membership): for a panel open to tens of thousands of people it is megabytes of JSON. Only the
 * last few panels asked for are kept.
 */
const whoCanOpenAnswers = new VersionedKeyedCache(
  ['paineis', 'vinculos', 'grupos', 'usuarios', 'rls'],
  async (db, painelId: number) => new PreparedJson(await whoCanOpen(db, painelId)),
  8,
);

export const whoCanOpenJson = (db: Db, painelId: number) => whoCanOpenAnswers.get(db, painelId);

/**
 * Every active person who may open the panel, by name, with every reason (docs/requirements.md#access-screens): on a
 * panel with RLS, someone linked but in no role is left out, as the opening refuses them; `/usuarios365/{id}/acesso`
 * tells them why.
 */
export async function whoCanOpen(db: Db, painelId: number): Promise<AcessoPainel> {
  const explained = await explainPanel(db, painelId);
  if (!explained) throw notFound(PANEL_NOT_FOUND);
  const pessoas = explained.people
    .filter(({ access }) => access.opens)
    .map(({ entry, access }) => ({
      usuarioId: entry.id,
      nome: entry.nome,
      email: entry.email,
      motivos: access.motivos,
    }))
    .sort((a, b) => byNome(a, b) || (a.usuarioId < b.usuarioId ? -1 : 1));
  return { pessoas };
}

/** GET /usuarios365/{id}/acesso: every panel, whether the person may open it and why, or why not. */
export async function accessOf(db: Db, usuarioId: string): Promise<AcessoPessoa> {
  const person = (await directoryEntries(db)).get(usuarioId);
  if (!person) throw notFound(USER_NOT_FOUND);
  const paineis = (await explainPerson(db, personOf(person))).map((access) => ({
    painelId: access.panel.id,
    nomePainel: access.panel.nomePainel,
    podeAbrir: access.opens,
    motivos: access.motivos,
    papeisRls: access.papeisRls,
    recusa: access.refusal && REFUSAL_TEXTS[access.refusal],
  }));
  const { id, nome, email, administrador, ativo } = person;
  return { pessoa: { id, nome, email, administrador, ativo }, paineis };
}
