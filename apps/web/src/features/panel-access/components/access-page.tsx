import { useSearchParams } from 'react-router';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { AccessPersonPicker } from './access-person-picker.tsx';
import { PersonAccessDetails } from './person-access-details.tsx';

export const CHOOSE_PERSON = 'Escolha uma pessoa para ver os painéis que ela pode abrir e por quê.';

/**
 * /acessos: 'Acessos', for administrators (the route guards it). A person is chosen in the picker, or named in the
 * address (`?pessoa={id}`, so the page can be linked to and the back button returns to the previous person).
 */
export function AccessPage() {
  const [params, setParams] = useSearchParams();
  const pessoaId = params.get('pessoa') || null;
  return (
    <Container fluid="xl" className="py-4">
      <h1 className="h3 mb-4">Acessos</h1>
      <Card className="shadow-sm mb-4">
        <Card.Body>
          <AccessPersonPicker onChoose={(person) => setParams({ pessoa: person.id })} />
        </Card.Body>
      </Card>
      {pessoaId === null ? (
        <p className="text-body-secondary">{CHOOSE_PERSON}</p>
      ) : (
        <PersonAccessDetails key={pessoaId} pessoaId={pessoaId} />
      )}
    </Container>
  );
}
