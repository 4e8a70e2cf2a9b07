import { createHash } from 'node:crypto';
import type { StandInPerson } from './types.ts';

const STYLES = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f3f2f1;
font-family:"Segoe UI",system-ui,-apple-system,Roboto,Arial,sans-serif;color:#1b1b1b}
main{width:100%;max-width:460px;margin:24px;background:#fff;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.15);
overflow:hidden}
.aviso{margin:0;padding:10px 24px;background:#fff4ce;color:#5c4400;font-size:14px;border-bottom:1px solid #f2d675}
.conteudo{padding:24px}
h1{margin:0 0 4px;font-size:24px;font-weight:600}
p{margin:0 0 16px;line-height:1.45}
.detalhe{color:#605e5c;font-size:14px}
ul{list-style:none;margin:0 0 16px;padding:0}
li+li{margin-top:8px}
button{font:inherit;cursor:pointer}
.pessoa{width:100%;display:grid;grid-template-columns:1fr auto;gap:2px 12px;text-align:left;padding:12px 14px;
background:#fff;border:1px solid #c8c6c4;border-radius:4px;color:inherit}
.pessoa:hover,.pessoa:focus-visible{border-color:#0067b8;background:#f3f9fd;outline:none}
.nome{font-weight:600}
.email{grid-column:1;color:#605e5c;font-size:14px;overflow-wrap:anywhere}
.papel{grid-row:1/span 2;grid-column:2;align-self:center;font-size:13px;padding:2px 8px;border-radius:10px;
background:#e1dfdd}
.papel.admin{background:#0067b8;color:#fff}
.desativada{color:#a4262c;font-size:13px}
.cancelar{padding:8px 20px;background:#fff;border:1px solid #8a8886;border-radius:2px}
.cancelar:hover,.cancelar:focus-visible{background:#f3f2f1}
code{font-size:13px;overflow-wrap:anywhere}
`;

const STYLES_HASH = createHash('sha256').update(STYLES).digest('base64');

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Nothing but the page's own stylesheet may load. The form may post here and, since browsers apply form-action
 * to the redirect that follows, land on the portal's callback.
 */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  const formAction = formTargets.length ? `'self' ${formTargets.join(' ')}` : "'none'";
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLES_HASH}'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLES}</style>
</head>
<body>
<main>
<p class="aviso"><strong>Simulação local do Microsoft Entra ID.</strong> Nenhuma conta real da Microsoft é usada aqui.</p>
<div class="conteudo">
${body}
</div>
</main>
</body>
</html>
`;
}

export interface SignInPageInput {
  formAction: string;
  requestId: string;
  /** The application's name in Entra, as Microsoft's own sign-in page names it. */
  appName: string;
  returnsTo: string;
  people: StandInPerson[];
}

export function renderSignInPage(input: SignInPageInput): string {
  const buttons = input.people
    .map((person) => {
      const admin = person.appRoles?.includes('Admin') ?? false;
      const disabled = person.accountEnabled === false ? '<span class="desativada">Conta desativada</span>' : '';
      return `<li><button class="pessoa" type="submit" name="person" value="${escapeHtml(person.id)}">
<span class="nome">${escapeHtml(person.displayName)}</span>
<span class="email">${escapeHtml(person.mail ?? person.userPrincipalName)}</span>
<span class="papel${admin ? ' admin' : ''}">${admin ? 'Administrador' : 'Usuário'}</span>${disabled}
</button></li>`;
    })
    .join('\n');
  const list = buttons
    ? `<ul>\n${buttons}\n</ul>`
    : '<p class="detalhe">Nenhuma pessoa do diretório simulado está disponível para entrar.</p>';
  return layout(
    'Entrar — simulação local do Microsoft Entra ID',
    `<h1>Entrar</h1>
<p>Escolha a conta com que deseja entrar no aplicativo <strong>${escapeHtml(input.appName)}</strong>.</p>
<form method="post" action="${escapeHtml(input.formAction)}">
<input type="hidden" name="request" value="${escapeHtml(input.requestId)}">
${list}
<p class="detalhe">Depois de escolher, você volta para <code>${escapeHtml(input.returnsTo)}</code>.</p>
<button class="cancelar" type="submit" name="action" value="cancel">Cancelar</button>
</form>`,
  );
}

export function renderSignedOutPage(): string {
  return layout(
    'Sessão encerrada — simulação local do Microsoft Entra ID',
    `<h1>Você saiu</h1>
<p>A sessão foi encerrada. Já pode fechar esta janela.</p>`,
  );
}

export function renderErrorPage(message: string, detail: string): string {
  return layout(
    'Erro — simulação local do Microsoft Entra ID',
    `<h1>Não foi possível entrar</h1>
<p>${escapeHtml(message)}</p>
<p class="detalhe">${escapeHtml(detail)}</p>`,
  );
}
