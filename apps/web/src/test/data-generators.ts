import { act } from '@testing-library/react';
import { vi } from 'vitest';
import type { Capacidade, MudancaCapacidade } from '@paineis/contract/capacity';
import type { Configuracao } from '@paineis/contract/configuration';
import type { Grupo365, GrupoVinculado } from '@paineis/contract/groups';
import type { GrupoPaineis, Painel, PainelComEmbed } from '@paineis/contract/panels';
import type { VisaoSalva } from '@paineis/contract/personal';
import type { Assinatura, MensagemDemonstracao } from '@paineis/contract/subscriptions';
import type {
  EmbedTarget,
  ReportEmbedder,
  DataExportKind,
  ReportEventName,
  ReportPage,
  ReportVisual,
} from '../features/viewer/embedding/report-embedder.ts';

/** Shared test data: each generator gives a valid value with plain defaults; a test overrides what it is about. */

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** A panel as the list and the modals receive it: 'Vendas por Região' (id 7) in 'Comercial' (id 2). */
export function painel(overrides: Partial<Painel> = {}): Painel {
  return {
    id: 7,
    nomePainel: 'Vendas por Região',
    workspaceId: '11111111-1111-4111-8111-111111111111',
    reportId: '22222222-2222-4222-8222-222222222222',
    usaRls: false,
    permiteExportacao: true,
    permiteExportarDados: true,
    idioma: null,
    classificacaoId: 2,
    classificacaoNome: 'Comercial',
    ordem: 1,
    dataCadastro: '2026-11-01T10:00:00.000Z',
    dataAtualizacao: null,
    ...overrides,
  };
}

/** A panel as the viewer receives it (GET /api/paineis/{id}): with an embed token valid for an hour from now. */
export function painelComEmbed(overrides: Partial<PainelComEmbed> = {}): PainelComEmbed {
  return {
    ...painel(),
    embedToken: 'token-de-embed',
    embedUrl: 'https://app.powerbi.com/reportEmbed?reportId=22222222-2222-4222-8222-222222222222',
    tokenExpiration: inAnHour(),
    ...overrides,
  };
}

/** A classification of the grouped list, counting the panels it is given unless told otherwise. */
export function grupoPaineis(overrides: Partial<GrupoPaineis> = {}): GrupoPaineis {
  const paineis = overrides.paineis ?? [];
  return {
    id: 2,
    nome: 'Comercial',
    descricao: null,
    ativo: true,
    quantidadePaineis: paineis.length,
    paineis,
    ...overrides,
  };
}

/** An Entra group as GET /api/grupos365 lists it: the security group 'Comercial' with 12 people. */
export function grupo365(overrides: Partial<Grupo365> = {}): Grupo365 {
  return {
    id: 'g-comercial',
    nome: 'Comercial',
    descricao: 'Equipe comercial',
    tipo: 'seguranca',
    membros: 12,
    publico: false,
    concede: { paineis: true, papeisRls: true },
    ...overrides,
  };
}

/**
 * A public Microsoft 365 group (anyone may join it) as GET /api/grupos365 lists it under the default
 * PUBLIC_GROUPS_GRANT: it opens the panels it is linked to, and gives no RLS role.
 */
export function grupoPublico(overrides: Partial<Grupo365> = {}): Grupo365 {
  return grupo365({
    id: 'g-projeto',
    nome: 'Projeto Expansão',
    descricao: 'Projeto de expansão para novas regiões',
    tipo: 'microsoft365',
    membros: 8,
    publico: true,
    concede: { paineis: true, papeisRls: false },
    ...overrides,
  });
}

/** A group as a panel's links and the access reasons name it: 'Comercial', not public. */
export function grupoVinculado(overrides: Partial<GrupoVinculado> = {}): GrupoVinculado {
  return { id: 'g-comercial', nome: 'Comercial', publico: false, ...overrides };
}

/**
 * A subscription as GET /api/assinaturas and /api/assinaturas/todas list it: Bruno's weekly PDF of 'Vendas por Região'
 * (panel 7), every Monday at 07:00 in São Paulo, active, never sent, for its owner alone.
 */
export function assinatura(overrides: Partial<Assinatura> = {}): Assinatura {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    painelId: 7,
    nomePainel: 'Vendas por Região',
    formato: 'PDF',
    frequencia: 'semanal',
    hora: '07:00',
    diaSemana: 1,
    diaMes: null,
    intervaloHoras: null,
    fusoHorario: 'America/Sao_Paulo',
    pagina: null,
    visaoId: null,
    nomeVisao: null,
    ativa: true,
    situacao: 'ativa',
    motivoSituacao: null,
    proximoEnvio: '2026-11-30T10:00:00.000Z',
    ultimoEnvio: null,
    ultimaFalha: null,
    dono: { id: 'user-1', displayName: 'Bruno Usuário', email: 'bruno@empresa.com.br' },
    destinatarios: null,
    criadaEm: '2026-11-20T13:00:00.000Z',
    ...overrides,
  };
}

/** A saved view of panel 7 as GET /api/paineis/7/visoes lists it: the person's own, on 'ReportSection2'. */
export function visaoSalva(overrides: Partial<VisaoSalva> & Pick<VisaoSalva, 'id' | 'nome'>): VisaoSalva {
  return {
    painelId: 7,
    estado: `estado-de-${overrides.nome}`,
    pagina: 'ReportSection2',
    propria: true,
    doPainel: false,
    salvaPor: null,
    criadaEm: '2026-11-20T10:00:00.000Z',
    atualizadaEm: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * Another subscription: the monthly PowerPoint of 'Estoque Diário' (panel 9) on the 5th at 07:00, whose last delivery
 * failed on the export.
 */
export function assinaturaMensal(overrides: Partial<Assinatura> = {}): Assinatura {
  return assinatura({
    id: '44444444-4444-4444-8444-444444444444',
    painelId: 9,
    nomePainel: 'Estoque Diário',
    formato: 'PPTX',
    frequencia: 'mensal',
    diaSemana: null,
    diaMes: 5,
    ultimaFalha: { em: '2026-11-05T10:02:00.000Z', motivo: 'O Power BI não conseguiu exportar o relatório.' },
    ...overrides,
  });
}

/**
 * A subscription sent after each refresh: the PDF of 'Vendas por Região' (panel 7) after every refresh of its data, at
 * most once every 6 hours, with no hour nor next delivery (it waits for the refresh).
 */
export function assinaturaAposAtualizacao(overrides: Partial<Assinatura> = {}): Assinatura {
  return assinatura({
    id: '55555555-5555-4555-8555-555555555555',
    frequencia: 'apos-atualizacao',
    hora: null,
    diaSemana: null,
    intervaloHoras: 6,
    proximoEnvio: null,
    ...overrides,
  });
}

/** A message of the demo outbox: the weekly 'Vendas por Região' sent to Bruno, with its PDF attached. */
export function mensagemDemonstracao(overrides: Partial<MensagemDemonstracao> = {}): MensagemDemonstracao {
  return {
    id: 'mensagem-1',
    de: 'paineis@empresa.com.br',
    para: ['bruno@empresa.com.br'],
    assunto: 'Vendas por Região — 30/11/2026',
    corpo: '<p>Olá, Bruno. Segue o painel <a href="http://localhost/visualizar/7">Vendas por Região</a>.</p>',
    enviadaEm: '2026-11-30T10:00:05.000Z',
    anexos: [{ nome: 'Vendas por Região.pdf', tipo: 'application/pdf', tamanho: 48_640 }],
    ...overrides,
  };
}

/** How the server says it is set up (GET /api/configuracao): Microsoft and mail configured, not in demo mode. */
export function configuracao(overrides: Partial<Configuracao> = {}): Configuracao {
  return { demonstracao: false, powerBi: true, email: true, idiomaRelatorios: 'pt-BR', ...overrides };
}

/** The report's one visible page when a test names none. */
export const REPORT_PAGE: ReportPage = { name: 'ReportSection1', displayName: 'Visão geral', visibility: 0 };

interface FakeEmbedderOptions {
  /** What getPages() answers. */
  pages?: ReportPage[];
  /** What captureState() answers. */
  state?: string;
  /** What getVisuals() answers for the active page (the first of `pages`). */
  visuals?: ReportVisual[];
  /** What exportData() answers: Power BI's CSV text for the visual and kind asked for. */
  exportData?: (visualName: string, kind: DataExportKind, rows: number) => Promise<string>;
}

/** The visuals of REPORT_PAGE when a test names none: a card, a column chart and a custom visual. */
export const REPORT_VISUALS: ReportVisual[] = [
  { name: 'cartaoReceita', title: 'Receita', type: 'card' },
  { name: 'graficoVendasMes', title: 'Vendas por mês', type: 'columnChart' },
  { name: 'visualMapaCalor', title: 'Mapa de calor', type: 'PBI_CV_5F0C9A3E_MapaDeCalor' },
];

/**
 * Stands where powerbi-client (or the demo host) would: records what the viewer asks of the report (each call a
 * vi.fn, each load's target in `loads`), rejects load() with `loadError` when set, and fires events on demand.
 */
export class FakeEmbedder implements ReportEmbedder {
  demo = false;
  loadError: Error | null = null;
  readonly handlers = new Map<string, ((detail: unknown) => void)[]>();
  readonly loads: EmbedTarget[] = [];
  readonly setPage = vi.fn((_name: string) => Promise.resolve());
  readonly setAccessToken = vi.fn((_token: string) => Promise.resolve());
  readonly getPages;
  readonly captureState;
  readonly applyState = vi.fn((_state: string) => Promise.resolve());
  readonly print = vi.fn(() => Promise.resolve());
  readonly getVisuals;
  readonly exportData;
  readonly fullscreen = vi.fn();
  readonly destroy = vi.fn();

  constructor({
    pages = [REPORT_PAGE],
    state = 'estado',
    visuals = REPORT_VISUALS,
    exportData = (visualName) => Promise.resolve(`Coluna\r\n${visualName}\r\n`),
  }: FakeEmbedderOptions = {}) {
    this.getPages = vi.fn(() => Promise.resolve(pages));
    this.captureState = vi.fn(() => Promise.resolve(state));
    this.getVisuals = vi.fn(() => Promise.resolve({ page: pages[0]!, visuals }));
    this.exportData = vi.fn((_pageName: string, visualName: string, kind: DataExportKind, rows: number) =>
      exportData(visualName, kind, rows),
    );
  }

  load(_container: HTMLElement, target: EmbedTarget): Promise<void> {
    this.loads.push(target);
    return this.loadError ? Promise.reject(this.loadError) : Promise.resolve();
  }

  on(event: ReportEventName, handler: (detail: unknown) => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
  }

  /** Fires an event of the report, as Power BI would, inside act(). */
  emit(event: ReportEventName, detail: unknown = null) {
    act(() => {
      for (const handler of this.handlers.get(event) ?? []) handler(detail);
    });
  }
}

/**
 * The Power BI capacity as GET /api/capacidade answers it: an A1 running, weekdays 08:00–19:00 in São Paulo, paused
 * after 30 idle minutes, and three days of November.
 */
export function capacidade(overrides: Partial<Capacidade> = {}): Capacidade {
  return {
    configurada: true,
    estado: 'ativa',
    nome: 'paineis-a1',
    tipo: 'embedded',
    sku: 'A1',
    mensagem: null,
    lidoEm: '2026-11-28T13:05:09.000Z',
    retomadaSegundos: 10,
    politica: {
      horario: [1, 2, 3, 4, 5].map((diaSemana) => ({ diaSemana, inicio: '08:00', fim: '19:00' })),
      fusoHorario: 'America/Sao_Paulo',
      pausarAposMinutosOcioso: 30,
      quemRetomaAoAbrir: 'todos',
      precoPorHora: { A1: 1.01, A2: 2.02 },
      skuHorario: null,
      contato: 'a equipe de BI',
    },
    mes: {
      mes: '2026-11',
      horasAtiva: 30.5,
      horasPausada: 41.5,
      custoEstimado: 30.81,
      custoSempreAtiva: 72.72,
      economia: 41.91,
      dias: [
        { dia: '2026-11-26', horasAtiva: 11, custo: 11.11 },
        { dia: '2026-11-27', horasAtiva: 12.5, custo: 12.63 },
        { dia: '2026-11-28', horasAtiva: 7, custo: 7.07 },
      ],
    },
    ...overrides,
  };
}

/** A change of the capacity's state (GET /api/capacidade/historico): paused by the idle rule. */
export function mudancaCapacidade(overrides: Partial<MudancaCapacidade> = {}): MudancaCapacidade {
  return {
    id: 1,
    em: '2026-11-28T12:00:00.000Z',
    estado: 'pausada',
    sku: 'A1',
    motivo: 'ociosidade',
    pessoa: null,
    detalhe: null,
    ...overrides,
  };
}
