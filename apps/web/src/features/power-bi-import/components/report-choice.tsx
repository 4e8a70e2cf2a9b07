import type { RelatorioPowerBi } from '@paineis/contract/power-bi';
import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** The longest panel name the API accepts (painelBody). */
const NOME_MAX = 200;

interface ReportChoiceProps {
  report: RelatorioPowerBi;
  ticked: boolean;
  /** The panel's name as typed; starts as the report's. */
  nomePainel: string;
  onToggle: (ticked: boolean) => void;
  onRename: (nome: string) => void;
}

/**
 * One report of the workspace: a checkbox to import it and, once ticked, the panel's name. A report that already is
 * a panel is shown disabled, with 'Já cadastrado' and a link to that panel.
 */
export function ReportChoice({ report, ticked, nomePainel, onToggle, onRename }: ReportChoiceProps) {
  const id = `relatorio-${report.reportId}`;
  const registered = report.painelId !== null;
  return (
    <li className="border rounded px-3 py-2">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Form.Check
          id={id}
          type="checkbox"
          className="mb-0 text-break"
          label={report.nome}
          checked={ticked && !registered}
          disabled={registered}
          onChange={(e) => onToggle(e.target.checked)}
          aria-describedby={registered ? `${id}-cadastrado` : undefined}
        />
        {registered && (
          <span id={`${id}-cadastrado`} className="d-inline-flex align-items-center gap-2 small">
            <Badge bg="secondary">Já cadastrado</Badge>
            <Link to={paths.viewer(report.painelId!)}>Ver painel</Link>
          </span>
        )}
      </div>
      {ticked && !registered && (
        <Form.Group controlId={`${id}-nome`} className="mt-2 ms-4">
          <Form.Label className="small mb-1">Nome do painel para {report.nome}</Form.Label>
          <Form.Control
            size="sm"
            value={nomePainel}
            maxLength={NOME_MAX}
            placeholder={report.nome}
            autoComplete="off"
            onChange={(e) => onRename(e.target.value)}
          />
        </Form.Group>
      )}
    </li>
  );
}
