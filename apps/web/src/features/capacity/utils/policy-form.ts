import type { PoliticaCapacidade } from '@paineis/contract/capacity';
import {
  MAX_FAIXAS,
  MAX_MINUTOS_OCIOSO,
  MIN_MINUTOS_OCIOSO,
  SKU_PATTERN,
  type QuemRetoma,
} from '@paineis/contract/capacity-constants';

/** The policy as the form holds it: texts as typed, a key per row so React keeps each row's inputs. */
export interface FaixaForm {
  key: number;
  diaSemana: number;
  inicio: string;
  fim: string;
}
export interface PrecoForm {
  key: number;
  sku: string;
  preco: string;
}
export interface PolicyForm {
  horario: FaixaForm[];
  fusoHorario: string;
  minutosOcioso: string;
  quemRetomaAoAbrir: QuemRetoma;
  precos: PrecoForm[];
  skuHorario: string;
  contato: string;
}

/** What is wrong with the form, by field (rows by their key); empty when it can be saved. */
export interface PolicyErrors {
  faixas: Record<number, string>;
  precos: Record<number, string>;
  horario?: string;
  fusoHorario?: string;
  minutosOcioso?: string;
  skuHorario?: string;
}

let nextKey = 1;
export const newKey = () => nextKey++;

export function toForm(p: PoliticaCapacidade): PolicyForm {
  return {
    horario: p.horario.map((f) => ({ key: newKey(), ...f })),
    fusoHorario: p.fusoHorario,
    minutosOcioso: p.pausarAposMinutosOcioso === null ? '' : String(p.pausarAposMinutosOcioso),
    quemRetomaAoAbrir: p.quemRetomaAoAbrir,
    // Written as pt-BR writes decimals: '1,01'.
    precos: Object.entries(p.precoPorHora).map(([sku, preco]) => ({
      key: newKey(),
      sku,
      preco: String(preco).replace('.', ','),
    })),
    skuHorario: p.skuHorario ?? '',
    contato: p.contato ?? '',
  };
}

const HORA = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A time zone this browser knows by its IANA name, as the API checks it. */
function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A price as typed, with a decimal comma or point: '12,5' → 12.5; NaN when it is not a number. */
export const parsePrice = (text: string) => (text.trim() === '' ? NaN : Number(text.trim().replace(',', '.')));

/** The contract's rules (packages/contract/src/capacity.ts), in its words, so the server rarely has to refuse. */
export function validate(form: PolicyForm): PolicyErrors {
  const errors: PolicyErrors = { faixas: {}, precos: {} };
  for (const f of form.horario) {
    if (!HORA.test(f.inicio) || !HORA.test(f.fim)) errors.faixas[f.key] = 'Informe o início e o fim (HH:MM).';
    else if (f.inicio >= f.fim) errors.faixas[f.key] = 'O início de cada faixa de horário deve vir antes do fim.';
  }
  if (form.horario.length > MAX_FAIXAS) errors.horario = `São aceitas no máximo ${MAX_FAIXAS} faixas de horário.`;
  if (!isTimeZone(form.fusoHorario.trim()) || !form.fusoHorario.trim()) {
    errors.fusoHorario = 'Fuso horário desconhecido: use um nome da IANA, como America/Sao_Paulo.';
  }
  const minutos = form.minutosOcioso.trim();
  if (minutos !== '') {
    const n = Number(minutos);
    if (!Number.isInteger(n)) errors.minutosOcioso = 'Informe um número inteiro de minutos, ou deixe vazio.';
    else if (n < MIN_MINUTOS_OCIOSO) {
      errors.minutosOcioso = `Pausar após ociosidade: no mínimo ${MIN_MINUTOS_OCIOSO} minutos.`;
    } else if (n > MAX_MINUTOS_OCIOSO) errors.minutosOcioso = 'Pausar após ociosidade: no máximo 7 dias.';
  }
  const seen = new Set<string>();
  for (const p of form.precos) {
    const preco = parsePrice(p.preco);
    if (!SKU_PATTERN.test(p.sku)) errors.precos[p.key] = 'Escolha o SKU.';
    else if (seen.has(p.sku)) errors.precos[p.key] = `O SKU ${p.sku} já tem preço.`;
    else if (Number.isNaN(preco)) errors.precos[p.key] = 'Informe o preço por hora.';
    else if (preco < 0) errors.precos[p.key] = 'Preço por hora não pode ser negativo.';
    seen.add(p.sku);
  }
  if (form.skuHorario && !SKU_PATTERN.test(form.skuHorario)) {
    errors.skuHorario = 'SKU deve ser um nome do Azure, de A1 a A8 ou de F2 a F2048.';
  }
  return errors;
}

export const hasErrors = (e: PolicyErrors) =>
  Object.keys(e.faixas).length > 0 ||
  Object.keys(e.precos).length > 0 ||
  Boolean(e.horario ?? e.fusoHorario ?? e.minutosOcioso ?? e.skuHorario);

/** The body of PUT /capacidade/politica, from a valid form. */
export function toPolicy(form: PolicyForm): PoliticaCapacidade {
  const minutos = form.minutosOcioso.trim();
  return {
    horario: form.horario.map(({ diaSemana, inicio, fim }) => ({ diaSemana, inicio, fim })),
    fusoHorario: form.fusoHorario.trim(),
    pausarAposMinutosOcioso: minutos === '' ? null : Number(minutos),
    quemRetomaAoAbrir: form.quemRetomaAoAbrir,
    precoPorHora: Object.fromEntries(form.precos.map((p) => [p.sku, parsePrice(p.preco)])),
    skuHorario: form.skuHorario || null,
    contato: form.contato.trim() || null,
  };
}
