/** /importar: 'Importar do Power BI' (docs/requirements.md#power-bi). Placeholder until the screen is built. */
export function ImportPage() {
  return <h1 className="h3">Importar do Power BI</h1>;
}
