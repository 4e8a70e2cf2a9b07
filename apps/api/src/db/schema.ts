import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ACCENTED = 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ';
const PLAIN = 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy';

/** A person's id in another table: the row goes with the person. */
const personColumn = () => text('usuario_id').references(() => usuarios.id, { onDelete: 'cascade' });
/** A panel's id in another table: the row goes with the panel. */
const panelColumn = () => integer('painel_id').references(() => paineis.id, { onDelete: 'cascade' });

export const classificacoes = pgTable(
  'classificacoes',
  {
    id: serial('id').primaryKey(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    ativo: boolean('ativo').notNull().default(true),
    dataCadastro: timestamp('data_cadastro', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('classificacoes_nome_unico').on(sql`lower(${t.nome})`)],
);

export const paineis = pgTable(
  'paineis',
  {
    id: serial('id').primaryKey(),
    nomePainel: text('nome_painel').notNull(),
    workspaceId: text('workspace_id').notNull(),
    reportId: text('report_id').notNull(),
    usaRls: boolean('usa_rls').notNull().default(false),
    /** Whether people may export the report to PDF or PowerPoint (docs/requirements.md#personal). */
    permiteExportacao: boolean('permite_exportacao').notNull().default(true),
    /** Whether people may export a visual's data to CSV ('Permitir exportar dados', docs/requirements.md#viewer). */
    permiteExportarDados: boolean('permite_exportar_dados').notNull().default(true),
    /** The report's language and number formats (a BCP 47 tag such as 'en-US'); null: the portal's setting. */
    idioma: text('idioma'),
    classificacaoId: integer('classificacao_id').references(() => classificacoes.id, {
      onDelete: 'set null',
    }),
    ordem: integer('ordem').notNull().default(1),
    dataCadastro: timestamp('data_cadastro', { withTimezone: true }).notNull().defaultNow(),
    dataAtualizacao: timestamp('data_atualizacao', { withTimezone: true }),
  },
  (t) => [index('paineis_classificacao_ordem').on(t.classificacaoId, t.ordem, t.id)],
);

export const usuarios = pgTable(
  'usuarios',
  {
    /** Entra object id for Microsoft accounts; a local id for local accounts. */
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    /** How names sort for people (case and accents ignored), kept by the database itself. */
    nomeOrdenacao: text('nome_ordenacao')
      .notNull()
      .generatedAlwaysAs(sql.raw(`lower(translate(display_name, '${ACCENTED}', '${PLAIN}'))`)),
    /**
     * The directory's identity (docs/decisions/013-identity-from-the-directory.md): Graph's userPrincipalName and
     * userType ('Member' or 'Guest'). Null for people who never came from Graph (local accounts, demo data).
     */
    upn: text('upn'),
    tipo: text('tipo', { enum: ['Member', 'Guest'] }),
    department: text('department'),
    jobTitle: text('job_title'),
    officeLocation: text('office_location'),
    role: text('role', { enum: ['Admin', 'User'] })
      .notNull()
      .default('User'),
    /**
     * Where an Admin role came from, so it follows its source: 'entra' (the Entra app role `Admin`, withdrawn
     * when Entra withdraws it), 'config' (ADMIN_USERS or a local account: configuration, never withdrawn by
     * Entra), null for anything else (demo data, a User).
     */
    roleSource: text('role_source', { enum: ['entra', 'config'] }),
    active: boolean('active').notNull().default(true),
    /** Where the row came from: 'entra' (sign-in or Graph sync), 'local' or 'demo'. */
    source: text('source').notNull(),
    dataCadastro: timestamp('data_cadastro', { withTimezone: true }).notNull().defaultNow(),
    dataAtualizacao: timestamp('data_atualizacao', { withTimezone: true }),
  },
  (t) => [
    index('usuarios_email').on(sql`lower(${t.email})`),
    index('usuarios_upn').on(sql`lower(${t.upn})`),
    index('usuarios_ativos_nome').on(t.active, t.nomeOrdenacao, t.id),
  ],
);

export const painelUsuarios = pgTable(
  'painel_usuarios',
  {
    painelId: panelColumn().notNull(),
    usuarioId: personColumn().notNull(),
  },
  (t) => [primaryKey({ columns: [t.painelId, t.usuarioId] }), index('painel_usuarios_usuario').on(t.usuarioId)],
);

/**
 * Entra groups (security and Microsoft 365) as the directory sync last read them from Graph
 * (docs/decisions/018-access-by-group.md). Distribution lists are not kept: they grant nothing.
 */
export const grupos = pgTable(
  'grupos',
  {
    /** Entra object id. */
    id: text('id').primaryKey(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    tipo: text('tipo', { enum: ['seguranca', 'microsoft365'] }).notNull(),
    /**
     * Graph's `visibility` of a Microsoft 365 group as the sync read it ('Public', 'Private', 'HiddenMembership');
     * null for security groups, which have none. Anyone in the organisation may join a 'Public' one unapproved.
     */
    visibilidade: text('visibilidade'),
    dataAtualizacao: timestamp('data_atualizacao', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('grupos_nome').on(sql`lower(${t.nome})`)],
);

/**
 * Each group's direct members, as Graph lists them: people and nested groups. Who belongs to a group at any depth
 * is derived in memory from these (modules/users/group-membership.ts), which also tells the path.
 */
export const grupoMembros = pgTable(
  'grupo_membros',
  {
    grupoId: text('grupo_id')
      .notNull()
      .references(() => grupos.id, { onDelete: 'cascade' }),
    /** A person's or a nested group's Entra object id; a person the portal does not hold (disabled) is kept too. */
    membroId: text('membro_id').notNull(),
    membroTipo: text('membro_tipo', { enum: ['usuario', 'grupo'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.grupoId, t.membroId] }), index('grupo_membros_membro').on(t.membroId)],
);

/** Panels linked to groups: everyone in the group, at any depth, may open the panel. */
export const painelGrupos = pgTable(
  'painel_grupos',
  {
    painelId: panelColumn().notNull(),
    grupoId: text('grupo_id')
      .notNull()
      .references(() => grupos.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.painelId, t.grupoId] }), index('painel_grupos_grupo').on(t.grupoId)],
);

/** Where each incremental read of the directory left off: Graph's delta link for groups. */
export const estadoSincronizacao = pgTable('estado_sincronizacao', {
  nome: text('nome').primaryKey(),
  valor: text('valor').notNull(),
  dataAtualizacao: timestamp('data_atualizacao', { withTimezone: true }).notNull().defaultNow(),
});

export const painelRlsRoles = pgTable(
  'painel_rls_roles',
  {
    id: serial('id').primaryKey(),
    painelId: panelColumn().notNull(),
    roleName: text('role_name').notNull(),
    posicao: integer('posicao').notNull(),
  },
  (t) => [uniqueIndex('painel_rls_roles_nome').on(t.painelId, t.roleName)],
);

export const painelRlsRoleEmails = pgTable(
  'painel_rls_role_emails',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => painelRlsRoles.id, { onDelete: 'cascade' }),
    /** Always stored lower-case. */
    email: text('email').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.email] }), index('painel_rls_role_emails_email').on(t.email)],
);

/** Entra groups listed in an RLS role: everyone in the group, at any depth, carries the role (decision 018). */
export const painelRlsRoleGrupos = pgTable(
  'painel_rls_role_grupos',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => painelRlsRoles.id, { onDelete: 'cascade' }),
    grupoId: text('grupo_id')
      .notNull()
      .references(() => grupos.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.grupoId] }), index('painel_rls_role_grupos_grupo').on(t.grupoId)],
);

export const tokensRevogados = pgTable(
  'tokens_revogados',
  {
    jti: text('jti').primaryKey(),
    expiraEm: timestamp('expira_em', { withTimezone: true }).notNull(),
  },
  (t) => [index('tokens_revogados_expira').on(t.expiraEm)],
);

/**
 * One row per cached data set, bumped by statement triggers (see the data-versions migration) on every
 * change to the tables behind it. Every API instance compares it before serving a cached list.
 */
export const versoesDados = pgTable('versoes_dados', {
  nome: text('nome').primaryKey(),
  versao: bigint('versao', { mode: 'number' }).notNull().default(0),
});

/** Username and password sign-in for a user (the bootstrap admin, the demo accounts). */
export const contasLocais = pgTable(
  'contas_locais',
  {
    usuarioId: personColumn().primaryKey(),
    username: text('username').notNull(),
    /** argon2id, PHC string. */
    senhaHash: text('senha_hash').notNull(),
    dataAtualizacao: timestamp('data_atualizacao', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contas_locais_username').on(sql`lower(${t.username})`)],
);

/**
 * Local sign-in attempts whose password was wrong, or is being checked: one row each, with the username as
 * typed (trimmed, lower case) and the client address (an IPv6 address by its /64). Every instance counts them
 * per (username, address), per address and per username (local-sign-in.ts); rows older than an hour are purged.
 */
export const tentativasLogin = pgTable(
  'tentativas_login',
  {
    id: serial('id').primaryKey(),
    usuario: text('usuario').notNull(),
    endereco: text('endereco').notNull(),
    momento: timestamp('momento', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('tentativas_login_usuario_momento').on(t.usuario, t.momento),
    index('tentativas_login_endereco_momento').on(t.endereco, t.momento),
  ],
);

/**
 * One opening of a panel (GET /paineis/{id}), written in batches (modules/usage/opening-recorder.ts). No foreign keys:
 * the record outlives the panel and the person. `usuario_id` and `identidade` are emptied once the view is older than
 * VIEW_ANONYMISE_AFTER_DAYS; the row, and so the counts, stay until VIEW_RETENTION_DAYS.
 */
export const visualizacoes = pgTable(
  'visualizacoes',
  {
    id: uuid('id').primaryKey(),
    momento: timestamp('momento', { withTimezone: true }).notNull(),
    usuarioId: text('usuario_id'),
    painelId: integer('painel_id').notNull(),
    /** The effective identity's username in the embed token; null without RLS. */
    identidade: text('identidade'),
    papeis: text('papeis')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Power BI's RequestId of the GenerateToken call that made the token. */
    requestId: text('request_id'),
    tokenDoCache: boolean('token_do_cache').notNull(),
    /** Openings this record stands for: the same person, panel and identity again within one write batch. */
    quantidade: integer('quantidade').notNull().default(1),
    carregadoMs: integer('carregado_ms'),
    renderizadoMs: integer('renderizado_ms'),
    erros: text('erros')
      .array()
      .notNull()
      .default(sql`'{}'`),
  },
  (t) => [
    index('visualizacoes_momento').on(t.momento),
    index('visualizacoes_painel_momento').on(t.painelId, t.momento),
    // Each person's recently opened panels (GET /recentes).
    index('visualizacoes_usuario_momento').on(t.usuarioId, t.momento),
  ],
);

/**
 * Each person's last successful sign-in (Microsoft or local): '/uso' lists who has not signed in for a while. A table
 * of its own, without the data-version triggers of 'usuarios': a sign-in must not empty every instance's caches.
 */
export const ultimosLogins = pgTable(
  'ultimos_logins',
  {
    usuarioId: personColumn().primaryKey(),
    momento: timestamp('momento', { withTimezone: true }).notNull(),
  },
  (t) => [index('ultimos_logins_momento').on(t.momento)],
);

/** Administrators' changes, and sign-ins, sign-outs, refused sign-ins and throttling (modules/audit). */
export const auditoria = pgTable(
  'auditoria',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    momento: timestamp('momento', { withTimezone: true }).notNull().defaultNow(),
    usuarioId: text('usuario_id'),
    /** The person's e-mail or username, kept as it was; for a refused sign-in, the name typed. */
    usuario: text('usuario'),
    endereco: text('endereco'),
    objeto: text('objeto').notNull(),
    objetoId: text('objeto_id'),
    objetoNome: text('objeto_nome'),
    acao: text('acao').notNull(),
    mudancas: jsonb('mudancas')
      .notNull()
      .default(sql`'[]'`),
  },
  (t) => [
    index('auditoria_usuario').on(t.usuarioId, t.id),
    index('auditoria_objeto').on(t.objeto, t.id),
    index('auditoria_acao').on(t.acao, t.id),
  ],
);

/** Each person's favourite panels (docs/requirements.md#personal): they go with the panel or the person. */
export const favoritos = pgTable(
  'favoritos',
  {
    usuarioId: personColumn().notNull(),
    painelId: panelColumn().notNull(),
    criadoEm: timestamp('criado_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.usuarioId, t.painelId] }), index('favoritos_painel').on(t.painelId)],
);

/**
 * A person's saved view of a panel: a powerbi-client bookmark state, kept as the library gave it. Anyone who may open
 * the panel may open it by its id (a shared link); only its owner renames or deletes it.
 */
export const visoesSalvas = pgTable(
  'visoes_salvas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    painelId: panelColumn().notNull(),
    usuarioId: personColumn().notNull(),
    nome: text('nome').notNull(),
    estado: text('estado').notNull(),
    pagina: text('pagina'),
    /**
     * A view of the panel, saved by an administrator for everyone who may open it ('Visão do painel'); the person who
     * saved it is kept in usuario_id. False: the person's own view.
     */
    doPainel: boolean('do_painel').notNull().default(false),
    criadaEm: timestamp('criada_em', { withTimezone: true }).notNull().defaultNow(),
    atualizadaEm: timestamp('atualizada_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('visoes_salvas_nome_unico')
      .on(t.usuarioId, t.painelId, sql`lower(${t.nome})`)
      .where(sql`not ${t.doPainel}`),
    // A panel's own views are one list, whoever saved them: one name each.
    uniqueIndex('visoes_salvas_do_painel_nome_unico')
      .on(t.painelId, sql`lower(${t.nome})`)
      .where(sql`${t.doPainel}`),
    index('visoes_salvas_painel').on(t.painelId),
  ],
);

/**
 * Each export of a visual's data to CSV (docs/requirements.md#viewer), as the viewer reported it once Power BI had
 * answered: who, which panel, page and visual, summarised or underlying, and how many rows. Counted on /uso.
 */
export const exportacoesDados = pgTable(
  'exportacoes_dados',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    momento: timestamp('momento', { withTimezone: true }).notNull().defaultNow(),
    usuarioId: text('usuario_id'),
    painelId: integer('painel_id').notNull(),
    pagina: text('pagina').notNull(),
    visual: text('visual').notNull(),
    tituloVisual: text('titulo_visual'),
    tipo: text('tipo', { enum: ['resumidos', 'subjacentes'] }).notNull(),
    linhas: integer('linhas').notNull(),
  },
  (t) => [
    index('exportacoes_dados_momento').on(t.momento),
    index('exportacoes_dados_painel').on(t.painelId, t.momento),
  ],
);

/**
 * Export jobs started in Power BI (POST /paineis/{id}/exportacoes), each bound to the person who started it: only
 * they poll it and download its file, from any instance. The report's ids are kept as the job was started, since
 * the panel may be pointed at another report meanwhile. Purged after a day (Power BI keeps the file about as long).
 */
export const exportacoes = pgTable(
  'exportacoes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    usuarioId: personColumn().notNull(),
    painelId: panelColumn().notNull(),
    formato: text('formato', { enum: ['PDF', 'PPTX'] }).notNull(),
    powerBiExportId: text('power_bi_export_id').notNull(),
    workspaceId: text('workspace_id').notNull(),
    reportId: text('report_id').notNull(),
    /**
     * What the job was asked for, so that a Failed with Retry-After (transient, in Power BI's export guidance) can be
     * started again as it was: the bookmark state and the page (null: none sent).
     */
    estado: text('estado'),
    pagina: text('pagina'),
    /** How many times Power BI was asked to export this (1 for the first ExportTo). */
    tentativas: integer('tentativas').notNull().default(1),
    /** When Power BI's Retry-After allows the next attempt; null while none is pending. */
    novaTentativaEm: timestamp('nova_tentativa_em', { withTimezone: true }),
    criadaEm: timestamp('criada_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('exportacoes_criada').on(t.criadaEm), index('exportacoes_painel').on(t.painelId)],
);

/*
 * The Power BI side (docs/requirements.md#power-bi), read in the background and kept here so that a restart or
 * another instance has it. Ids of Power BI objects are stored lower-case.
 */

/** The dataset each panel's report reads, as the last freshness round found it (null: the report was not found). */
export const painelDatasets = pgTable(
  'painel_datasets',
  {
    painelId: panelColumn().primaryKey(),
    /** The report the dataset was read for: a panel pointed at another report since then has no dataset yet. */
    workspaceId: text('workspace_id').notNull(),
    reportId: text('report_id').notNull(),
    datasetId: text('dataset_id'),
    datasetWorkspaceId: text('dataset_workspace_id'),
  },
  (t) => [index('painel_datasets_dataset').on(t.datasetId)],
);

/** The last refresh of each dataset some panel reads, from Power BI's refresh history. */
export const datasetsAtualizacao = pgTable('datasets_atualizacao', {
  datasetId: text('dataset_id').primaryKey(),
  status: text('status', {
    enum: ['concluida', 'falhou', 'em-andamento', 'cancelada', 'tempo-real', 'desconhecida'],
  }).notNull(),
  /** End of the newest completed refresh known. */
  ultimaAtualizacao: timestamp('ultima_atualizacao', { withTimezone: true }),
  /** Start of the newest refresh, whatever its outcome. */
  ultimaTentativa: timestamp('ultima_tentativa', { withTimezone: true }),
  /** Power BI's message for a failed refresh. */
  mensagem: text('mensagem'),
  lidoEm: timestamp('lido_em', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The scheduled refresh of each import dataset some panel reads (Datasets_GetRefreshScheduleInGroup), as Power BI
 * says it: the capacity is woken before each (modules/capacity). A dataset without one (DirectQuery) has no row.
 */
export const datasetsAgendamento = pgTable('datasets_agendamento', {
  datasetId: text('dataset_id').primaryKey(),
  /** Power BI's weekday names ('Monday'…). */
  dias: jsonb('dias').$type<string[]>().notNull(),
  /** 'hh:mm' in the schedule's own time zone. */
  horarios: jsonb('horarios').$type<string[]>().notNull(),
  /** A Windows time zone id, as Power BI gives it ('E. South America Standard Time'). */
  fuso: text('fuso'),
  habilitado: boolean('habilitado').notNull(),
  lidoEm: timestamp('lido_em', { withTimezone: true }).notNull().defaultNow(),
});

/** The last check of each panel's report: whether Power BI still serves it to the portal. */
export const painelSaude = pgTable('painel_saude', {
  painelId: panelColumn().primaryKey(),
  /** The report checked: a panel pointed at another report since then is not judged by it. */
  workspaceId: text('workspace_id').notNull(),
  reportId: text('report_id').notNull(),
  estado: text('estado', { enum: ['ok', 'relatorio-nao-encontrado', 'sem-acesso', 'erro'] }).notNull(),
  mensagem: text('mensagem'),
  verificadoEm: timestamp('verificado_em', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per background task that runs on one instance at a time (apps/api/src/tasks/task-runner.ts): the directory
 * sync, the Power BI reads, the purges. An instance runs a task only once it holds the row's claim (an upsert while
 * `ocupadaAte` has passed); the claim is renewed while the run lasts, so it outlives a dead instance briefly.
 */
export const tarefas = pgTable('tarefas', {
  nome: text('nome').primaryKey(),
  ocupadaAte: timestamp('ocupada_ate', { withTimezone: true })
    .notNull()
    .default(sql`'-infinity'`),
  /** The instance holding the claim; null once released. */
  ocupadaPor: text('ocupada_por'),
  /** When the last run over everything started (a run over a few targets leaves it): it spaces the timed runs. */
  iniciadaEm: timestamp('iniciada_em', { withTimezone: true }),
  terminadaEm: timestamp('terminada_em', { withTimezone: true }),
});

/** Bytes, as PostgreSQL keeps them (bytea). */
const bytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/*
 * E-mail subscriptions (docs/requirements.md#subscriptions, docs/decisions/020-subscription-deliveries.md): what is
 * sent on a schedule, each delivery as a job claimed with row locks, and each recipient's message recorded as it is
 * accepted by the mail server, so that an occurrence is sent exactly once across instances and crashes.
 */

/** A subscription: its owner (who made it), the panel, the format and the schedule in its time zone. */
export const assinaturas = pgTable(
  'assinaturas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    painelId: panelColumn().notNull(),
    /** The owner: its recipient too, unless an administrator named recipients. */
    usuarioId: personColumn().notNull(),
    formato: text('formato', { enum: ['PDF', 'PPTX'] }).notNull(),
    frequencia: text('frequencia', { enum: ['diaria', 'semanal', 'mensal', 'apos-atualizacao'] }).notNull(),
    /** 'HH:MM' in `fusoHorario`; null for 'apos-atualizacao'. */
    hora: text('hora'),
    /** ISO weekday, 1 (Monday) to 7, for 'semanal'. */
    diaSemana: integer('dia_semana'),
    /** 1 to 28, for 'mensal'. */
    diaMes: integer('dia_mes'),
    fusoHorario: text('fuso_horario').notNull(),
    pagina: text('pagina'),
    /** The owner's saved view exported (its state as the default bookmark); null when the view was deleted. */
    visaoId: uuid('visao_id').references(() => visoesSalvas.id, { onDelete: 'set null' }),
    /** Whether an administrator named recipients (assinatura_usuarios, assinatura_grupos) instead of the owner. */
    comDestinatarios: boolean('com_destinatarios').notNull().default(false),
    ativa: boolean('ativa').notNull().default(true),
    /** The next occurrence to deliver; null while paused. */
    proximoEnvio: timestamp('proximo_envio', { withTimezone: true }),
    ultimoEnvio: timestamp('ultimo_envio', { withTimezone: true }),
    ultimaFalha: text('ultima_falha'),
    ultimaFalhaEm: timestamp('ultima_falha_em', { withTimezone: true }),
    /** 'apos-atualizacao': at most one delivery every so many hours (the quiet window); null: every refresh. */
    intervaloHoras: integer('intervalo_horas'),
    /**
     * 'apos-atualizacao': refreshes that ended after this moment are still to be delivered (the end of the last one
     * queued, or when the subscription started or resumed waiting).
     */
    atualizacoesDesde: timestamp('atualizacoes_desde', { withTimezone: true }),
    /** 'apos-atualizacao': when the last refresh's delivery was queued, which the quiet window counts from. */
    atualizacaoEnfileiradaEm: timestamp('atualizacao_enfileirada_em', { withTimezone: true }),
    criadaEm: timestamp('criada_em', { withTimezone: true }).notNull().defaultNow(),
    atualizadaEm: timestamp('atualizada_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('assinaturas_devidas')
      .on(t.proximoEnvio)
      .where(sql`${t.ativa}`),
    index('assinaturas_apos_atualizacao')
      .on(t.painelId)
      .where(sql`${t.ativa} and ${t.frequencia} = 'apos-atualizacao'`),
    index('assinaturas_usuario').on(t.usuarioId),
    index('assinaturas_painel').on(t.painelId),
  ],
);

/** An administrator's subscription: the people named as recipients. */
export const assinaturaUsuarios = pgTable(
  'assinatura_usuarios',
  {
    assinaturaId: uuid('assinatura_id')
      .notNull()
      .references(() => assinaturas.id, { onDelete: 'cascade' }),
    usuarioId: personColumn().notNull(),
  },
  (t) => [primaryKey({ columns: [t.assinaturaId, t.usuarioId] }), index('assinatura_usuarios_usuario').on(t.usuarioId)],
);

/** An administrator's subscription: the directory groups named as recipients (their members at delivery time). */
export const assinaturaGrupos = pgTable(
  'assinatura_grupos',
  {
    assinaturaId: uuid('assinatura_id')
      .notNull()
      .references(() => assinaturas.id, { onDelete: 'cascade' }),
    grupoId: text('grupo_id')
      .notNull()
      .references(() => grupos.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.assinaturaId, t.grupoId] })],
);

/**
 * One delivery: an occurrence of a subscription's schedule (unique per subscription, so it is queued once however
 * many instances find it due) or an 'Enviar agora'. Claimed by one instance at a time (FOR UPDATE SKIP LOCKED) for
 * `ocupadoAte`, renewed while it works; a claim that lapsed (its instance died) is taken again.
 */
export const enviosAssinatura = pgTable(
  'envios_assinatura',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    assinaturaId: uuid('assinatura_id')
      .notNull()
      .references(() => assinaturas.id, { onDelete: 'cascade' }),
    /** The scheduled moment delivered (or the moment 'Enviar agora' was asked). */
    ocorrencia: timestamp('ocorrencia', { withTimezone: true }).notNull(),
    manual: boolean('manual').notNull().default(false),
    estado: text('estado', { enum: ['pendente', 'executando', 'enviado', 'falhou'] })
      .notNull()
      .default('pendente'),
    /** Attempts started, the first included. */
    tentativas: integer('tentativas').notNull().default(0),
    /** When it may be claimed (a retry waits with backoff). */
    disponivelEm: timestamp('disponivel_em', { withTimezone: true }).notNull().defaultNow(),
    /** While 'executando': until when its instance holds it. */
    ocupadoAte: timestamp('ocupado_ate', { withTimezone: true }),
    ocupadoPor: text('ocupado_por'),
    erro: text('erro'),
    criadoEm: timestamp('criado_em', { withTimezone: true }).notNull().defaultNow(),
    concluidoEm: timestamp('concluido_em', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('envios_assinatura_ocorrencia').on(t.assinaturaId, t.ocorrencia),
    index('envios_assinatura_fila').on(t.estado, t.disponivelEm),
  ],
);

/**
 * Each recipient's part of a delivery, recorded the moment the mail server accepts their message ('enviado'), or
 * when they were left out ('sem-acesso'). A delivery taken again after a crash skips whoever is here.
 */
export const envioDestinatarios = pgTable(
  'envio_destinatarios',
  {
    envioId: uuid('envio_id')
      .notNull()
      .references(() => enviosAssinatura.id, { onDelete: 'cascade' }),
    usuarioId: personColumn().notNull(),
    estado: text('estado', { enum: ['enviado', 'sem-acesso'] }).notNull(),
    /** The effective identity the file was rendered with (null without RLS). */
    identidade: text('identidade'),
    idMensagem: text('id_mensagem'),
    registradoEm: timestamp('registrado_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.envioId, t.usuarioId] })],
);

/**
 * A file too large to attach: one per export of a delivery (the recipients who share an identity share it), stored
 * once, and downloadable by those recipients alone (arquivo_destinatarios) until `expiraEm`.
 */
export const arquivosAssinatura = pgTable(
  'arquivos_assinatura',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    envioId: uuid('envio_id')
      .notNull()
      .references(() => enviosAssinatura.id, { onDelete: 'cascade' }),
    /** The identity the file was rendered with (recipients.ts's key): a download by anyone whose identity now differs is refused. */
    identidade: text('identidade').notNull(),
    nome: text('nome').notNull(),
    tipo: text('tipo').notNull(),
    conteudo: bytes('conteudo').notNull(),
    tamanho: integer('tamanho').notNull(),
    expiraEm: timestamp('expira_em', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('arquivos_assinatura_expira').on(t.expiraEm),
    uniqueIndex('arquivos_assinatura_envio_identidade').on(t.envioId, t.identidade),
  ],
);

/** Who may download a stored file: the recipients it was linked to in their message. */
export const arquivoDestinatarios = pgTable(
  'arquivo_destinatarios',
  {
    arquivoId: uuid('arquivo_id')
      .notNull()
      .references(() => arquivosAssinatura.id, { onDelete: 'cascade' }),
    usuarioId: personColumn().notNull(),
  },
  (t) => [primaryKey({ columns: [t.arquivoId, t.usuarioId] })],
);

/**
 * Each 'Enviar agora' asked, by its person: the hourly allowance is counted here, across instances, and outlives the
 * subscription (deleting one and asking again does not reset it). Rows older than the window are purged.
 */
export const pedidosEnvio = pgTable(
  'pedidos_envio',
  {
    id: serial('id').primaryKey(),
    usuarioId: text('usuario_id').notNull(),
    em: timestamp('em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pedidos_envio_usuario_em').on(t.usuarioId, t.em)],
);

/**
 * Outlook's limits on the portal's sendMail, per sending mailbox, shared by every instance
 * (modules/subscriptions/mail-gate.ts): until when Graph asked every request to wait (a 429's Retry-After).
 */
export const caixasEnvio = pgTable('caixas_envio', {
  caixa: text('caixa').primaryKey(),
  pausadaAte: timestamp('pausada_ate', { withTimezone: true }),
});

/** The requests in flight to a mailbox: at most so many places, each held by one instance until it ends or lapses. */
export const vagasEnvio = pgTable(
  'vagas_envio',
  {
    caixa: text('caixa').notNull(),
    vaga: integer('vaga').notNull(),
    ocupadaPor: text('ocupada_por'),
    ocupadaAte: timestamp('ocupada_ate', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.caixa, t.vaga] })],
);

/** Each request to a mailbox, with its bytes: the sliding windows of Outlook's request and upload limits. */
export const usoCaixaEnvio = pgTable(
  'uso_caixa_envio',
  {
    id: serial('id').primaryKey(),
    caixa: text('caixa').notNull(),
    em: timestamp('em', { withTimezone: true }).notNull(),
    bytes: integer('bytes').notNull(),
  },
  (t) => [index('uso_caixa_envio_caixa_em').on(t.caixa, t.em)],
);

/**
 * Facts about the installation itself, by name: 'execucao-configurada' is when the database first served a start
 * outside demo mode (demo data never loads into it after that).
 */
export const instalacao = pgTable('instalacao', {
  chave: text('chave').primaryKey(),
  valor: text('valor').notNull(),
  dataAtualizacao: timestamp('data_atualizacao', { withTimezone: true }).notNull().defaultNow(),
});

/*
 * The Power BI capacity (docs/decisions/024-capacity-cost.md): the policy that pauses and wakes it, its last state
 * read from Azure, and each change of state with its reason, from which the month's hours and cost are counted.
 */

/** One row (id 1): the policy, the last state read and the last activity that needed the capacity. */
export const capacidade = pgTable('capacidade', {
  id: integer('id').primaryKey(),
  /** PoliticaCapacidade as JSON; null until an administrator saves one (the default policy then applies). */
  politica: jsonb('politica'),
  /** The state last read, in the portal's words (EstadoCapacidade). */
  estado: text('estado'),
  sku: text('sku'),
  /** The SKU outside working hours while the rule has scaled to the policy's `skuHorario`; null otherwise. */
  skuBase: text('sku_base'),
  lidoEm: timestamp('lido_em', { withTimezone: true }),
  /** Azure's reason when the last call failed (a missing role). */
  mensagem: text('mensagem'),
  /** The last opening, export or delivery: the idle rule counts from it. */
  ultimaAtividade: timestamp('ultima_atividade', { withTimezone: true }),
});

/** Each change of the capacity's state or SKU, with why and who. */
export const capacidadeHistorico = pgTable(
  'capacidade_historico',
  {
    id: serial('id').primaryKey(),
    em: timestamp('em', { withTimezone: true }).notNull(),
    estado: text('estado').notNull(),
    sku: text('sku'),
    motivo: text('motivo').notNull(),
    pessoa: text('pessoa'),
    detalhe: text('detalhe'),
  },
  (t) => [index('capacidade_historico_em').on(t.em)],
);

/*
 * Alerts to the people who look after the panels (docs/requirements.md#alerts, modules/subscriptions/alerts.ts): who
 * receives them and for which events, and each incident with its two notices, recorded as the mail server accepts
 * them, so that each is sent once across rounds, instances and crashes.
 */

/** One row (id 1): the events on. No row: every event off. */
export const alertas = pgTable('alertas', {
  id: integer('id').primaryKey(),
  /** EventoAlerta[]: 'falha-atualizacao', 'painel-indisponivel'. */
  eventos: jsonb('eventos')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'`),
  atualizadoEm: timestamp('atualizado_em', { withTimezone: true }).notNull().defaultNow(),
});

/** The people who receive the alerts. */
export const alertaUsuarios = pgTable('alerta_usuarios', {
  usuarioId: personColumn().primaryKey(),
});

/** The Entra groups whose members (at sending time) receive the alerts. */
export const alertaGrupos = pgTable('alerta_grupos', {
  grupoId: text('grupo_id')
    .primaryKey()
    .references(() => grupos.id, { onDelete: 'cascade' }),
});

/**
 * An incident: a dataset's refresh failing ('falha-atualizacao', chave: the dataset id) or a panel's report unavailable
 * ('painel-indisponivel', chave: the panel id); one open per event and key. Each notice is 'pendente' until sent,
 * 'enviado' once every recipient's message was accepted, 'dispensado' when it is not to be sent; a reconciler sends
 * one while it holds the incident's lease (`ocupadoAte`).
 */
export const alertaIncidentes = pgTable(
  'alerta_incidentes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    evento: text('evento', { enum: ['falha-atualizacao', 'painel-indisponivel'] }).notNull(),
    chave: text('chave').notNull(),
    /** The panels affected when it opened ({ id, nome }[]). */
    paineis: jsonb('paineis')
      .$type<{ id: number; nome: string }[]>()
      .notNull()
      .default(sql`'[]'`),
    /** Power BI's message, or the health check's. */
    mensagem: text('mensagem'),
    abertoEm: timestamp('aberto_em', { withTimezone: true }).notNull(),
    fechadoEm: timestamp('fechado_em', { withTimezone: true }),
    avisoAbertura: text('aviso_abertura', { enum: ['pendente', 'enviado', 'dispensado'] }).notNull(),
    avisoAberturaEm: timestamp('aviso_abertura_em', { withTimezone: true }),
    /** Null while open. */
    avisoFechamento: text('aviso_fechamento', { enum: ['pendente', 'enviado', 'dispensado'] }),
    avisoFechamentoEm: timestamp('aviso_fechamento_em', { withTimezone: true }),
    /** The recipients (usuarios.id) whose message of the notice being sent was accepted: a retry skips them. */
    enviadosPara: jsonb('enviados_para')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    ocupadoPor: text('ocupado_por'),
    ocupadoAte: timestamp('ocupado_ate', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('alerta_incidentes_aberto')
      .on(t.evento, t.chave)
      .where(sql`${t.fechadoEm} is null`),
    index('alerta_incidentes_aviso')
      .on(t.abertoEm)
      .where(sql`${t.avisoAbertura} = 'pendente' or ${t.avisoFechamento} = 'pendente'`),
    index('alerta_incidentes_fechado').on(t.fechadoEm),
  ],
);
