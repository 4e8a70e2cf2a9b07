import { z } from 'zod';
import { plainText } from './fields.ts';

/** At most this many groups linked to one panel. */
export const MAX_LINKED_GROUPS = 1_000;

const publico = z.boolean().meta({
  description:
    "Grupo do Microsoft 365 público (visibility 'Public' no Graph): qualquer pessoa da organização pode entrar nele " +
    'sem aprovação.',
});

/**
 * An Entra group as the directory sync keeps it: `membros` counts its people at any depth, each once; `concede` says
 * what linking it grants under PUBLIC_GROUPS_GRANT (a public group may grant less than any other).
 */
export const grupo365 = z
  .object({
    id: z.string(),
    nome: z.string(),
    descricao: z.string().nullable(),
    tipo: z.enum(['seguranca', 'microsoft365']),
    membros: z.number().int(),
    publico,
    concede: z
      .object({ paineis: z.boolean(), papeisRls: z.boolean() })
      .meta({ description: 'Vinculado a um painel, abre-o; listado num papel RLS, dá o papel (PUBLIC_GROUPS_GRANT).' }),
  })
  .meta({ id: 'Grupo365' });
export type Grupo365 = z.infer<typeof grupo365>;

export const grupoVinculado = z.object({ id: z.string(), nome: z.string(), publico }).meta({ id: 'GrupoVinculado' });
export type GrupoVinculado = z.infer<typeof grupoVinculado>;

/**
 * A public group that grants nothing where it is linked, by PUBLIC_GROUPS_GRANT: linked to the panel (`papel` null)
 * or listed in the RLS role `papel`; `motivo` says why, in words.
 */
export const grupoSemEfeito = z
  .object({ grupo: grupoVinculado, papel: z.string().nullable(), motivo: z.string() })
  .meta({ id: 'GrupoSemEfeito' });
export type GrupoSemEfeito = z.infer<typeof grupoSemEfeito>;

/** A group named by its Entra object id. */
export const groupId = plainText('O id de grupo', {
  notText: 'Cada grupo deve ser informado pelo seu id (texto).',
  required: 'O id de grupo não pode ser vazio.',
  max: 200,
  tooLong: 'O id de grupo deve ter no máximo 200 caracteres.',
});

/** POST /paineis/{id}/grupos: the whole set of linked group ids (empty unlinks every group). */
export const linkGroupsBody = z
  .array(groupId, { error: 'O corpo deve ser uma lista de ids de grupos.' })
  .max(MAX_LINKED_GROUPS, `São aceitos no máximo ${MAX_LINKED_GROUPS} grupos por painel.`);

/**
 * Why a person may open a panel, or carries an RLS role: linked directly ('direto'), through a group ('grupo', with
 * `via`: the names of the groups from the linked one down to the person's own), listed by e-mail or UPN in an RLS
 * role ('email'), or an administrator ('administrador').
 */
export const motivoAcesso = z
  .object({
    tipo: z.enum(['direto', 'grupo', 'email', 'administrador']),
    grupo: grupoVinculado.optional(),
    via: z.array(z.string()).optional(),
  })
  .meta({ id: 'MotivoAcesso' });
export type MotivoAcesso = z.infer<typeof motivoAcesso>;

/**
 * GET /paineis/{id}/acesso: every active person who may open the panel, by name, with every reason; and the panel's
 * public groups that grant nothing.
 */
export const acessoPainel = z
  .object({
    pessoas: z.array(
      z.object({ usuarioId: z.string(), nome: z.string(), email: z.string(), motivos: z.array(motivoAcesso) }),
    ),
    gruposSemEfeito: z.array(grupoSemEfeito),
  })
  .meta({ id: 'AcessoPainel' });
export type AcessoPainel = z.infer<typeof acessoPainel>;

/**
 * GET /usuarios365/{id}/acesso: every panel, in the list screen's order, with whether this person may open it and
 * why, the RLS roles their embed token would carry and why, or `recusa`: why not; and the public groups they are in
 * that would have let them in or given them a role, but grant nothing (`via`: the path down to their own group).
 */
export const acessoPessoa = z
  .object({
    pessoa: z.object({
      id: z.string(),
      nome: z.string(),
      email: z.string(),
      administrador: z.boolean(),
      ativo: z.boolean(),
    }),
    paineis: z.array(
      z.object({
        painelId: z.number().int(),
        nomePainel: z.string(),
        podeAbrir: z.boolean(),
        motivos: z.array(motivoAcesso),
        papeisRls: z.array(z.object({ papel: z.string(), motivos: z.array(motivoAcesso) })),
        recusa: z.string().nullable(),
        gruposSemEfeito: z.array(grupoSemEfeito.extend({ via: z.array(z.string()) })),
      }),
    ),
  })
  .meta({ id: 'AcessoPessoa' });
export type AcessoPessoa = z.infer<typeof acessoPessoa>;
