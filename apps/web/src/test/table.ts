import { screen, within } from '@testing-library/react';

/** The data rows of the page's table (its header row left out), each as its cells' text. */
export function dataRows(): (string | null)[][] {
  return screen
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}
