import { useId } from 'react';
import Form from 'react-bootstrap/Form';

interface SearchBoxProps {
  /** Read by screen readers only: the placeholder says it on screen. */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}

/** The search box above a list of people or groups. */
export function SearchBox({ label, placeholder, value, onChange }: SearchBoxProps) {
  const id = useId();
  return (
    <>
      <Form.Label htmlFor={id} visuallyHidden>
        {label}
      </Form.Label>
      <Form.Control
        id={id}
        type="search"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
        className="mb-2"
      />
    </>
  );
}
