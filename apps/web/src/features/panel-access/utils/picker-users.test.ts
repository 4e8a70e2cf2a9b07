import { describe, expect, it } from 'vitest';
import type { Usuario365 } from '@paineis/contract/users';
import { searchKey } from '../../../lib/search-key.ts';
import { filterUsers, preparePickerUsers, selectedFirst } from './picker-users.ts';

const u = (id: string, displayName: string, department: string | null = null): Usuario365 => ({
  id,
  displayName,
  email: `${id}@empresa.com.br`,
  department,
});

describe('preparePickerUsers', () => {
  const active = [u('b', 'Bruno'), u('a', 'Álvaro', 'Operações'), u('c', 'Carla')];

  it('sorts by name (pt-BR) and works the directory out once, whichever panel it is for', () => {
    const first = preparePickerUsers(active, []);
    expect(first.map((x) => x.displayName)).toEqual(['Álvaro', 'Bruno', 'Carla']);
    expect(first[0]!.search).toBe('alvaro\na@empresa.com.br\noperacoes');
    expect(preparePickerUsers(active, [{ id: 'b', displayName: 'Bruno', email: 'b@empresa.com.br' }])).toBe(first);
  });

  it('gives a linked user who is no longer active a row of its own, in name order, once', () => {
    const ex = { id: 'x', displayName: 'Beatriz', email: 'x@empresa.com.br' };
    const users = preparePickerUsers(active, [ex, ex]);
    expect(users.map((x) => x.id)).toEqual(['a', 'x', 'b', 'c']);
    expect(users[1]).toMatchObject({ department: null, search: 'beatriz\nx@empresa.com.br' });
    // The directory itself is left as it was.
    expect(preparePickerUsers(active, []).map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });

  it('puts the selected first and filters by name, e-mail or department without accents', () => {
    const users = preparePickerUsers(active, []);
    expect(selectedFirst(users, new Set(['c'])).map((x) => x.id)).toEqual(['c', 'a', 'b']);
    expect(filterUsers(users, ' OPERACÕES ').map((x) => x.id)).toEqual(['a']);
    expect(filterUsers(users, 'c@empresa').map((x) => x.id)).toEqual(['c']);
    expect(filterUsers(users, '   ')).toBe(users);
  });

  it('typed one character at a time, deleted or changed, always finds what a search of the whole list finds', () => {
    const many = preparePickerUsers(
      Array.from({ length: 300 }, (_, i) => ({
        id: `u${i}`,
        displayName: `${['Ana', 'Bruno', 'Ângela', 'Carla'][i % 4]} ${['Silva', 'Souza', 'Sá'][i % 3]} ${i}`,
        email: `p${i}@empresa.com.br`,
        department: i % 5 === 0 ? 'Operações' : null,
      })),
      [],
    );
    const whole = (query: string) => many.filter((u) => u.search.includes(searchKey(query))).map((u) => u.id);
    // A narrowing query filters the last result; one that does not (a deletion, another word) the whole list.
    for (const query of ['a', 'an', 'ang', 'ange', 'an', 'a', 's', 'sa', 'sá 1', 'sa 1', 'oper', 'ana', '']) {
      expect(filterUsers(many, query).map((u) => u.id)).toEqual(query ? whole(query) : many.map((u) => u.id));
    }
  });
});
