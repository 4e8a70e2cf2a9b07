import { KeyboardCode, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';

/** docs/requirements.md#ui-constants: keyboard drag step. */
export const KEYBOARD_STEP_PX = 25;

const steps: Partial<Record<string, { x: number; y: number }>> = {
  [KeyboardCode.Down]: { x: 0, y: KEYBOARD_STEP_PX },
  [KeyboardCode.Up]: { x: 0, y: -KEYBOARD_STEP_PX },
  [KeyboardCode.Right]: { x: KEYBOARD_STEP_PX, y: 0 },
  [KeyboardCode.Left]: { x: -KEYBOARD_STEP_PX, y: 0 },
};

/**
 * An arrow key jumps to the neighbouring panel (in its group or the next one), so one key press is one place,
 * whatever the row height. Where there is no panel that way (Left/Right in a vertical list, past the last
 * panel) the dragged row moves by the 25 px step of docs/requirements.md#ui-constants instead.
 */
export const panelKeyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const jump = sortableKeyboardCoordinates(event, args);
  if (jump) return jump;
  const step = steps[event.code];
  if (!step) return undefined;
  event.preventDefault();
  return { x: args.currentCoordinates.x + step.x, y: args.currentCoordinates.y + step.y };
};
