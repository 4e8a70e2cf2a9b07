import type { PeriodoUso } from '@paineis/contract/usage-audit-constants';
import type { PessoaSemLogin, UsoSemLogin } from '@paineis/contract/usage';
import { formatDateMinutes, formatInteger } from '../../../lib/format.ts';
import { downloadCsv, toCsv, type CsvColumn } from '../../../lib/csv.ts';
import { csvDateTime } from '../utils/csv.ts';
import { MAX_LINHAS } from '../utils/usage-tables.ts';
import { EmptyTable, UsageCard } from './usage-card.tsx';
import { UsageTable } from './usage-table.tsx';

const columns: CsvColumn<PessoaSemLogin>[] = [
  { header: 'Nome', value: (p) => p.displayName },
  { header: 'E-mail', value: (p) => p.email },
  { header: 'Departamento', value: (p) => p.department },
  { header: 'Último login', value: (p) => (p.ultimoLogin ? csvDateTime(p.ultimoLogin) : 'Nunca') },
];

/**
 * 'Pessoas sem login no período'. There can be tens of thousands: the page shows the first hundred and says how many
 * more there are; the CSV holds them all.
 */
export function PeopleWithoutSignInCard({ data, dias }: { data: UsoSemLogin; dias: PeriodoUso }) {
  const { pessoas, total } = data;
  const hidden = total - Math.min(pessoas.length, MAX_LINHAS);
  return (
    <UsageCard
      title="Pessoas sem login no período"
      count={total}
      onExport={() => downloadCsv(`pessoas-sem-login-${dias}-dias.csv`, toCsv(columns, pessoas))}
      footer={
        hidden > 0 &&
        `e mais ${formatInteger(hidden)} ${hidden === 1 ? 'pessoa' : 'pessoas'}. O CSV traz a lista completa.`
      }
    >
      {pessoas.length === 0 ? (
        <EmptyTable>Todas as pessoas ativas fizeram login no período.</EmptyTable>
      ) : (
        <UsageTable
          label="Pessoas sem login no período"
          headers={[
            { label: 'Nome', minWidth: '10rem' },
            { label: 'E-mail' },
            { label: 'Departamento', minWidth: '9rem' },
            { label: 'Último login' },
          ]}
        >
          {pessoas.slice(0, MAX_LINHAS).map((p) => (
            <tr key={p.id}>
              <td className="fw-semibold">{p.displayName}</td>
              <td className="text-nowrap">{p.email}</td>
              <td>{p.department ?? '—'}</td>
              <td className="text-nowrap">{p.ultimoLogin ? formatDateMinutes(new Date(p.ultimoLogin)) : 'Nunca'}</td>
            </tr>
          ))}
        </UsageTable>
      )}
    </UsageCard>
  );
}
