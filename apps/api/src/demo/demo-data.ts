/**
 * The demo organisation: its people, accounts, classifications, panels and RLS roles, with stable ids.
 * load-demo-data.ts puts it in the database; demo-directory.ts shows it to the Microsoft stand-ins.
 */
import { createHash } from 'node:crypto';
import type { NewUser } from '../modules/users/users.service.ts';
import { random } from './seeded-random.ts';

export const DEMO_DOMAIN = 'contoso.com.br';
/** The tenant's own domain, which UPNs take when the organisation's domain was not made their suffix. */
export const TENANT_DOMAIN = 'contoso.onmicrosoft.com';
/** The one Power BI workspace of the demo panels. */
export const DEMO_WORKSPACE_ID = demoGuid('workspace:Painéis Corporativos');
export const DEMO_ADMIN = {
  id: 'demo-admin',
  email: `demo.admin@${DEMO_DOMAIN}`,
  displayName: 'Ana Demonstração',
  role: 'Admin' as const,
  department: 'Tecnologia da Informação',
  jobTitle: 'Administradora do portal',
};
export const DEMO_USER = {
  id: 'demo-usuario',
  email: `demo.usuario@${DEMO_DOMAIN}`,
  displayName: 'Bruno Demonstração',
  role: 'User' as const,
  department: 'Comercial',
  jobTitle: 'Analista comercial',
};

/** The demo's two local accounts, with one password (the sign-in page offers them). */
export const DEMO_PASSWORD = 'demo';
export const DEMO_ACCOUNTS = [
  { username: 'demo.admin', user: DEMO_ADMIN },
  { username: 'demo.usuario', user: DEMO_USER },
] as const;

/**
 * A guest from a supplier's tenant (docs/decisions/013-identity-from-the-directory.md): in the directory her mail is
 * the address she was invited with and her UPN is made from it; she is seeded like everyone else, and the directory
 * sync brings in that UPN and her user type.
 */
export const DEMO_GUEST = {
  id: demoGuid('convidada:Marina Costa'),
  email: 'marina.costa@fornecedor.com.br',
  displayName: 'Marina Costa (convidada)',
  role: 'User' as const,
  department: null,
  jobTitle: 'Consultora externa',
  officeLocation: null,
};
/** Her UPN in the directory: a guest's is made from the address she was invited with. */
export const DEMO_GUEST_UPN = `${DEMO_GUEST.email.replace('@', '_')}#EXT#@${TENANT_DOMAIN}`;

export const CLASSIFICACOES: { nome: string; descricao: string | null; ativo: boolean; paineis: string[] }[] = [
  {
    nome: 'Financeiro',
    descricao: 'Resultados, fluxo de caixa e orçamento da empresa.',
    ativo: true,
    paineis: [
      'Fluxo de Caixa Mensal',
      'DRE Consolidada',
      'Orçamento vs Realizado',
      'Contas a Pagar e Receber',
      'Indicadores de Liquidez',
      'Custos por Centro de Custo',
      'Inadimplência por Região',
    ],
  },
  {
    nome: 'Comercial',
    descricao: 'Vendas, metas e carteira de clientes por região.',
    ativo: true,
    paineis: [
      'Vendas por Região',
      'Metas da Equipe Comercial',
      'Funil de Oportunidades',
      'Ticket Médio por Canal',
      'Carteira de Clientes',
      'Ranking de Vendedores',
      'Sazonalidade de Vendas',
      'Devoluções e Trocas',
    ],
  },
  {
    nome: 'Recursos Humanos',
    descricao: 'Quadro de pessoal, rotatividade e treinamentos.',
    ativo: true,
    paineis: [
      'Quadro de Colaboradores',
      'Rotatividade (Turnover)',
      'Absenteísmo',
      'Treinamentos Realizados',
      'Pesquisa de Clima',
    ],
  },
  {
    nome: 'Operações',
    descricao: 'Produção, qualidade e eficiência das plantas.',
    ativo: true,
    paineis: [
      'Produção Diária',
      'OEE por Linha',
      'Paradas de Máquina',
      'Qualidade e Não Conformidades',
      'Consumo de Energia',
      'Manutenção Preventiva',
    ],
  },
  {
    nome: 'Logística',
    descricao: 'Estoques, entregas e frota.',
    ativo: true,
    paineis: [
      'Nível de Estoque',
      'Entregas no Prazo (OTIF)',
      'Custo de Frete',
      'Ocupação de Armazéns',
      'Rastreamento da Frota',
    ],
  },
  {
    nome: 'Projetos Encerrados',
    descricao: 'Painéis de projetos já concluídos, mantidos para consulta.',
    ativo: false,
    paineis: ['Implantação do ERP (2023)', 'Expansão Nordeste'],
  },
];

export const SEM_CLASSIFICACAO = ['Painel de Testes da Equipe de BI'];

/** Panels that use RLS, and their roles: each role sees its own slice of the report's data. */
export const RLS_ROLES: Record<string, string[]> = {
  'Vendas por Região': ['Gerente Regional', 'Vendedor', 'Diretoria'],
  'Metas da Equipe Comercial': ['Gerente Regional', 'Vendedor'],
  'Inadimplência por Região': ['Sul', 'Sudeste', 'Nordeste'],
  'Quadro de Colaboradores': ['RH Corporativo', 'Gestor de Área'],
  'Custos por Centro de Custo': ['Controladoria', 'Gestor de Centro de Custo'],
  'Produção Diária': ['Planta Campinas', 'Planta Joinville'],
};

const FIRST = [
  'Ana',
  'Beatriz',
  'Bruna',
  'Camila',
  'Carla',
  'Clara',
  'Daniela',
  'Débora',
  'Eduarda',
  'Fernanda',
  'Gabriela',
  'Helena',
  'Isabela',
  'Júlia',
  'Larissa',
  'Letícia',
  'Luana',
  'Manuela',
  'Mariana',
  'Natália',
  'Patrícia',
  'Rafaela',
  'Renata',
  'Sofia',
  'Tatiane',
  'Vitória',
  'André',
  'Antônio',
  'Bernardo',
  'Caio',
  'Carlos',
  'Daniel',
  'Diego',
  'Eduardo',
  'Felipe',
  'Fernando',
  'Gabriel',
  'Gustavo',
  'Henrique',
  'João',
  'José',
  'Leonardo',
  'Lucas',
  'Marcelo',
  'Mateus',
  'Miguel',
  'Paulo',
  'Pedro',
  'Rafael',
  'Ricardo',
  'Rodrigo',
  'Thiago',
  'Vinícius',
];
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
  'Cardoso',
  'Ramos',
  'Gonçalves',
  'Santana',
  'Teixeira',
  'Araújo',
  'Moura',
  'Cavalcanti',
  'Monteiro',
  'Batista',
];
const DEPARTMENTS = [
  'Financeiro',
  'Comercial',
  'Recursos Humanos',
  'Operações',
  'Logística',
  'Tecnologia da Informação',
  'Marketing',
  'Jurídico',
  'Controladoria',
  'Suprimentos',
];
const TITLES = ['Analista', 'Analista Sênior', 'Coordenador(a)', 'Gerente', 'Especialista', 'Assistente', 'Diretor(a)'];
const OFFICES = ['São Paulo', 'Campinas', 'Joinville', 'Recife', 'Belo Horizonte', 'Porto Alegre'];

/** A stable GUID for a demo workspace or report, derived from its name. */
export function demoGuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.');

export type DemoUser = NewUser;

export function demoUsers(count: number, seed = 42): DemoUser[] {
  const rand = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const users: DemoUser[] = [];
  const emails = new Set<string>();
  for (let i = 0; users.length < count; i++) {
    const first = pick(FIRST);
    const last = `${pick(LAST)} ${pick(LAST)}`;
    let email = `${slug(first)}.${slug(last.split(' ')[1]!)}@${DEMO_DOMAIN}`;
    if (emails.has(email)) email = `${slug(first)}.${slug(last.split(' ')[1]!)}${i}@${DEMO_DOMAIN}`;
    emails.add(email);
    users.push({
      id: demoGuid(`usuario:${i}:${seed}`),
      email,
      displayName: `${first} ${last}`,
      department: rand() < 0.05 ? null : pick(DEPARTMENTS),
      jobTitle: pick(TITLES),
      officeLocation: pick(OFFICES),
      role: 'User',
    });
  }
  return users;
}

/**
 * The UPN of the `index`th of demoUsers in the directory: most people's is their mail; one in 25 signs in as
 * `…@contoso.onmicrosoft.com`, so their RLS identity (the UPN) and the address RLS roles list (the mail) differ.
 */
export const demoUpn = (email: string, index: number) =>
  index % 25 === 1 ? email.replace(`@${DEMO_DOMAIN}`, `@${TENANT_DOMAIN}`) : email;
