import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import type { MensagemDemonstracao } from '@paineis/contract/subscriptions';
import { BusyButton } from '../../../components/busy-button.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { downloadAttachment } from '../api/download-attachment.ts';
import { formatFileSize } from '../utils/file-size.ts';

export const ATTACHMENT_ERROR = 'Não foi possível baixar o anexo.';
// As tall as a short report message; a longer one scrolls inside the frame.
const BODY_HEIGHT = 480;

/**
 * One message as its recipient would read it: who sent it to whom and when, its body, and its attachments. The body
 * is HTML the portal wrote but shows it as a mail client would: in a frame sandboxed of everything (no scripts, no
 * forms, no navigation of this page), never inserted into the page itself.
 */
export function OutboxMessage({ mensagem }: { mensagem: MensagemDemonstracao }) {
  // The attachment being downloaded, and why the last one failed.
  const [downloading, setDownloading] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const download = async (indice: number, nome: string) => {
    setDownloading(indice);
    setFailure(null);
    try {
      saveFile(await downloadAttachment(mensagem.id, indice), nome);
    } catch (error) {
      setFailure(errorMessage(error, ATTACHMENT_ERROR));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Card className="shadow-sm">
      <Card.Header className="bg-body">
        <h2 className="h5 mb-2 text-break">{mensagem.assunto}</h2>
        <dl className="small mb-0 row">
          <dt className="col-sm-2 fw-normal text-body-secondary">De</dt>
          <dd className="col-sm-10 mb-0 text-break">{mensagem.de}</dd>
          <dt className="col-sm-2 fw-normal text-body-secondary">Para</dt>
          <dd className="col-sm-10 mb-0 text-break">{mensagem.para.join(', ')}</dd>
          <dt className="col-sm-2 fw-normal text-body-secondary">Enviada em</dt>
          <dd className="col-sm-10 mb-0">{formatDateTime(new Date(mensagem.enviadaEm))}</dd>
        </dl>
      </Card.Header>
      <Card.Body>
        <iframe
          sandbox=""
          srcDoc={mensagem.corpo}
          title={`Mensagem: ${mensagem.assunto}`}
          className="w-100 border rounded bg-white"
          style={{ height: BODY_HEIGHT }}
        />
        {mensagem.anexos.length > 0 && (
          <div className="mt-3">
            <h3 className="h6">Anexos</h3>
            <div className="d-flex flex-wrap gap-2">
              {mensagem.anexos.map((anexo, indice) => (
                <BusyButton
                  key={indice}
                  variant="outline-primary"
                  size="sm"
                  busy={downloading === indice}
                  disabled={downloading !== null}
                  onClick={() => void download(indice, anexo.nome)}
                >
                  Baixar {anexo.nome} ({formatFileSize(anexo.tamanho)})
                </BusyButton>
              ))}
            </div>
            {failure && (
              <Alert variant="danger" className="mt-2 mb-0">
                {failure}
              </Alert>
            )}
          </div>
        )}
      </Card.Body>
    </Card>
  );
}
