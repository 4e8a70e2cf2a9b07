import type { GrupoSemEfeito } from '@paineis/contract/groups';

export const IGNORED_GROUPS_TITLE = 'Grupos públicos sem efeito neste painel';

/** 'Projeto Expansão (papel Vendedor): Grupo público: não concede papéis RLS (PUBLIC_GROUPS_GRANT)'. */
export const ignoredGroupText = ({ grupo, papel, motivo }: GrupoSemEfeito) =>
  `${grupo.nome}${papel === null ? '' : ` (papel ${papel})`}: ${motivo}`;

/**
 * The public groups linked to a panel, or listed in its roles, that grant nothing by PUBLIC_GROUPS_GRANT, each with
 * why: kept as the admin left them, so that nobody reads them as granting. A plain list, not a landmark: it may be
 * shown once per panel on the same page.
 */
export function IgnoredGroups({ grupos, className }: { grupos: readonly GrupoSemEfeito[]; className?: string }) {
  if (grupos.length === 0) return null;
  return (
    <div className={className}>
      <div className="small fw-semibold" aria-hidden="true">
        {IGNORED_GROUPS_TITLE}
      </div>
      <ul className="small text-danger-emphasis mb-0 ps-3" aria-label={IGNORED_GROUPS_TITLE}>
        {grupos.map((g) => (
          <li key={`${g.grupo.id}/${g.papel ?? ''}`}>{ignoredGroupText(g)}</li>
        ))}
      </ul>
    </div>
  );
}
