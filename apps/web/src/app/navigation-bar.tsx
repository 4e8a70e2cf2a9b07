import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { NavLink } from 'react-router';
import { paths } from '../config/paths.ts';
import { useAuth } from '../features/auth/auth-context.ts';

/** Bootstrap's .collapsing transition (350 ms); the end is awaited with a timer, which also holds when motion is off. */
const COLLAPSE_MS = 350;

/**
 * Brand, Início, Minhas assinaturas, the admin links and the user menu (docs/requirements.md#navigation-bar). Hidden on /login.
 *
 * Bootstrap's own navbar markup and classes, written out rather than taken from react-bootstrap's Navbar and
 * NavDropdown: those bring the dropdown machinery and Popper.js (~10 kB gzip) into the entry chunk, for one menu
 * with one item.
 */
export function NavigationBar() {
  const { user, isAdmin, logout } = useAuth();
  const [expanded, setExpanded] = useState(false);
  const collapse = useRef<HTMLDivElement>(null);
  useCollapse(collapse, expanded);
  // On a phone, choosing a destination closes the opened menu.
  const close = () => setExpanded(false);
  return (
    <nav className="border-bottom shadow-sm navbar navbar-expand-md navbar-light bg-white">
      <div className="container-xl">
        <NavLink to={paths.home} className="fw-semibold navbar-brand" onClick={close}>
          <span className="brand-mark-sm me-2" aria-hidden="true">
            ▦
          </span>
          Painéis
        </NavLink>
        <button
          type="button"
          className={expanded ? 'navbar-toggler' : 'navbar-toggler collapsed'}
          aria-controls="navegacao-principal"
          aria-expanded={expanded}
          aria-label="Abrir navegação"
          onClick={() => setExpanded((open) => !open)}
        >
          <span className="navbar-toggler-icon" />
        </button>
        {/* Its classes are set by useCollapse, never again by React. */}
        <div className="navbar-collapse collapse" id="navegacao-principal" ref={collapse}>
          <div className="me-auto navbar-nav">
            <NavLink to={paths.home} end className="nav-link" onClick={close}>
              Início
            </NavLink>
            {/* end: the admins' 'Assinaturas' (/assinaturas/todas) is not this link's. */}
            <NavLink to={paths.subscriptions} end className="nav-link" onClick={close}>
              Minhas assinaturas
            </NavLink>
            {isAdmin && (
              <>
                <NavLink to={paths.classifications} className="nav-link" onClick={close}>
                  Classificações
                </NavLink>
                <NavLink to={paths.newPanel} className="nav-link" onClick={close}>
                  Novo Painel
                </NavLink>
                <NavLink to={paths.usage} className="nav-link" onClick={close}>
                  Uso
                </NavLink>
                <NavLink to={paths.audit} className="nav-link" onClick={close}>
                  Auditoria
                </NavLink>
                <NavLink to={paths.access} className="nav-link" onClick={close}>
                  Acessos
                </NavLink>
                <NavLink to={paths.allSubscriptions} className="nav-link" onClick={close}>
                  Assinaturas
                </NavLink>
                <NavLink to={paths.capacity} className="nav-link" onClick={close}>
                  Capacidade
                </NavLink>
              </>
            )}
          </div>
          <div className="navbar-nav">
            <UserMenu
              name={user?.displayName || user?.username || ''}
              onLogout={() => {
                close();
                void logout();
              }}
            />
          </div>
        </div>
      </div>
    </nav>
  );
}

/** The user menu: a Bootstrap dropdown, static in the navbar, aligned to the end, with its one item 'Sair'. */
function UserMenu({ name, onLogout }: { name: string; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const firstItem = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    // A click anywhere else closes the menu.
    const onClick = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Tab' && open) {
      // Focus moving on out of the menu closes it.
      setOpen(false);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      toggle.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      // Shown at once, so that its item can take the focus.
      flushSync(() => setOpen(true));
      firstItem.current?.focus();
    }
  };

  return (
    <div
      ref={root}
      className={open ? 'nav-item show dropdown' : 'nav-item dropdown'}
      onKeyDown={onKeyDown}
      // Focus moving elsewhere (a click on another control) closes it.
      onBlur={(event) => {
        if (open && event.relatedTarget && !root.current?.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        type="button"
        id="menu-usuario"
        className={open ? 'dropdown-toggle show nav-link' : 'dropdown-toggle nav-link'}
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
      >
        {name}
      </button>
      <div
        aria-labelledby="menu-usuario"
        data-bs-popper="static"
        className={open ? 'dropdown-menu show dropdown-menu-end' : 'dropdown-menu dropdown-menu-end'}
      >
        <button
          ref={firstItem}
          type="button"
          className="dropdown-item"
          onClick={() => {
            setOpen(false);
            onLogout();
          }}
        >
          Sair
        </button>
      </div>
    </div>
  );
}

/**
 * Bootstrap's collapse, as its own script does it: `collapse` when closed, `collapsing` with the height animated from
 * 0 to the content's (or back) for 350 ms, then `collapse show` when open. Only the phone layout shows it; from md up
 * the navbar is always expanded.
 */
function useCollapse(ref: RefObject<HTMLDivElement | null>, expanded: boolean) {
  const first = useRef(true);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (first.current) {
      first.current = false;
      return;
    }
    const { classList, style } = element;
    if (expanded) {
      classList.remove('collapse', 'show');
      style.height = '0px';
      classList.add('collapsing');
      // Reading scrollHeight lays out the 0 height first, so the change below is animated.
      style.height = `${element.scrollHeight}px`;
    } else {
      style.height = `${element.getBoundingClientRect().height}px`;
      void element.offsetHeight;
      classList.remove('collapse', 'show');
      classList.add('collapsing');
      // .collapsing's own height is 0.
      style.height = '';
    }
    const done = window.setTimeout(() => {
      classList.remove('collapsing');
      classList.add('collapse');
      if (expanded) classList.add('show');
      style.height = '';
    }, COLLAPSE_MS);
    return () => window.clearTimeout(done);
  }, [ref, expanded]);
}
