import { act, screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { vi } from 'vitest';

/**
 * jsdom lays nothing out: each panel row (and empty-classification drop zone) gets a 40 px box, 50 px apart, in
 * document order, so dnd-kit's keyboard sensor can find the neighbouring panel as in a browser. The drag overlay
 * starts where the dragged row is.
 */
export function stubRowRects() {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const rows = Array.from(document.querySelectorAll('[data-painel-id], [data-grupo-drop]'));
    const overlayFor = this.getAttribute('data-overlay-for');
    const measured = overlayFor ? document.querySelector(`[data-painel-id="${overlayFor}"]`) : this;
    const i = measured ? rows.indexOf(measured) : -1;
    const top = i < 0 ? 0 : 100 + i * 50;
    const [height, width] = i < 0 ? [0, 0] : [40, 800];
    return { x: 0, y: top, top, left: 0, bottom: top + height, right: width, width, height, toJSON: () => ({}) };
  });
}

/** Focus a panel's drag handle, pick it up with Space, move with the arrow keys, drop with Space. */
export async function keyboardDrag(user: UserEvent, nome: string, keys: string) {
  const handle = screen.getByRole('button', { name: `Arrastar para reordenar ${nome}` });
  act(() => handle.focus());
  await user.keyboard(' ');
  await user.keyboard(keys);
  await user.keyboard(' ');
}
