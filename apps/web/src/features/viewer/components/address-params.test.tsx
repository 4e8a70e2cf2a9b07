import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useAddressParams } from './viewer-page.tsx';

/** Two changes of the address in one event, as a role chosen while the report reports its page. */
function TwoChanges() {
  const [params, setParams] = useAddressParams();
  return (
    <button
      type="button"
      onClick={() => {
        setParams({ papel: 'Vendedor' });
        setParams({ pagina: 'ReportSection2' });
      }}
    >
      {params.toString() || 'vazio'}
    </button>
  );
}

describe("the viewer's address parameters", () => {
  it('keeps both of two changes made before the next render, and what the address had', async () => {
    const router = createMemoryRouter([{ path: '/visualizar/:id', element: <TwoChanges /> }], {
      initialEntries: ['/visualizar/7?visao=v1'],
    });
    render(<RouterProvider router={router} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'visao=v1' }));
    await waitFor(() => {
      const params = new URLSearchParams(router.state.location.search);
      expect(Object.fromEntries(params)).toEqual({ visao: 'v1', papel: 'Vendedor', pagina: 'ReportSection2' });
    });
    expect(router.state.historyAction).toBe('REPLACE');
  });
});
