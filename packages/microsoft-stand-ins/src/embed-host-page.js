/* global window, document */
// The script of the stand-in https://app.powerbi.com/reportEmbed page, served inline by embed-host.ts.
// It answers powerbi-client's postMessage requests ({method, url, headers: {id, uid}, body}) with
// {statusCode, headers: {id}, body} and sends events as POST /reports/{uid}/events/{name}, as Power BI does.
// Saving (report.save(), report.saveAs()) succeeds only as far as the embed token grants it (power-bi.ts).
(function () {
  'use strict';

  const EMBED_TOKEN_AUDIENCE = 'https://app.powerbi.com';
  const TOKEN_TYPE_EMBED = 1;
  const BACKGROUND_TRANSPARENT = 1;
  const TRACE_FATAL = 6;
  // Long enough for the load answer to reach the host before 'loaded', short enough for tests.
  const LOAD_DELAY_MS = 30;
  // setTimeout's longest delay; a later expiry is re-armed when the timer fires.
  const MAX_TIMER_MS = 2147483647;

  const data = JSON.parse(document.getElementById('dados-relatorio').textContent);
  const report = data.report;
  const byId = (id) => document.getElementById(id);
  // The slicer 'Região': each option scales the sums by its share, as report-state.ts does for exports.
  const REGIOES = data.regioes;
  const REGIAO_PADRAO = REGIOES[0].nome;
  // The locale powerbi-client puts in the address (localeSettings: language, formatLocale), as Power BI reads it when
  // its page loads: it cannot change afterwards. Numbers (on screen and in exported data) follow formatLocale.
  const address = new URLSearchParams(window.location.search);
  const formatLocale = supportedLocale(address.get('formatLocale')) || 'pt-BR';
  const language = supportedLocale(address.get('language'));
  if (language) document.documentElement.lang = language;
  const formats = {
    money: new Intl.NumberFormat(formatLocale, { style: 'currency', currency: 'BRL', maximumFractionDigits: 0 }),
    whole: new Intl.NumberFormat(formatLocale),
    percent: new Intl.NumberFormat(formatLocale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  };
  // Power BI loads a page without a report when the host bootstraps it (powerbi.bootstrap, or preload): the report
  // comes with the load configuration. This page has its report built in, so it opens the report's own address then.
  const BOOTSTRAPPED = !address.get('reportId');
  // powerbi-client sends the load again when its iframe has loaded the new address, and drops a load sent within
  // 100 ms of the previous one: the new address is opened after that.
  const RELOAD_AFTER_MS = 150;

  function supportedLocale(tag) {
    if (typeof tag !== 'string' || !tag) return null;
    try {
      return Intl.NumberFormat.supportedLocalesOf([tag]).length ? tag : null;
    } catch {
      return null;
    }
  }
  // exportData answers after this long, so that a second export meanwhile meets the one running.
  const EXPORT_DELAY_MS = 150;
  const EXPORT_DATA_SUMMARIZED = 0;
  const EXPORT_DATA_UNDERLYING = 1;

  const state = {
    uid: new URLSearchParams(window.location.search).get('uid') || '',
    /** Bumped by every load, so a late timer of an older load does nothing. */
    generation: 0,
    config: null,
    /** idle | loading | prepared | loaded | failed */
    phase: 'idle',
    phased: false,
    token: null,
    claims: null,
    expired: false,
    activePage: null,
    expiryTimer: null,
    settings: {},
    sent: 0,
    regiao: REGIAO_PADRAO,
    prints: 0,
    exporting: false,
  };

  function randomId() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  }

  function sameId(a, b) {
    return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
  }

  /** The token's claims; the page cannot check the signature, only what the token says. */
  function decodeToken(token) {
    if (typeof token !== 'string') return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    try {
      const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
      const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
      const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
      const claims = JSON.parse(new TextDecoder().decode(bytes));
      return claims && typeof claims === 'object' ? claims : null;
    } catch {
      return null;
    }
  }

  /** Power BI's IError. */
  function powerBiError(message, detailedMessage, errorCode) {
    return { message, detailedMessage, errorCode, level: TRACE_FATAL, technicalDetails: { requestId: randomId() } };
  }

  function tokenExpiredError() {
    return powerBiError('TokenExpired', 'Access token has expired, resubmit with a new access token', '403');
  }

  function identityIn(claims) {
    if (!report || !Array.isArray(claims.identities)) return null;
    return (
      claims.identities.find(
        (identity) => Array.isArray(identity.datasets) && identity.datasets.some((id) => sameId(id, report.datasetId)),
      ) || null
    );
  }

  /** {claims} when the token opens this report now, else {error} (an IError) and the claims if readable. */
  function checkToken(token, reportId, tokenType) {
    if (tokenType !== TOKEN_TYPE_EMBED) {
      return {
        error: powerBiError(
          'LoadReportFailed',
          'This stand-in only takes embed tokens: set tokenType to models.TokenType.Embed (1).',
          '403',
        ),
      };
    }
    const claims = decodeToken(token);
    if (!claims || claims.aud !== EMBED_TOKEN_AUDIENCE || !Array.isArray(claims.reports) || !(claims.exp > 0)) {
      return { error: powerBiError('LoadReportFailed', 'Fail to initialize - Could not resolve cluster', '403') };
    }
    if (!report || !sameId(reportId, report.reportId)) {
      return {
        error: powerBiError(
          'LoadReportFailed',
          'Get report failed: the embed URL and the id name no known report.',
          '404',
        ),
      };
    }
    if (!claims.reports.some((id) => sameId(id, report.reportId))) {
      return {
        error: powerBiError(
          'LoadReportFailed',
          'Get report failed: the embed token does not cover this report.',
          '403',
        ),
      };
    }
    if (claims.exp * 1000 <= Date.now()) return { error: tokenExpiredError(), claims };
    // Its capacity paused (or pausing, resuming, scaling): the model can't be loaded, as Power BI reports it then.
    if (data.capacidadePausada) {
      return {
        error: powerBiError('OpenConnectionError', 'ExplorationContainer_FailedToLoadModel_DefaultDetails', '503'),
        claims,
      };
    }
    if (report.rls && !identityIn(claims)) {
      return {
        error: powerBiError(
          'LoadReportFailed',
          "The report's dataset uses row-level security and the embed token has no effective identity for it.",
          '403',
        ),
      };
    }
    return { claims };
  }

  // --- drawing -------------------------------------------------------------------------------------------

  function pageByName(name) {
    return (report ? report.pages : []).find((page) => page.name === name) || null;
  }

  function showOnly(panel) {
    for (const id of ['estado', 'relatorio']) byId(id).hidden = id !== panel;
  }

  function showStatus(text) {
    byId('estado-texto').textContent = text;
    showOnly('estado');
  }

  function showError(error) {
    const title =
      error.message === 'TokenExpired' ? 'O token de acesso expirou' : 'Não foi possível carregar o relatório';
    byId('erro-titulo').textContent = title;
    byId('erro-detalhe').textContent = `${error.message}: ${error.detailedMessage}`;
    byId('erro').hidden = false;
  }

  function hideError() {
    byId('erro').hidden = true;
  }

  function drawIdentity() {
    const identity = state.claims && identityIn(state.claims);
    byId('identidade').hidden = !identity;
    if (!identity) return;
    byId('identidade-usuario').textContent = `Identidade: ${identity.username}`;
    byId('identidade-papeis').textContent = `Papéis: ${(identity.roles || []).join(', ')}`;
  }

  function drawPage() {
    for (const section of document.querySelectorAll('[data-pagina]')) {
      const isActive = section.getAttribute('data-pagina') === state.activePage;
      if (section.tagName === 'SECTION') section.hidden = !isActive;
      else section.setAttribute('aria-current', isActive ? 'page' : 'false');
    }
    showOnly('relatorio');
  }

  function drawRegion() {
    const option = REGIOES.find((region) => region.nome === state.regiao) || REGIOES[0];
    byId('regiao-atual').textContent = `Região: ${option.nome}`;
    byId('regiao').value = option.nome;
    for (const section of document.querySelectorAll('section[data-pagina]')) {
      const page = pageByName(section.getAttribute('data-pagina'));
      if (!page) continue;
      const figures = page.figures;
      section.querySelector('[data-kpi=receita] strong').textContent = formats.money.format(
        Math.round(figures.revenue * option.fator),
      );
      section.querySelector('[data-kpi=pedidos] strong').textContent = formats.whole.format(
        Math.round(figures.orders * option.fator),
      );
      section.querySelectorAll('svg rect').forEach((bar, index) => {
        const value = Math.round(figures.bars[index] * option.fator);
        const height = value * data.barScale;
        bar.setAttribute('y', String(130 - height));
        bar.setAttribute('height', String(height));
        bar.querySelector('title').textContent = `${data.meses[index]}: ${value}`;
      });
    }
  }

  // --- bookmarks: the state is base64 of JSON {v: 1, pagina, regiao}, as report-state.ts writes and reads it -------

  function captureState() {
    const json = JSON.stringify({ v: 1, pagina: state.activePage, regiao: state.regiao });
    return btoa(Array.from(new TextEncoder().encode(json), (byte) => String.fromCharCode(byte)).join(''));
  }

  /** {pagina, regiao}, or null for a state this report did not write. */
  function readState(text) {
    if (typeof text !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
    try {
      const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
      const parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      if (!parsed || parsed.v !== 1 || typeof parsed.pagina !== 'string' || !pageByName(parsed.pagina)) return null;
      if (!REGIOES.some((region) => region.nome === parsed.regiao)) return null;
      return { pagina: parsed.pagina, regiao: parsed.regiao };
    } catch {
      return null;
    }
  }

  function applySettings(settings) {
    if (!settings || typeof settings !== 'object') return;
    state.settings = Object.assign({}, state.settings, settings);
    const panes = state.settings.panes || {};
    const filtersVisible =
      panes.filters && typeof panes.filters.visible === 'boolean'
        ? panes.filters.visible
        : state.settings.filterPaneEnabled !== false;
    const navigationVisible =
      panes.pageNavigation && typeof panes.pageNavigation.visible === 'boolean'
        ? panes.pageNavigation.visible
        : state.settings.navContentPaneEnabled !== false;
    byId('filtros').hidden = !filtersVisible;
    byId('abas').hidden = !navigationVisible;
    document.documentElement.classList.toggle('transparente', state.settings.background === BACKGROUND_TRANSPARENT);
  }

  // --- messaging ----------------------------------------------------------------------------------------

  function fire(eventName, body) {
    // Opened on its own, there is no host to tell (and posting to itself would only echo).
    if (window.parent === window) return;
    state.sent += 1;
    window.parent.postMessage(
      {
        method: 'POST',
        url: `/reports/${state.uid}/events/${eventName}`,
        headers: { id: `stand-in-${state.sent}-${randomId()}` },
        body,
      },
      '*',
    );
  }

  function pageModel(page) {
    return {
      name: page.name,
      displayName: page.displayName,
      isActive: page.name === state.activePage,
      visibility: page.visibility,
      defaultSize: { width: 1280, height: 720, type: 0 },
      defaultDisplayOption: 0,
    };
  }

  function setActivePage(name, initiator) {
    const changed = name !== state.activePage;
    state.activePage = name;
    drawPage();
    // Power BI says nothing when the page asked for is already the active one.
    if (changed) fire('pageChanged', { initiator, newPage: pageModel(pageByName(name)) });
  }

  function scheduleExpiry() {
    clearTimeout(state.expiryTimer);
    const generation = state.generation;
    const wait = state.claims.exp * 1000 - Date.now();
    state.expiryTimer = setTimeout(
      () => {
        if (generation !== state.generation) return;
        if (state.claims.exp * 1000 > Date.now()) return scheduleExpiry();
        state.expired = true;
        const error = tokenExpiredError();
        showError(error);
        fire('error', error);
      },
      Math.min(Math.max(wait, 0), MAX_TIMER_MS),
    );
  }

  function render() {
    state.phase = 'loaded';
    drawPage();
    // After the drawing, as in Power BI; a timer, not a frame callback, which Chromium holds back in off-screen frames.
    setTimeout(() => fire('rendered', null), 0);
  }

  /** Opens the report with the current token, or fails with the reason Power BI would give. */
  function completeLoad() {
    const checked = checkToken(state.token, state.config.id, state.config.tokenType);
    state.claims = checked.claims || null;
    if (checked.error) {
      state.phase = 'failed';
      state.expired = checked.error.message === 'TokenExpired';
      showStatus('Não foi possível carregar o relatório.');
      showError(checked.error);
      fire('error', checked.error);
      return;
    }
    state.expired = false;
    hideError();
    const requested = pageByName(state.config.pageName);
    const firstVisible = report.pages.find((page) => page.visibility === 0) || report.pages[0];
    // A load configuration's bookmark opens the report as captured; one it cannot read is ignored.
    const bookmark = state.config.bookmark && readState(state.config.bookmark.state);
    state.activePage = bookmark ? bookmark.pagina : (requested || firstVisible).name;
    state.regiao = bookmark ? bookmark.regiao : REGIAO_PADRAO;
    drawRegion();
    drawIdentity();
    scheduleExpiry();
    fire('loaded', { initiator: 'sdk' });
    if (state.phased) state.phase = 'prepared';
    else render();
  }

  function load(request, reply, phased) {
    const config = request.body;
    if (
      !config ||
      typeof config !== 'object' ||
      typeof config.accessToken !== 'string' ||
      typeof config.id !== 'string'
    ) {
      return reply(400, [{ message: 'accessToken and id are required' }]);
    }
    if (request.headers && typeof request.headers.uid === 'string') state.uid = request.headers.uid;
    if (BOOTSTRAPPED) return openReportAddress(config, reply);
    state.generation += 1;
    clearTimeout(state.expiryTimer);
    Object.assign(state, { config, phase: 'loading', phased, token: config.accessToken, claims: null });
    applySettings(config.settings);
    hideError();
    showStatus('Carregando relatório…');
    reply(202, null);
    const generation = state.generation;
    setTimeout(() => {
      if (generation === state.generation) completeLoad();
    }, LOAD_DELAY_MS);
  }

  /** A bootstrapped page: accepts the load, then opens the report's address, whose page powerbi-client loads it in. */
  function openReportAddress(config, reply) {
    reply(202, null);
    showStatus('Carregando relatório…');
    const next = new URL(window.location.href);
    next.searchParams.set('reportId', config.id);
    const groupId = typeof config.groupId === 'string' && config.groupId ? config.groupId : null;
    if (groupId) next.searchParams.set('groupId', groupId);
    if (state.uid) next.searchParams.set('uid', state.uid);
    setTimeout(() => window.location.replace(next.toString()), RELOAD_AFTER_MS);
  }

  function setToken(request, reply) {
    const body = request.body;
    const token = typeof body === 'string' ? body : body && body.accessToken;
    if (typeof token !== 'string' || !token) return reply(400, [{ message: 'accessToken is required' }]);
    if (!state.config) return reply(400, powerBiError('LoadReportFailed', 'No report has been loaded yet.', '400'));
    const checked = checkToken(token, state.config.id, state.config.tokenType);
    if (checked.error) return reply(400, checked.error);
    state.token = token;
    reply(202, null);
    if (state.phase === 'failed') {
      // A load that failed on its token completes with the new one, without reloading the page.
      state.generation += 1;
      completeLoad();
      return;
    }
    if (state.phase === 'loading') return;
    state.claims = checked.claims;
    state.expired = false;
    hideError();
    drawIdentity();
    scheduleExpiry();
  }

  // --- saving: what the embed token grants (allowEdit, targetWorkspaces), as Power BI enforces it ---------------

  function granted(list, id) {
    return Array.isArray(list) && list.some((each) => sameId(each, id));
  }

  function save(_request, reply) {
    if (!requireLoaded(reply)) return;
    if (!granted(state.claims.editableReports, report.reportId)) {
      return reply(
        403,
        powerBiError(
          'SaveReportFailed',
          'The embed token does not allow editing this report: it was not generated with allowEdit for it.',
          '403',
        ),
      );
    }
    reply(202, null);
    fire('saved', { reportObjectId: report.reportId, reportName: report.name, saveAs: false });
  }

  function saveAs(request, reply) {
    if (!requireLoaded(reply)) return;
    const body = request.body || {};
    if (typeof body.name !== 'string' || !body.name.trim()) {
      return reply(400, [{ message: 'name is required' }]);
    }
    const target = typeof body.targetWorkspaceId === 'string' ? body.targetWorkspaceId : report.workspaceId;
    if (!granted(state.claims.targetWorkspaces, target)) {
      return reply(
        403,
        powerBiError(
          'SaveAsReportFailed',
          `The embed token does not allow saving to workspace ${target}: it is not among the token's targetWorkspaces.`,
          '403',
        ),
      );
    }
    reply(202, null);
    fire('saved', { reportObjectId: randomId(), reportName: body.name, saveAs: true });
  }

  function requireLoaded(reply) {
    if (state.phase === 'loaded' || state.phase === 'prepared') return true;
    reply(400, powerBiError('ReportNotLoaded', 'The report has not loaded (yet).', '400'));
    return false;
  }

  // --- visuals and exportData: the same rows, RLS rule and CSV as report-state.ts ---------------------------

  const REGIOES_DAS_LINHAS = REGIOES.slice(1).map((region) => region.nome);

  function exportsData(type) {
    return !type.startsWith('PBI_CV_') && type !== 'scriptVisual' && type !== 'pythonVisual';
  }

  function underlyingRow(page, index) {
    const seed = page.figures.orders;
    const unidades = 5 + ((seed + index * 37) % 91);
    const receita = unidades * (100 + ((seed + index * 13) % 400));
    return {
      mes: data.meses[index % 6],
      regiao: REGIOES_DAS_LINHAS[Math.floor(index / 6) % 5],
      vendedor: `Vendedor ${Math.floor(index / 30) + 1}`,
      pedidos: 1 + ((seed + index * 11) % 20),
      unidades,
      receita,
      custo: Math.round((receita * (55 + ((seed + index * 7) % 30))) / 100),
    };
  }

  /** 'Diretoria' sees every row; any other identity one region, by a hash of its username. Null: every region. */
  function rlsRegion(identity) {
    if (!identity) return null;
    if ((identity.roles || []).some((role) => String(role).toLowerCase() === 'diretoria')) return null;
    let hash = 0;
    for (const char of String(identity.username).toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) % 1000003;
    return REGIOES_DAS_LINHAS[hash % 5];
  }

  function visibleRows(page) {
    const onlyRegion = report.rls ? rlsRegion(identityIn(state.claims)) : null;
    const rows = [];
    for (let index = 0; index < report.underlyingRows; index += 1) {
      const row = underlyingRow(page, index);
      if (onlyRegion && row.regiao !== onlyRegion) continue;
      if (state.regiao !== REGIAO_PADRAO && row.regiao !== state.regiao) continue;
      rows.push(row);
    }
    return rows;
  }

  function csvField(text) {
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }

  function csv(header, rows) {
    return (
      [header]
        .concat(rows)
        .map((line) => line.map(csvField).join(','))
        .join('\r\n') + '\r\n'
    );
  }

  function exportCsv(visualName, kind, rows, maxRows) {
    const { money, whole, percent } = formats;
    if (kind === EXPORT_DATA_UNDERLYING) {
      return csv(
        ['Mês', 'Região', 'Vendedor', 'Pedidos', 'Unidades', 'Receita', 'Custo'],
        rows
          .slice(0, maxRows)
          .map((row) => [
            row.mes,
            row.regiao,
            row.vendedor,
            whole.format(row.pedidos),
            whole.format(row.unidades),
            money.format(row.receita),
            money.format(row.custo),
          ]),
      );
    }
    const sum = (pick) => rows.reduce((total, row) => total + pick(row), 0);
    switch (visualName) {
      case 'cartaoReceita':
        return csv(['Receita'], [[money.format(sum((row) => row.receita))]]);
      case 'cartaoPedidos':
        return csv(['Pedidos'], [[whole.format(sum((row) => row.pedidos))]]);
      case 'cartaoMargem': {
        const receita = sum((row) => row.receita);
        const margem = receita ? ((receita - sum((row) => row.custo)) / receita) * 100 : 0;
        return csv(['Margem'], [[`${percent.format(margem)}%`]]);
      }
      case 'graficoVendasMes':
        return csv(
          ['Mês', 'Unidades'],
          data.meses
            .filter((mes) => rows.some((row) => row.mes === mes))
            .slice(0, maxRows)
            .map((mes) => [mes, whole.format(sum((row) => (row.mes === mes ? row.unidades : 0)))]),
        );
      default:
        return csv(
          ['Região'],
          REGIOES_DAS_LINHAS.filter((regiao) => rows.some((row) => row.regiao === regiao))
            .slice(0, maxRows)
            .map((regiao) => [regiao]),
        );
    }
  }

  function visualModel(visual, index) {
    const layout = {
      x: 20 + (index % 3) * 300,
      y: 80 + Math.floor(index / 3) * 200,
      z: index,
      width: 280,
      height: 180,
    };
    return {
      name: visual.name,
      title: visual.title,
      type: visual.type,
      layout: { ...layout, displayState: { mode: 0 } },
    };
  }

  function getVisuals(request, reply) {
    if (!requireLoaded(reply)) return;
    const page = pageByName(decodeURIComponent(request.url.split('?')[0].split('/')[3]));
    if (!page) return reply(400, powerBiError('PageNotFound', 'The page was not found in the report.', '400'));
    reply(200, data.visuais.map(visualModel));
  }

  function exportData(request, reply) {
    if (!requireLoaded(reply)) return;
    const parts = request.url.split('?')[0].split('/');
    const page = pageByName(decodeURIComponent(parts[3]));
    const visual = data.visuais.find((each) => each.name === decodeURIComponent(parts[5]));
    if (!page || !visual) {
      return reply(400, powerBiError('VisualNotFound', 'The visual was not found on the page.', '400'));
    }
    const body = request.body || {};
    const kind = body.exportDataType === undefined ? EXPORT_DATA_SUMMARIZED : body.exportDataType;
    const rows = body.rows === undefined || body.rows === null ? data.maxExportRows : body.rows;
    if ((kind !== EXPORT_DATA_SUMMARIZED && kind !== EXPORT_DATA_UNDERLYING) || !Number.isInteger(rows) || rows < 1) {
      return reply(
        400,
        powerBiError('InvalidParameters', 'exportDataType must be 0 or 1 and rows a positive integer.', '400'),
      );
    }
    if (report.exportDataDisabled) {
      return reply(
        403,
        powerBiError('ExportDataFailed', "Export data is disabled by the report's or the tenant's settings.", '403'),
      );
    }
    if (!exportsData(visual.type)) {
      return reply(
        400,
        powerBiError('ExportDataFailed', `Export data is not supported for visuals of type ${visual.type}.`, '400'),
      );
    }
    if (state.exporting) {
      return reply(
        429,
        powerBiError('ExportDataFailed', 'Another export data request is in progress on this report.', '429'),
      );
    }
    state.exporting = true;
    const generation = state.generation;
    setTimeout(() => {
      state.exporting = false;
      if (generation !== state.generation) {
        return reply(400, powerBiError('ExportDataFailed', 'The report was loaded again during the export.', '400'));
      }
      // At most 30,000 rows, whatever was asked for.
      reply(200, { data: exportCsv(visual.name, kind, visibleRows(page), Math.min(rows, data.maxExportRows)) });
    }, EXPORT_DELAY_MS);
  }

  const routes = [
    ['POST', /^\/report\/load$/, (request, reply) => load(request, reply, false)],
    ['POST', /^\/report\/prepare$/, (request, reply) => load(request, reply, true)],
    [
      'POST',
      /^\/report\/render$/,
      (_request, reply) => {
        if (state.phase !== 'prepared')
          return reply(400, powerBiError('RenderFailed', 'Nothing prepared to render.', '400'));
        reply(202, null);
        render();
      },
    ],
    ['POST', /^\/report\/token$/, setToken],
    ['POST', /^\/report\/save$/, save],
    ['GET', /^\/report\/pages\/[^/]+\/visuals$/, getVisuals],
    ['POST', /^\/report\/pages\/[^/]+\/visuals\/[^/]+\/exportData$/, exportData],
    ['POST', /^\/report\/saveAs$/, saveAs],
    [
      'GET',
      /^\/report\/pages$/,
      (_request, reply) => {
        if (requireLoaded(reply)) reply(200, report.pages.map(pageModel));
      },
    ],
    [
      'PUT',
      /^\/report\/pages\/active$/,
      (request, reply) => {
        if (!requireLoaded(reply)) return;
        const name = request.body && request.body.name;
        const page = pageByName(name);
        if (!page) return reply(400, powerBiError('PageNotFound', `Page ${String(name)} was not found.`, '400'));
        reply(202, null);
        setActivePage(page.name, 'sdk');
      },
    ],
    [
      'PATCH',
      /^\/report\/settings$/,
      (request, reply) => {
        applySettings(request.body);
        reply(202, null);
      },
    ],
    [
      'GET',
      /^\/report\/bookmarks$/,
      (_request, reply) => {
        // The demo report defines no bookmarks of its own.
        if (requireLoaded(reply)) reply(200, []);
      },
    ],
    [
      'POST',
      /^\/report\/bookmarks\/capture$/,
      (_request, reply) => {
        if (!requireLoaded(reply)) return;
        reply(200, {
          name: `Bookmark${randomId().slice(0, 20)}`,
          displayName: 'Indicador capturado',
          state: captureState(),
        });
      },
    ],
    [
      'POST',
      /^\/report\/bookmarks\/applyState$/,
      (request, reply) => {
        if (!requireLoaded(reply)) return;
        const captured = readState(request.body && request.body.state);
        if (!captured) {
          return reply(
            400,
            powerBiError('InvalidBookmarkState', 'The bookmark state is not one this report can apply.', '400'),
          );
        }
        reply(202, null);
        // The slicer first, so the page a pageChanged announces is already filtered.
        state.regiao = captured.regiao;
        drawRegion();
        setActivePage(captured.pagina, 'sdk');
      },
    ],
    [
      'POST',
      /^\/report\/bookmarks\/applyByName$/,
      (request, reply) => {
        if (!requireLoaded(reply)) return;
        const name = request.body && request.body.name;
        reply(400, powerBiError('BookmarkNotFound', `Bookmark ${String(name)} was not found in the report.`, '400'));
      },
    ],
    [
      'POST',
      /^\/report\/print$/,
      (_request, reply) => {
        if (!requireLoaded(reply)) return;
        // Counted where a browser test can see that the request arrived (headless Chromium prints nothing).
        state.prints += 1;
        document.documentElement.setAttribute('data-impressoes', String(state.prints));
        reply(202, null);
        // After the answer: print() holds the page until the dialog closes.
        setTimeout(() => window.print(), 0);
      },
    ],
    // Harmless answers for what hosts (powerbi-client-react among them) send around filters and refresh.
    ['GET', /^\/report\/filters$/, (_request, reply) => reply(200, [])],
    ['GET', /^\/report\/pages\/[^/]+\/filters$/, (_request, reply) => reply(200, [])],
    ['POST', /^\/report\/filters$/, (_request, reply) => reply(202, null)],
    ['PUT', /^\/report\/filters$/, (_request, reply) => reply(202, null)],
    ['POST', /^\/report\/refresh$/, (_request, reply) => reply(202, null)],
    ['GET', /^\/getCorrelationId$/, (_request, reply) => reply(200, randomId())],
  ];

  window.addEventListener('message', (event) => {
    const request = event.data;
    // Requests only: the host's answers to our events ({statusCode, headers}) need nothing.
    if (
      !request ||
      typeof request !== 'object' ||
      typeof request.method !== 'string' ||
      typeof request.url !== 'string'
    ) {
      return;
    }
    const source = event.source;
    const id = request.headers && request.headers.id;
    const reply = (statusCode, body) => {
      if (source) source.postMessage({ statusCode, headers: { id }, body }, '*');
    };
    const path = request.url.split('?')[0];
    const route = routes.find(([method, pattern]) => method === request.method && pattern.test(path));
    if (!route) {
      reply(404, powerBiError('NotFound', `The stand-in does not implement ${request.method} ${path}.`, '404'));
      return;
    }
    route[2](request, reply);
  });

  for (const tab of document.querySelectorAll('nav [data-pagina]')) {
    tab.addEventListener('click', () => {
      if (state.phase === 'loaded') setActivePage(tab.getAttribute('data-pagina'), 'user');
    });
  }

  byId('regiao').addEventListener('change', () => {
    if (state.phase !== 'loaded') return;
    state.regiao = byId('regiao').value;
    drawRegion();
  });

  if (BOOTSTRAPPED) showStatus('Aguardando o relatório…');
  else if (!report) showStatus('Relatório não encontrado nesta simulação.');
})();
