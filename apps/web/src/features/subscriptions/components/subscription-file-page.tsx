import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { ASSINATURA_MESSAGES } from '@paineis/contract/subscription-constants';
import { BusyButton } from '../../../components/busy-button.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { downloadSubscriptionFile } from '../api/download-subscription-file.ts';

export const TITLE = 'Baixar arquivo da assinatura';
export const NOT_FOUND = ASSINATURA_MESSAGES.arquivoNaoEncontrado;
export const DOWNLOAD_ERROR = 'Não foi possível baixar o arquivo.';
export const DOWNLOADED = 'O download do arquivo começou.';
/** When the server names no file. */
const DEFAULT_NAME = 'assinatura';

type State = { kind: 'loading' } | { kind: 'done'; fileName: string } | { kind: 'error'; message: string };

/**
 * /assinaturas/arquivos/{id}: where a message's link leads when its file was too large to attach. The file is fetched
 * with the session's token (its recipient alone may have it, for a few days) and handed to the browser's downloads,
 * at once and again on 'Baixar novamente'.
 */
export function SubscriptionFilePage() {
  const { id = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'loading' });
  // The id fetched on arrival: StrictMode runs the effect twice in development, and one download is wanted.
  const started = useRef<string | null>(null);

  const download = useCallback(async () => {
    setState({ kind: 'loading' });
    try {
      const { blob, fileName } = await downloadSubscriptionFile(id);
      const name = fileName ?? DEFAULT_NAME;
      saveFile(blob, name);
      setState({ kind: 'done', fileName: name });
    } catch (error) {
      // A 400 is an address that names no file at all: to the person, the same as one gone.
      const gone = statusOf(error) === 404 || statusOf(error) === 400;
      setState({ kind: 'error', message: gone ? NOT_FOUND : errorMessage(error, DOWNLOAD_ERROR) });
    }
  }, [id]);

  useEffect(() => {
    if (started.current === id) return;
    started.current = id;
    void download();
  }, [id, download]);

  return (
    <Container className="py-5" style={{ maxWidth: 640 }}>
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h4 mb-3">{TITLE}</h1>
          {state.kind === 'done' && (
            <Alert variant="success">
              {DOWNLOADED} <span className="text-break">({state.fileName})</span>
            </Alert>
          )}
          {state.kind === 'error' && <Alert variant="warning">{state.message}</Alert>}
          {state.kind === 'loading' && (
            <p className="text-body-secondary" aria-live="polite">
              Baixando o arquivo…
            </p>
          )}
          <div className="d-flex flex-wrap gap-2">
            <BusyButton variant="primary" busy={state.kind === 'loading'} onClick={() => void download()}>
              Baixar novamente
            </BusyButton>
            <Link to={paths.subscriptions} className="btn btn-outline-secondary">
              Minhas assinaturas
            </Link>
          </div>
        </Card.Body>
      </Card>
    </Container>
  );
}
