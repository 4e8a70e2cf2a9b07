import type { PeriodoUso } from '@paineis/contract/usage-audit-constants';
import type { UsoPainel } from '@paineis/contract/usage';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import { formatDateMinutes, formatInteger } from '../../../lib/format.ts';
import { downloadCsv, toCsv, type CsvColumn } from '../../../lib/csv.ts';
import { csvDateTime } from '../utils/csv.ts';
import { leastViewed, MAX_LINHAS, mostViewed, neverOpened, withLoadTimes } from '../utils/usage-tables.ts';
import { EmptyTable, UsageCard } from './usage-card.tsx';
import { numericClass, UsageTable } from './usage-table.tsx';

/** A panel whose openings the page shows (docs/requirements.md#usage: 'for a panel chosen in the table'). */
export interface ChosenPanel {
  id: number;
  nome: string;
}

/** '1.234 ms', or '—' when no view reported it. */
export const formatMs = (ms: number | null) => (ms === null ? '—' : `${formatInteger(ms)} ms`);

const viewColumns: CsvColumn<UsoPainel>[] = [
  { header: 'Painel', value: (p) => p.nomePainel },
  { header: 'Classificação', value: (p) => p.classificacaoNome },
  { header: 'Visualizações', value: (p) => p.visualizacoes },
  { header: 'Pessoas', value: (p) => p.pessoas },
  { header: 'Última visualização', value: (p) => csvDateTime(p.ultimaVisualizacao) },
  { header: 'Erros', value: (p) => p.erros },
];

const neverOpenedColumns: CsvColumn<UsoPainel>[] = [
  { header: 'Painel', value: (p) => p.nomePainel },
  { header: 'Classificação', value: (p) => p.classificacaoNome },
];

const loadTimeColumns: CsvColumn<UsoPainel>[] = [
  { header: 'Painel', value: (p) => p.nomePainel },
  { header: 'Classificação', value: (p) => p.classificacaoNome },
  { header: 'Visualizações', value: (p) => p.visualizacoes },
  { header: 'Carregado p50 (ms)', value: (p) => p.carregadoP50 },
  { header: 'Carregado p95 (ms)', value: (p) => p.carregadoP95 },
  { header: 'Renderizado p50 (ms)', value: (p) => p.renderizadoP50 },
  { header: 'Renderizado p95 (ms)', value: (p) => p.renderizadoP95 },
  { header: 'Erros', value: (p) => p.erros },
];

const dataExportColumns: CsvColumn<UsoPainel>[] = [
  { header: 'Painel', value: (p) => p.nomePainel },
  { header: 'Classificação', value: (p) => p.classificacaoNome },
  { header: 'Exportações de dados', value: (p) => p.exportacoesDados },
];

interface PanelCardsProps {
  paineis: UsoPainel[];
  dias: PeriodoUso;
  onChoose: (painel: ChosenPanel) => void;
}

/** The panel's name, which opens who opened it; and its classification under it. */
function PanelName({ painel, onChoose }: { painel: UsoPainel; onChoose: (painel: ChosenPanel) => void }) {
  return (
    <>
      <Button
        variant="link"
        className="p-0 text-start"
        aria-haspopup="dialog"
        onClick={() => onChoose({ id: painel.painelId, nome: painel.nomePainel })}
      >
        {painel.nomePainel}
      </Button>
      <div className="small text-body-secondary">{painel.classificacaoNome}</div>
    </>
  );
}

/** 'Painéis mais vistos' or 'Painéis menos vistos': the ten first of a list of opened panels. */
function ViewsCard({
  title,
  fileName,
  rows,
  onChoose,
}: {
  title: string;
  fileName: string;
  rows: UsoPainel[];
  onChoose: (painel: ChosenPanel) => void;
}) {
  return (
    <UsageCard title={title} onExport={() => downloadCsv(fileName, toCsv(viewColumns, rows))}>
      {rows.length === 0 ? (
        <EmptyTable>Nenhuma visualização no período.</EmptyTable>
      ) : (
        <UsageTable
          label={title}
          headers={[
            { label: 'Painel', minWidth: '10rem' },
            { label: 'Visualizações', numeric: true },
            { label: 'Pessoas', numeric: true },
            { label: 'Última visualização' },
          ]}
        >
          {rows.map((p) => (
            <tr key={p.painelId}>
              <td>
                <PanelName painel={p} onChoose={onChoose} />
              </td>
              <td className={numericClass}>{formatInteger(p.visualizacoes)}</td>
              <td className={numericClass}>{formatInteger(p.pessoas)}</td>
              <td className="text-nowrap">
                {p.ultimaVisualizacao ? formatDateMinutes(new Date(p.ultimaVisualizacao)) : '—'}
              </td>
            </tr>
          ))}
        </UsageTable>
      )}
    </UsageCard>
  );
}

/** 'e mais 1.234 painéis': the rows a long table leaves to its CSV. */
const moreRows = (hidden: number, one: string, many: string) =>
  hidden > 0 ? `e mais ${formatInteger(hidden)} ${hidden === 1 ? one : many}. O CSV traz a lista completa.` : null;

/** 'Exportações de dados': visuals' data exported to CSV in the period, in all (the badge) and per panel. */
function DataExportsCard({
  paineis,
  suffix,
  onChoose,
}: {
  paineis: UsoPainel[];
  suffix: string;
  onChoose: (painel: ChosenPanel) => void;
}) {
  const rows = paineis.filter((p) => p.exportacoesDados > 0).sort((a, b) => b.exportacoesDados - a.exportacoesDados);
  const total = rows.reduce((sum, p) => sum + p.exportacoesDados, 0);
  return (
    <Col lg={4}>
      <UsageCard
        title="Exportações de dados"
        count={total}
        onExport={() => downloadCsv(`exportacoes-de-dados-${suffix}`, toCsv(dataExportColumns, rows))}
        footer={moreRows(rows.length - MAX_LINHAS, 'painel', 'painéis')}
      >
        {rows.length === 0 ? (
          <EmptyTable>Nenhum dado de visual exportado no período.</EmptyTable>
        ) : (
          <UsageTable
            label="Exportações de dados"
            headers={[
              { label: 'Painel', minWidth: '10rem' },
              { label: 'Exportações', numeric: true },
            ]}
          >
            {rows.slice(0, MAX_LINHAS).map((p) => (
              <tr key={p.painelId}>
                <td>
                  <PanelName painel={p} onChoose={onChoose} />
                </td>
                <td className={numericClass}>{formatInteger(p.exportacoesDados)}</td>
              </tr>
            ))}
          </UsageTable>
        )}
      </UsageCard>
    </Col>
  );
}

/** The panel parts of '/uso', all from GET /uso/paineis: most and least viewed, never opened, load times. */
export function PanelUsageCards({ paineis, dias, onChoose }: PanelCardsProps) {
  const never = neverOpened(paineis);
  const timed = withLoadTimes(paineis);
  const suffix = `${dias}-dias.csv`;
  return (
    <>
      <Col lg={6}>
        <ViewsCard
          title="Painéis mais vistos"
          fileName={`paineis-mais-vistos-${suffix}`}
          rows={mostViewed(paineis)}
          onChoose={onChoose}
        />
      </Col>
      <Col lg={6}>
        <ViewsCard
          title="Painéis menos vistos"
          fileName={`paineis-menos-vistos-${suffix}`}
          rows={leastViewed(paineis)}
          onChoose={onChoose}
        />
      </Col>
      <Col xs={12}>
        <UsageCard
          title="Tempo de carga por painel"
          count={timed.length}
          onExport={() => downloadCsv(`tempo-de-carga-${suffix}`, toCsv(loadTimeColumns, timed))}
          footer={
            moreRows(timed.length - MAX_LINHAS, 'painel', 'painéis') ??
            'Do pedido do painel até o relatório carregar e até a sua primeira renderização, em milissegundos.'
          }
        >
          {timed.length === 0 ? (
            <EmptyTable>Nenhum tempo de carga registrado no período.</EmptyTable>
          ) : (
            <UsageTable
              label="Tempo de carga por painel"
              headers={[
                { label: 'Painel', minWidth: '12rem' },
                { label: 'Carregado p50', numeric: true },
                { label: 'Carregado p95', numeric: true },
                { label: 'Renderizado p50', numeric: true },
                { label: 'Renderizado p95', numeric: true },
                { label: 'Erros', numeric: true },
              ]}
            >
              {timed.slice(0, MAX_LINHAS).map((p) => (
                <tr key={p.painelId}>
                  <td>
                    <PanelName painel={p} onChoose={onChoose} />
                  </td>
                  <td className={numericClass}>{formatMs(p.carregadoP50)}</td>
                  <td className={numericClass}>{formatMs(p.carregadoP95)}</td>
                  <td className={numericClass}>{formatMs(p.renderizadoP50)}</td>
                  <td className={numericClass}>{formatMs(p.renderizadoP95)}</td>
                  <td className={numericClass}>{formatInteger(p.erros)}</td>
                </tr>
              ))}
            </UsageTable>
          )}
        </UsageCard>
      </Col>
      <Col lg={4}>
        <UsageCard
          title="Painéis nunca abertos no período"
          count={never.length}
          onExport={() => downloadCsv(`paineis-nunca-abertos-${suffix}`, toCsv(neverOpenedColumns, never))}
          footer={moreRows(never.length - MAX_LINHAS, 'painel', 'painéis')}
        >
          {never.length === 0 ? (
            <EmptyTable>Todos os painéis foram abertos no período.</EmptyTable>
          ) : (
            <UsageTable
              label="Painéis nunca abertos no período"
              headers={[{ label: 'Painel', minWidth: '10rem' }, { label: 'Classificação' }]}
            >
              {never.slice(0, MAX_LINHAS).map((p) => (
                <tr key={p.painelId}>
                  <td className="fw-semibold">{p.nomePainel}</td>
                  <td className="text-body-secondary">{p.classificacaoNome}</td>
                </tr>
              ))}
            </UsageTable>
          )}
        </UsageCard>
      </Col>
      <DataExportsCard paineis={paineis} suffix={suffix} onChoose={onChoose} />
    </>
  );
}
