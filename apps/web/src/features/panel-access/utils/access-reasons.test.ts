import { describe, expect, it } from 'vitest';
import type { MotivoAcesso } from '@paineis/contract/groups';
import type { Usuario365 } from '@paineis/contract/users';
import { grupoVinculado } from '../../../test/data-generators.ts';
import { panelAccessCsv, panelAccessCsvName } from './access-csv.ts';
import { findPeople, MAX_PERSON_MATCHES } from './access-person-search.ts';
import {
  filterAccessRows,
  panelAccessRows,
  peopleCount,
  reasonsText,
  reasonText,
  type PanelAccessPerson,
} from './access-reasons.ts';

const COMERCIAL = grupoVinculado();
const direto: MotivoAcesso = { tipo: 'direto' };
const admin: MotivoAcesso = { tipo: 'administrador' };
const grupo: MotivoAcesso = { tipo: 'grupo', grupo: COMERCIAL, via: ['Comercial'] };
const aninhado: MotivoAcesso = { tipo: 'grupo', grupo: COMERCIAL, via: ['Comercial', 'Comercial - Sul'] };

describe('reasonText: why a person may open a panel, as the screens write it', () => {
  it('writes each kind of reason', () => {
    expect(reasonText(direto)).toBe('Vínculo direto');
    expect(reasonText(grupo)).toBe('Grupo: Comercial');
    expect(reasonText(aninhado)).toBe('Grupo: Comercial (Comercial → Comercial - Sul)');
    expect(
      reasonText({ tipo: 'grupo', grupo: COMERCIAL, via: ['Comercial', 'Comercial - Sul', 'Comercial - Joinville'] }),
    ).toBe('Grupo: Comercial (Comercial → Comercial - Sul → Comercial - Joinville)');
    expect(reasonText(admin)).toBe('Administrador');
    expect(reasonText({ tipo: 'email' })).toBe('E-mail no papel');
  });

  it("joins several reasons with '; '", () => {
    expect(reasonsText([direto, aninhado])).toBe('Vínculo direto; Grupo: Comercial (Comercial → Comercial - Sul)');
    expect(reasonsText([])).toBe('');
  });
});

const PESSOAS: PanelAccessPerson[] = [
  { usuarioId: 'u-ana', nome: 'Ana Demonstração', email: 'ana@contoso.com.br', motivos: [admin] },
  { usuarioId: 'u-bruno', nome: 'Bruno Lima', email: 'bruno@contoso.com.br', motivos: [aninhado] },
  { usuarioId: 'u-joao', nome: 'João Gonçalves', email: 'joao@contoso.com.br', motivos: [direto, grupo] },
];

describe("filtering 'Quem tem acesso'", () => {
  const rows = panelAccessRows(PESSOAS);
  const names = (query: string) => filterAccessRows(rows, query).map((r) => r.person.nome);

  it('finds by name, e-mail or group, ignoring case and accents', () => {
    expect(names('')).toEqual(['Ana Demonstração', 'Bruno Lima', 'João Gonçalves']);
    expect(names('  JOAO ')).toEqual(['João Gonçalves']);
    expect(names('demonstracao')).toEqual(['Ana Demonstração']);
    expect(names('bruno@contoso')).toEqual(['Bruno Lima']);
    expect(names('comercial')).toEqual(['Bruno Lima', 'João Gonçalves']);
    expect(names('comercial - sul')).toEqual(['Bruno Lima']);
    expect(names('ninguém')).toEqual([]);
  });

  it('does not match across the end of one field and the start of the next', () => {
    expect(names('limabruno')).toEqual([]);
  });

  it("counts '{x} de {y} pessoas', with 'pessoa' for one", () => {
    expect(peopleCount(2, 3)).toBe('2 de 3 pessoas');
    expect(peopleCount(1, 1)).toBe('1 de 1 pessoa');
    expect(peopleCount(0, 1)).toBe('0 de 1 pessoa');
    expect(peopleCount(1234, 25000)).toBe('1.234 de 25.000 pessoas');
  });
});

describe("the CSV of 'Quem tem acesso'", () => {
  it('has Nome, E-mail, Motivos (joined by "; "), as pt-BR Excel opens it', () => {
    const csv = panelAccessCsv(PESSOAS);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Nome;E-mail;Motivos',
      'Ana Demonstração;ana@contoso.com.br;Administrador',
      'Bruno Lima;bruno@contoso.com.br;Grupo: Comercial (Comercial → Comercial - Sul)',
      'João Gonçalves;joao@contoso.com.br;"Vínculo direto; Grupo: Comercial"',
    ]);
  });

  it('escapes a name Excel would run as a formula', () => {
    const csv = panelAccessCsv([{ usuarioId: 'x', nome: '=HIPERLINK("x")', email: 'x@x', motivos: [direto] }]);
    expect(csv.slice(1).split('\r\n')[1]).toBe(`"'=HIPERLINK(""x"")";x@x;Vínculo direto`);
  });

  it('is named for the panel', () => {
    expect(panelAccessCsvName(7)).toBe('quem-tem-acesso-painel-7.csv');
  });
});

describe('findPeople: the person picker over tens of thousands', () => {
  const person = (i: number, displayName: string, email: string): Usuario365 => ({
    id: `p${i}`,
    displayName,
    email,
    department: null,
  });
  const directory = [
    person(1, 'Álvaro Nunes', 'alvaro@contoso.com.br'),
    person(2, 'Bruno Demonstração', 'demo.usuario@contoso.com.br'),
    ...Array.from({ length: 30_000 }, (_, i) => person(i + 10, `Pessoa ${i}`, `pessoa${i}@contoso.com.br`)),
  ];

  it('finds by name or e-mail, ignoring case and accents; nothing for an empty query', () => {
    expect(findPeople(directory, 'alvaro').matches.map((p) => p.id)).toEqual(['p1']);
    expect(findPeople(directory, 'DEMONSTRAÇAO').matches.map((p) => p.id)).toEqual(['p2']);
    expect(findPeople(directory, 'demo.usuario').matches.map((p) => p.id)).toEqual(['p2']);
    expect(findPeople(directory, '   ')).toEqual({ matches: [], total: 0 });
  });

  it('shows at most the first 50 matches, in the order given, and counts them all', () => {
    const { matches, total } = findPeople(directory, 'pessoa');
    expect(MAX_PERSON_MATCHES).toBe(50);
    expect(matches).toHaveLength(50);
    expect(matches[0]!.displayName).toBe('Pessoa 0');
    expect(total).toBe(30_000);
  });
});
