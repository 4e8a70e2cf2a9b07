import { NavLink } from 'react-router';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Navbar from 'react-bootstrap/Navbar';
import { paths } from '../config/paths.ts';
import { useAuth } from '../features/auth/auth-context.ts';

/** Brand, Início, the admin links and the user menu (docs/requirements.md#navigation-bar). Hidden on /login. */
export function NavigationBar() {
  const { user, isAdmin, logout } = useAuth();
  return (
    <Navbar expand="md" bg="white" className="border-bottom shadow-sm" collapseOnSelect>
      <Container fluid="xl">
        <Navbar.Brand as={NavLink} to={paths.home} className="fw-semibold">
          <span className="brand-mark-sm me-2" aria-hidden="true">
            ▦
          </span>
          Painéis
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="navegacao-principal" aria-label="Abrir navegação" />
        <Navbar.Collapse id="navegacao-principal">
          <Nav className="me-auto">
            <Nav.Link as={NavLink} to={paths.home} end>
              Início
            </Nav.Link>
            {isAdmin && (
              <>
                <Nav.Link as={NavLink} to={paths.classifications}>
                  Classificações
                </Nav.Link>
                <Nav.Link as={NavLink} to={paths.newPanel}>
                  Novo Painel
                </Nav.Link>
              </>
            )}
          </Nav>
          <Nav>
            <NavDropdown title={user?.displayName || user?.username || ''} id="menu-usuario" align="end">
              <NavDropdown.Item as="button" onClick={() => void logout()}>
                Sair
              </NavDropdown.Item>
            </NavDropdown>
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
