import { useCallback, useEffect, useRef, useState } from 'react';
import { EXPORT_MESSAGES, type FormatoExportacao } from '@paineis/contract/personal-constants';
import { errorMessage } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { downloadExport } from '../api/download-export.ts';
import { getExport } from '../api/get-export.ts';
import { startExport } from '../api/start-export.ts';
import type { ReportControls } from '../embedding/report-embedder.ts';

export const EXPORT_FAILED = EXPORT_MESSAGES.falhou;
export const EXPORT_ERROR = 'Não foi possível exportar o relatório.';
/** When an answer says nothing of when to ask again. */
const DEFAULT_WAIT_SECONDS = 2;

export type ExportProgress =
  | { kind: 'idle' }
  | { kind: 'running'; formato: FormatoExportacao; percent: number }
  | { kind: 'error'; message: string };

/** Waits before the next question; tests pass one that returns at once. */
export type Wait = (seconds: number) => Promise<void>;
export const waitSeconds: Wait = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

const EXTENSIONS: Record<FormatoExportacao, string> = { PDF: 'pdf', PPTX: 'pptx' };

interface ExportOptions {
  painelId: number;
  nomePainel: string;
  /** The report, to export as it is now (its bookmark state); without it, as Power BI opens it. */
  controls: ReportControls | null;
  pagina: string | undefined;
  wait?: Wait;
}

/**
 * Export to PDF or PowerPoint through Power BI's export job: start it with the report's current state, ask how it is
 * going no sooner than the answer says (Retry-After), then download the file under the name the server gives.
 */
export function useExport({ painelId, nomePainel, controls, pagina, wait = waitSeconds }: ExportOptions) {
  const [progress, setProgress] = useState<ExportProgress>({ kind: 'idle' });
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const start = useCallback(
    async (formato: FormatoExportacao) => {
      const show = (next: ExportProgress) => {
        if (alive.current) setProgress(next);
      };
      show({ kind: 'running', formato, percent: 0 });
      try {
        let estado: string | undefined;
        try {
          estado = (await controls?.captureState()) ?? undefined;
        } catch (error) {
          // The report as Power BI opens it is still worth exporting.
          console.warn('Não foi possível capturar o estado do relatório', error);
        }
        let job = await startExport(painelId, {
          formato,
          ...(estado ? { estado } : {}),
          ...(pagina ? { pagina } : {}),
        });
        while (job.exportacao.status === 'NotStarted' || job.exportacao.status === 'Running') {
          show({ kind: 'running', formato, percent: job.exportacao.percentComplete });
          await wait(Math.max(job.aguardarSegundos ?? DEFAULT_WAIT_SECONDS, 1));
          // Left the viewer: stop asking.
          if (!alive.current) return;
          job = await getExport(painelId, job.exportacao.id);
        }
        if (job.exportacao.status !== 'Succeeded') {
          show({ kind: 'error', message: EXPORT_FAILED });
          return;
        }
        show({ kind: 'running', formato, percent: 100 });
        const { blob, fileName } = await downloadExport(painelId, job.exportacao);
        if (!alive.current) return;
        saveFile(blob, fileName ?? `${nomePainel}.${EXTENSIONS[formato]}`);
        show({ kind: 'idle' });
      } catch (error) {
        show({ kind: 'error', message: errorMessage(error, EXPORT_ERROR) });
      }
    },
    [painelId, nomePainel, controls, pagina, wait],
  );
  const dismiss = useCallback(() => setProgress({ kind: 'idle' }), []);
  return { progress, start, dismiss };
}
