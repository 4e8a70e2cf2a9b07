import { PANEL_NOT_FOUND } from '@paineis/contract/panels';
import { PUBLIC_GROUP_GRANTS_NO_PANEL, PUBLIC_GROUP_GRANTS_NO_ROLE } from '@paineis/contract/group-constants';
import type { AcessoPainel, AcessoPessoa } from '@paineis/contract/groups';
import type { Db } from '../../db/client.ts';
import { VersionedKeyedCache } from '../../db/versioned-cache.ts';
import { byNome } from '../../lib/collation.ts';
import { notFound } from '../../lib/domain-failure.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { explainPanel, explainPerson, personOf, type ExplainedAccess, type Refusal } from '../panels/access-model.ts';
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

/** Why a public group grants nothing: linked to the panel (`papel` null), or listed in a role. */
const ignoredText = (papel: string | null) =>
  papel === null ? PUBLIC_GROUP_GRANTS_NO_PANEL : PUBLIC_GROUP_GRANTS_NO_ROLE;

/**
 * Why not, with the public groups of theirs that would have let them in ('sem-vinculo') or given them a role
 * ('sem-papel') but grant nothing: 'Sem vínculo com o painel, direto ou por grupo. Grupo público: não concede acesso
 * a painéis (PUBLIC_GROUPS_GRANT): Projeto Expansão.'
 */
function refusalText(access: ExplainedAccess): string | null {
  if (!access.refusal) return null;
  const text = REFUSAL_TEXTS[access.refusal];
  const byLink = access.refusal === 'sem-vinculo';
  if (!byLink && access.refusal !== 'sem-papel') return text;
  const groups = access.ignored.filter((g) => (g.papel === null) === byLink);
  if (groups.length === 0) return text;
  const names = [...new Set(groups.map((g) => g.grupo.nome))].join(', ');
  return `${text} ${byLink ? PUBLIC_GROUP_GRANTS_NO_PANEL : PUBLIC_GROUP_GRANTS_NO_ROLE}: ${names}.`;
}

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
 * tells them why. And the panel's public groups that grant nothing by PUBLIC_GROUPS_GRANT, each with why.
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
  const gruposSemEfeito = explained.ignored.map(({ grupo, papel }) => ({ grupo, papel, motivo: ignoredText(papel) }));
  return { pessoas, gruposSemEfeito };
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
    recusa: refusalText(access),
    gruposSemEfeito: access.ignored.map(({ grupo, via, papel }) => ({ grupo, via, papel, motivo: ignoredText(papel) })),
  }));
  const { id, nome, email, administrador, ativo } = person;
  return { pessoa: { id, nome, email, administrador, ativo }, paineis };
}
