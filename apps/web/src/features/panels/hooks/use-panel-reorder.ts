import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  closestCenter,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
  type MeasuringConfiguration,
} from '@dnd-kit/core';
import type { GrupoPaineis } from '@paineis/contract/panels';
import { errorMessage } from '../../../lib/api-client.ts';
import { useMovePanel } from '../api/move-panel.ts';
import { useReorderPanels } from '../api/reorder-panels.ts';
import { dragAnnouncements, screenReaderInstructions } from '../utils/drag-announcements.ts';
import { panelKeyboardCoordinates } from '../utils/keyboard-coordinates.ts';
import { computeDrop, type PanelLocation } from '../utils/reorder.ts';

export const REORDER_ERROR = 'Erro ao salvar a nova ordem dos painéis.';
export const MOVE_ERROR = 'Erro ao mover o painel para a outra classificação.';

/** docs/requirements.md#ui-constants: drag activation distance and droppable measurement timeout. */
const DRAG_ACTIVATION_DISTANCE_PX = 8;
const DROPPABLE_MEASURING_MS = 25;

// Re-measured every 25 ms, but only while dragging: measuring hundreds of rows when idle would be waste.
const measuring: MeasuringConfiguration = {
  droppable: { strategy: MeasuringStrategy.WhileDragging, frequency: DROPPABLE_MEASURING_MS },
};

interface PanelReorderOptions {
  /** The whole list as loaded (not the filtered one), or undefined while it loads. */
  groups: GrupoPaineis[] | undefined;
  /** Where each panel sits in `groups`. */
  locations: Map<number, PanelLocation>;
  /** Shows a failed save's message; null clears the last one as a drop starts saving. */
  onNotice: (notice: string | null) => void;
}

/**
 * Drag-and-drop reordering of the panel list: the sensors and measuring of docs/requirements.md#ui-constants, the
 * screen reader's announcements, the dragged panel, and each drop saved (a reorder within a classification, or a
 * move to another), with the keyboard focus given back to the moved row's handle.
 */
export function usePanelReorder({ groups, locations, onNotice }: PanelReorderOptions) {
  const reorder = useReorderPanels();
  const move = useMovePanel();
  const saving = reorder.isPending || move.isPending;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: DRAG_ACTIVATION_DISTANCE_PX } }),
    useSensor(KeyboardSensor, { coordinateGetter: panelKeyboardCoordinates }),
  );

  const accessibility = useMemo(() => {
    const groupNames = new Map((groups ?? []).map((g) => [g.id, g.nome]));
    return {
      announcements: dragAnnouncements(
        (id) => locations.get(id),
        (id) => groupNames.get(id),
      ),
      screenReaderInstructions,
    };
  }, [groups, locations]);

  const [draggedId, setDraggedId] = useState<number | null>(null);
  const dragged = draggedId === null ? undefined : locations.get(draggedId)?.painel;
  // A move re-creates the row in another list, which loses the keyboard focus: give it back to its handle.
  const [refocus, setRefocus] = useState<{ painelId: number; grupoId: number } | null>(null);
  useEffect(() => {
    if (!refocus) return;
    const handle = document.querySelector<HTMLElement>(
      `[data-grupo-id="${refocus.grupoId}"] [data-painel-id="${refocus.painelId}"] .drag-handle`,
    );
    if (handle) {
      handle.focus();
      setRefocus(null);
    }
  }, [refocus, groups]);

  const onDragStart = useCallback(({ active }: DragStartEvent) => {
    setDraggedId(typeof active.id === 'number' ? active.id : null);
  }, []);
  const onDragCancel = useCallback(() => setDraggedId(null), []);

  const { mutate: saveOrder } = reorder;
  const { mutate: saveMove } = move;
  const onDragEnd = useCallback(
    ({ active, over }: DragEndEvent) => {
      setDraggedId(null);
      if (!groups || !over || typeof active.id !== 'number') return;
      const drop = computeDrop(groups, active.id, over.id, locations);
      if (!drop) return;
      onNotice(null);
      if (drop.kind === 'reorder') {
        saveOrder(
          { groups: drop.groups, items: drop.items },
          { onError: (e) => onNotice(errorMessage(e, REORDER_ERROR)) },
        );
      } else {
        const painelId = drop.painel.id;
        // Only a keyboard user's focus is on the handle; a pointer user's is left where it is.
        const hadFocus = document.activeElement?.closest(`[data-painel-id="${painelId}"]`) != null;
        if (hadFocus) setRefocus({ painelId, grupoId: drop.to.id });
        saveMove(
          { groups: drop.groups, painelId, classificacaoId: drop.to.id, ordem: drop.position, items: drop.items },
          {
            onError: (e) => {
              onNotice(errorMessage(e, MOVE_ERROR));
              if (hadFocus) setRefocus({ painelId, grupoId: drop.from.id });
            },
          },
        );
      }
    },
    [groups, locations, saveOrder, saveMove, onNotice],
  );

  return {
    /** A save is under way: dragging pauses until it ends. */
    saving,
    draggedId,
    /** The panel being dragged, for the overlay that travels between classifications. */
    dragged,
    /** The panel whose handle gets the focus back once its row is in the page. */
    refocusId: refocus?.painelId ?? null,
    /** Spread onto the list's DndContext. */
    dndContextProps: {
      sensors,
      collisionDetection: closestCenter,
      measuring,
      accessibility,
      onDragStart,
      onDragEnd,
      onDragCancel,
    },
  };
}
