import { useId } from 'react';
import type { Capacidade } from '@paineis/contract/capacity';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { formatHours, formatMoney } from '../utils/capacity-labels.ts';
import { CapacityMonthChart, shortDay } from './capacity-month-chart.tsx';

/** 'MM/AAAA' from the month's 'YYYY-MM'. */
const monthName = (mes: string) => `${mes.slice(5, 7)}/${mes.slice(0, 4)}`;

function Figure({ label, value, emphasis = false }: { label: string; value: string; emphasis?: boolean }) {
  return (
    <div className="col-6 col-md-4">
      <dt className="small fw-normal text-body-secondary">{label}</dt>
      <dd className={emphasis ? 'fs-5 fw-semibold text-success mb-0' : 'fs-5 mb-0'}>{value}</dd>
    </div>
  );
}

/** The month so far: hours running and paused, the estimate against a capacity always on, and each day's hours. */
export function CapacityMonthCard({ mes }: { mes: Capacidade['mes'] }) {
  const titleId = useId();
  return (
    <Card as="section" aria-labelledby={titleId} className="shadow-sm h-100">
      <Card.Header className="bg-body py-3">
        <h2 id={titleId} className="h6 mb-0">
          Mês {monthName(mes.mes)}
        </h2>
      </Card.Header>
      <Card.Body>
        <dl className="row g-3 mb-3">
          <Figure label="Horas ativa" value={formatHours(mes.horasAtiva)} />
          <Figure label="Horas pausada" value={formatHours(mes.horasPausada)} />
          <Figure label="Custo estimado" value={formatMoney(mes.custoEstimado)} />
          <Figure label="Custo sempre ativa" value={formatMoney(mes.custoSempreAtiva)} />
          <Figure label="Economia" value={formatMoney(mes.economia)} emphasis />
        </dl>
        {mes.dias.length > 0 ? (
          <>
            <CapacityMonthChart dias={mes.dias} />
            {/* The chart's figures as text, for screen readers and anyone who wants the numbers. */}
            <details className="mt-2">
              <summary className="small">Horas e custo por dia</summary>
              <div
                className="table-responsive capacity-table-scroll mt-2"
                style={{ maxHeight: 320 }}
                tabIndex={0}
                role="group"
                aria-label="Horas e custo por dia"
              >
                <Table size="sm" className="small mb-0">
                  <caption className="visually-hidden">Horas ativa e custo estimado por dia do mês</caption>
                  <thead>
                    <tr>
                      <th scope="col">Dia</th>
                      <th scope="col" className="text-end">
                        Horas ativa
                      </th>
                      <th scope="col" className="text-end">
                        Custo
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {mes.dias.map((d) => (
                      <tr key={d.dia}>
                        <th scope="row" className="fw-normal">
                          {shortDay(d.dia)}
                        </th>
                        <td className="text-end">{formatHours(d.horasAtiva)}</td>
                        <td className="text-end">{formatMoney(d.custo)}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </div>
            </details>
          </>
        ) : (
          <p className="text-body-secondary mb-0">Nenhum dia registrado neste mês.</p>
        )}
      </Card.Body>
    </Card>
  );
}
