import { z } from 'zod';
import { isoDate, pathId, plainText } from './fields.ts';
import { MAX_VISOES_POR_PAINEL } from './personal-constants.ts';

// One source, zod-free for the web app.
export {
  exportacaoOcupada,
  FORMATOS_EXPORTACAO,
  MAX_PAGINAS_EXPORTACAO,
  MAX_VISOES_POR_PAINEL,
  EXPORT_MESSAGES,
  RECENTES,
  type FormatoExportacao,
} from './personal-constants.ts';

/**
 * What each person keeps for themselves (docs/requirements.md#personal): favourites, recently opened panels and
 * saved views. Only panels the person may open ever appear; losing access drops them from every answer.
 */

/** GET /favoritos: ids of the caller's favourite panels that they may still open (the list screen orders them). */
export const favoritos = z.object({ paineis: z.array(z.number().int()) }).meta({ id: 'Favoritos' });
export type Favoritos = z.infer<typeof favoritos>;

/** GET /recentes: the last RECENTES distinct panels the caller opened and may still open, newest first. */
export const recentes = z.object({ paineis: z.array(z.number().int()) }).meta({ id: 'Recentes' });
export type Recentes = z.infer<typeof recentes>;

export const favoritoParams = z.object({ painelId: pathId('O id do painel (painelId)') });

/** A saved view: a powerbi-client bookmark state (filters, slicers, page), named by its owner. */
export const visaoSalva = z
  .object({
    id: z.string(),
    painelId: z.number().int(),
    nome: z.string(),
    /** The bookmark's `state`, opaque: applied with bookmarksManager.applyState on the viewer's own embed. */
    estado: z.string(),
    /** The report page the view was saved on (pageName), when known. */
    pagina: z.string().nullable(),
    /**
     * Whether it is the caller's own view (may rename and delete it); false for someone else's opened by a shared
     * link, and for a panel view.
     */
    propria: z.boolean(),
    /**
     * A view of the panel ('Visão do painel'), saved by an administrator for everyone who may open the panel; only
     * administrators rename and delete it.
     */
    doPainel: z.boolean(),
    /** For a panel view, the name of the administrator who saved it; null for a person's own view. */
    salvaPor: z.string().nullable(),
    criadaEm: isoDate,
    atualizadaEm: isoDate,
  })
  .meta({ id: 'VisaoSalva' });
export type VisaoSalva = z.infer<typeof visaoSalva>;

export const visaoParams = z.object({
  id: pathId('O id'),
  visaoId: z.uuid({ error: 'O id da visão (visaoId) deve ser um UUID.' }),
});

const nomeVisao = plainText('Nome da visão (nome)', {
  required: 'Nome da visão (nome) é obrigatório.',
  max: 100,
  tooLong: 'Nome da visão (nome) deve ter no máximo 100 caracteres.',
});

/**
 * A bookmark state as powerbi-client captures it: one opaque line of text, with no space at either end. Trimmed like
 * every text: the embedded database drops a leading U+FEFF (which `trim` removes) when it reads a value back, so an
 * untrimmed state would not come back as it was sent.
 */
export const MAX_ESTADO = 200_000;
const estadoVisao = plainText('Estado da visão (estado)', {
  required: 'Estado da visão (estado) é obrigatório.',
  max: MAX_ESTADO,
  tooLong: `Estado da visão (estado) deve ter no máximo ${MAX_ESTADO} caracteres.`,
});
const paginaRelatorio = plainText('Página do relatório (pagina)', {
  required: 'Página do relatório (pagina) não pode ser vazia.',
  max: 200,
  tooLong: 'Página do relatório (pagina) deve ter no máximo 200 caracteres.',
});

export const visaoBody = z.object({
  nome: nomeVisao,
  estado: estadoVisao,
  pagina: paginaRelatorio.nullable().optional(),
  /** Saves it as a view of the panel, for everyone who may open it: administrators only (403 otherwise). */
  doPainel: z.boolean({ error: 'Visão do painel (doPainel) deve ser verdadeiro ou falso.' }).optional(),
});
export type VisaoBody = z.input<typeof visaoBody>;

/** PATCH: renaming is the only change; a new state is a new view. */
export const visaoRenameBody = z.object({ nome: nomeVisao });
export type VisaoRenameBody = z.input<typeof visaoRenameBody>;

export const SAVED_VIEW_MESSAGES = {
  duplicada: 'Você já tem uma visão com este nome neste painel.',
  limite: `Limite de ${MAX_VISOES_POR_PAINEL} visões por painel atingido. Exclua uma para salvar outra.`,
  naoEncontrada: 'Visão não encontrada.',
  duplicadaDoPainel: 'Já existe uma visão do painel com este nome.',
  limiteDoPainel: `Limite de ${MAX_VISOES_POR_PAINEL} visões do painel atingido. Exclua uma para salvar outra.`,
  doPainelSoAdministradores: 'Só administradores podem salvar, renomear ou excluir uma visão do painel.',
} as const;

/** POST /paineis/{id}/exportacoes: the format, and the viewer's current state as the export's default bookmark. */
export const exportacaoBody = z.object({
  formato: z.enum(['PDF', 'PPTX'], { error: 'O formato (formato) deve ser PDF ou PPTX.' }),
  estado: estadoVisao.optional(),
  pagina: paginaRelatorio.optional(),
});
export type ExportacaoBody = z.input<typeof exportacaoBody>;

/** Power BI's export job states, as Power BI names them. */
export const statusExportacao = z.enum(['NotStarted', 'Running', 'Succeeded', 'Failed']);

/**
 * One export job of the caller. While it runs, the answer carries Power BI's `Retry-After` (seconds) as a header
 * and in `aguardarSegundos`: the viewer asks again no sooner.
 */
export const exportacao = z
  .object({
    id: z.string(),
    painelId: z.number().int(),
    formato: z.enum(['PDF', 'PPTX']),
    status: statusExportacao,
    percentComplete: z.number().int(),
    aguardarSegundos: z.number().int().nullable(),
    /** Where to download the file once status is Succeeded. */
    arquivoUrl: z.string().nullable(),
  })
  .meta({ id: 'Exportacao' });
export type Exportacao = z.infer<typeof exportacao>;

export const exportacaoParams = z.object({
  id: pathId('O id'),
  exportacaoId: z.uuid({ error: 'O id da exportação (exportacaoId) deve ser um UUID.' }),
});
