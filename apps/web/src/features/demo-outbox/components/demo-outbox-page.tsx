/** TODO (web admin helper): 'Caixa de saída (demonstração)'. */
export function DemoOutboxPage() {
  return <h1>Caixa de saída (demonstração)</h1>;
}
