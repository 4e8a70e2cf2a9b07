import { useId, useState } from 'react';
import { NOMES_ACOES, NOMES_OBJETOS } from '@paineis/contract/usage-audit-constants';
import type { Mudanca, RegistroAuditoria } from '@paineis/contract/audit';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { formatDateTime } from '../../../lib/format.ts';
import { formatValue } from '../utils/format-value.ts';

const COLUNAS = 6;

/** 'Campo', 'Antes', 'Depois': one row per field, person or role that changed. */
function Changes({ mudancas }: { mudancas: Mudanca[] }) {
  if (mudancas.length === 0) return <p className="small text-body-secondary mb-0">Nenhuma mudança registrada.</p>;
  return (
    <Table size="sm" bordered className="mb-0 bg-body small">
      <thead>
        <tr>
          <th scope="col" style={{ width: '30%' }}>
            Campo
          </th>
          <th scope="col" style={{ width: '35%' }}>
            Antes
          </th>
          <th scope="col" style={{ width: '35%' }}>
            Depois
          </th>
        </tr>
      </thead>
      <tbody>
        {mudancas.map((m) => (
          <tr key={m.campo}>
            <th scope="row" className="fw-normal font-monospace text-break">
              {m.campo}
            </th>
            <td className="text-break">{formatValue(m.antes)}</td>
            <td className="text-break">{formatValue(m.depois)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** One record, and under it, once expanded, what it changed. */
function AuditRow({ registro }: { registro: RegistroAuditoria }) {
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  const objeto = registro.objetoNome ?? registro.objetoId;
  return (
    <>
      <tr className={expanded ? 'table-active' : undefined}>
        {/* First, so that on a phone, where the table scrolls sideways, it is in sight. */}
        <td className="ps-3">
          <Button
            variant="outline-secondary"
            size="sm"
            className="text-nowrap"
            active={expanded}
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            onClick={() => setExpanded((open) => !open)}
          >
            Detalhes <span aria-hidden="true">{expanded ? '▴' : '▾'}</span>
          </Button>
        </td>
        <td className="text-nowrap">{formatDateTime(new Date(registro.momento))}</td>
        <td className="text-break">{registro.usuario ?? '—'}</td>
        <td className="text-nowrap">{registro.endereco ?? '—'}</td>
        <td>
          <div>{NOMES_OBJETOS[registro.objeto]}</div>
          {objeto && <div className="small text-body-secondary text-break">{objeto}</div>}
        </td>
        <td className="pe-3">{NOMES_ACOES[registro.acao]}</td>
      </tr>
      {expanded && (
        <tr id={detailsId}>
          <td colSpan={COLUNAS} className="bg-body-tertiary px-3 py-3">
            <Changes mudancas={registro.mudancas} />
          </td>
        </tr>
      )}
    </>
  );
}

/** A button that shows the record's changes, then Quando, Pessoa, Endereço, Objeto and Ação. */
export function AuditTable({ registros }: { registros: RegistroAuditoria[] }) {
  return (
    <Table responsive className="mb-0 align-middle">
      <thead className="table-light">
        <tr>
          {/* position-relative: a visually hidden text is positioned, and would otherwise stretch a phone's page. */}
          <th scope="col" className="ps-3 position-relative">
            <span className="visually-hidden">Mudanças</span>
          </th>
          <th scope="col" style={{ minWidth: '10rem' }}>
            Quando
          </th>
          <th scope="col" style={{ minWidth: '12rem' }}>
            Pessoa
          </th>
          <th scope="col">Endereço</th>
          <th scope="col" style={{ minWidth: '10rem' }}>
            Objeto
          </th>
          <th scope="col" className="pe-3" style={{ minWidth: '8rem' }}>
            Ação
          </th>
        </tr>
      </thead>
      <tbody>
        {registros.map((registro) => (
          <AuditRow key={registro.id} registro={registro} />
        ))}
      </tbody>
    </Table>
  );
}
