import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Placeholder until the web app lands (issue 4): shows that the server serves the built app.
function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Painéis Power BI</h1>
      <p>
        A API está no ar. A documentação está em <a href="/api/docs">/api/docs</a>.
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
