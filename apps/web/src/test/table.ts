import { screen, within } from '@testing-library/react';

/**
 * The data rows of a table (its header row left out), each as its cells' text: the page's only table, or the table
 * (or the region holding it) given.
 */
export function dataRows(table?: HTMLElement): (string | null)[][] {
  return (table ? within(table).getAllByRole('row') : screen.getAllByRole('row')).slice(1).map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent),
  );
}
