import { lazy, Suspense, useState } from 'react';
import type { ConfirmDialogProps } from './confirm-dialog-modal.tsx';

export type { ConfirmDialogProps } from './confirm-dialog-modal.tsx';

// react-bootstrap's Modal, its transitions and focus handling are ~6 kB gzip that the panel list (the first screen)
// would load only for a delete that most visits never start.
const ConfirmDialogModal = lazy(() => import('./confirm-dialog-modal.tsx'));

/**
 * The one confirmation dialog (delete flows: confirm, act, reload). Its code is fetched when it first opens; from
 * then on it stays mounted, so that it closes with the modal's own fade as before.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [opened, setOpened] = useState(props.show);
  if (props.show && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialogModal {...props} />
    </Suspense>
  );
}
