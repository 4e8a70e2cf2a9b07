import type { AcessoPainel, AcessoPessoa, GrupoVinculado, MotivoAcesso } from '@paineis/contract/groups';
import type { Db } from '../../db/client.ts';
import { VersionedKeyedCache } from '../../db/versioned-cache.ts';
import { byNome } from '../../lib/collation.ts';
import { notFound } from '../../lib/domain-failure.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { panelRules, rlsAddresses, rulesForPerson } from '../panels/panel-access.ts';
import { directoryEntries, groupMembership } from '../users/users.service.ts';

/**
 * "Who can open this, and why" and "why can this person open it, or not" (docs/decisions/018-access-by-group.md): the
 * same rules as the opening itself (panels/panel-access.ts), told as reasons.
 */

export const USER_NOT_FOUND = 'Usuário não encontrado.';
export const REFUSED = {
  inactive: 'Pessoa desativada: não entra no portal.',
  notLinked: 'Sem vínculo com o painel, direto ou por grupo.',
  noRole: 'O painel usa RLS e nenhum papel lista a pessoa, por e-mail ou por grupo: a abertura seria recusada.',
} as const;

const ADMIN: MotivoAcesso = { tipo: 'administrador' };
const DIRECT: MotivoAcesso = { tipo: 'direto' };
const BY_EMAIL: MotivoAcesso = { tipo: 'email' };

/**
 * GET /paineis/{id}/acesso as bytes, made once per change of what it tells (the panel's links and groups, the
 * directory, the membership): for a panel open to tens of thousands of people it is megabytes of JSON. Only the
 * last few panels asked for are kept.
 */
const whoCanOpenAnswers = new VersionedKeyedCache(
  ['paineis', 'vinculos', 'grupos', 'usuarios'],
  async (db, painelId: number) => new PreparedJson(await whoCanOpen(db, painelId)),
  8,
);

export const whoCanOpenJson = (db: Db, painelId: number) => whoCanOpenAnswers.get(db, painelId);

/** Who may open the panel, by name, with every reason. */
export async function whoCanOpen(db: Db, painelId: number): Promise<AcessoPainel> {
  const [rules, people, membership] = await Promise.all([
    panelRules(db, painelId),
    directoryEntries(db),
    groupMembership(db),
  ]);
  const reasons = new Map<string, MotivoAcesso[]>();
  const add = (id: string, reason: MotivoAcesso) => {
    const list = reasons.get(id);
    if (list) list.push(reason);
    else reasons.set(id, [reason]);
  };
  for (const person of people.values()) if (person.administrador) add(person.id, ADMIN);
  for (const id of rules.people) add(id, DIRECT);
  for (const grupo of rules.groups) {
    for (const [id, path] of membership.peopleWithPaths(grupo.id)) add(id, viaGroup(grupo, path, membership));
  }
  const pessoas = [...reasons]
    .flatMap(([id, motivos]) => {
      const person = people.get(id);
      return person?.ativo ? [{ usuarioId: person.id, nome: person.nome, email: person.email, motivos }] : [];
    })
    .sort((a, b) => byNome(a, b) || (a.usuarioId < b.usuarioId ? -1 : 1));
  return { pessoas };
}

/** GET /usuarios365/{id}/acesso. */
export async function accessOf(db: Db, usuarioId: string): Promise<AcessoPessoa> {
  const [people, membership] = await Promise.all([directoryEntries(db), groupMembership(db)]);
  const person = people.get(usuarioId);
  if (!person) throw notFound(USER_NOT_FOUND);
  const groups = membership.groupsOf(usuarioId);
  const [email, upn] = rlsAddresses(person);
  const paineis = (await rulesForPerson(db, usuarioId)).map(
    ({ panel, people: linked, groups: linkedGroups, roles }) => {
      const motivos: MotivoAcesso[] = [
        ...(person.administrador ? [ADMIN] : []),
        ...(linked.has(usuarioId) ? [DIRECT] : []),
        ...linkedGroups
          .filter((g) => groups.has(g.id))
          .map((g) => viaGroup(g, membership.pathDown(g.id, usuarioId) ?? [g.id], membership)),
      ];
      const papeisRls = panel.usaRls
        ? roles
            .map((role) => ({
              papel: role.roleName,
              motivos: person.administrador
                ? [ADMIN]
                : [
                    ...(role.userEmails.includes(email) || role.userEmails.includes(upn) ? [BY_EMAIL] : []),
                    ...(role.grupos ?? [])
                      .filter((id) => groups.has(id))
                      .map((id) =>
                        viaGroup(
                          { id, nome: membership.groups.get(id)?.nome ?? id },
                          membership.pathDown(id, usuarioId) ?? [id],
                          membership,
                        ),
                      ),
                  ],
            }))
            .filter((role) => role.motivos.length > 0)
        : [];
      const recusa = !person.ativo
        ? REFUSED.inactive
        : motivos.length === 0
          ? REFUSED.notLinked
          : panel.usaRls && !person.administrador && papeisRls.length === 0
            ? REFUSED.noRole
            : null;
      return {
        painelId: panel.id,
        nomePainel: panel.nomePainel,
        podeAbrir: recusa === null,
        motivos,
        papeisRls,
        recusa,
      };
    },
  );
  const { id, nome, email: shownEmail, administrador, ativo } = person;
  return { pessoa: { id, nome, email: shownEmail, administrador, ativo }, paineis };
}

/** A reason through a group: the linked group, and the names from it down to the person's own group. */
function viaGroup(
  grupo: GrupoVinculado,
  path: string[],
  membership: Awaited<ReturnType<typeof groupMembership>>,
): MotivoAcesso {
  return { tipo: 'grupo', grupo, via: path.map((id) => membership.groups.get(id)?.nome ?? id) };
}
