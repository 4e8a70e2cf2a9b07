import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { AUTH_BASE } from '../../../config/api.ts';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../auth-context.ts';

export const MICROSOFT_LOGIN_ERROR = 'Erro ao processar login Microsoft';

/** /login: the Microsoft button, and the token the sign-in brings back (docs/requirements.md#screen-login). */
export function LoginPage() {
  const { isAuthenticated, loginWithToken } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const [error, setError] = useState<string | null>(params.get('erro') ? MICROSOFT_LOGIN_ERROR : null);

  useEffect(() => {
    if (!token) return;
    try {
      loginWithToken(token);
      // Replace: the token leaves the address bar and the history at once.
      void navigate(paths.home, { replace: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : MICROSOFT_LOGIN_ERROR);
      void navigate(paths.login, { replace: true });
    }
  }, [token, loginWithToken, navigate]);

  if (isAuthenticated && !token) return <Navigate to={paths.home} replace />;

  return (
    // The page's main landmark: the navigation bar (and AppLayout's <main>) are not shown here.
    <main className="login-page d-flex min-vh-100 align-items-center justify-content-center px-3">
      <Card className="shadow-sm login-card">
        <Card.Body className="p-4 p-md-5 text-center">
          <div className="brand-mark mb-3" aria-hidden="true">
            ▦
          </div>
          <Card.Title as="h1" className="h3 mb-2">
            Login
          </Card.Title>
          <p className="text-body-secondary mb-4">Painéis Power BI</p>
          {error && (
            <Alert variant="danger" className="text-start">
              {error}
            </Alert>
          )}
          <Button
            variant="primary"
            size="lg"
            className="w-100"
            onClick={() => window.location.assign(`${AUTH_BASE}/microsoft-login`)}
          >
            Entrar com Microsoft
          </Button>
        </Card.Body>
      </Card>
    </main>
  );
}
