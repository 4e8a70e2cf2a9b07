import { memo } from 'react';
import { Link } from 'react-router';
import type { Painel } from '@paineis/contract/panels';
import { paths } from '../../../config/paths.ts';
import { useRecents } from '../api/get-recents.ts';

export const RECENTES_TITULO = 'Recentes';

/**
 * 'Recentes': links to the last panels the person opened, newest first, named as the list names them. Hidden while
 * there are none (or none the list still holds).
 */
export const RecentPanels = memo(function RecentPanels({
  panelById,
}: {
  panelById: (id: number) => Painel | undefined;
}) {
  const { data: ids } = useRecents();
  const paineis = (ids ?? []).flatMap((id) => {
    const painel = panelById(id);
    return painel ? [painel] : [];
  });
  if (paineis.length === 0) return null;
  return (
    <section className="mb-3" aria-labelledby="recentes-titulo">
      <h2 id="recentes-titulo" className="h6 text-body-secondary mb-2">
        {RECENTES_TITULO}
      </h2>
      <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0">
        {paineis.map((painel) => (
          <li key={painel.id}>
            <Link to={paths.viewer(painel.id)} className="btn btn-sm btn-outline-primary text-break">
              {painel.nomePainel}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
});
