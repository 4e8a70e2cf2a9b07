/** TODO (web admin helper): 'Assinaturas', every subscription (docs/requirements.md#subscriptions). */
export function AllSubscriptionsPage() {
  return <h1>Assinaturas</h1>;
}
