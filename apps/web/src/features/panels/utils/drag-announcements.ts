import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';
import { dropIndex, parseDropTarget, type PanelLocation } from './reorder.ts';

export const screenReaderInstructions: ScreenReaderInstructions = {
  draggable:
    'Para reordenar um painel, pressione espaço ou Enter para pegá-lo. Use as setas para cima e para baixo para ' +
    'movê-lo, inclusive para outra classificação. Pressione espaço ou Enter para soltá-lo, ou Esc para cancelar.',
};

type Locate = (id: number) => PanelLocation | undefined;

/** Where a drop on `overId` would put the panel: its classification's name and 1-based position. */
function placeOf(
  locate: Locate,
  groupName: (id: number) => string | undefined,
  active: PanelLocation,
  overId: UniqueIdentifier,
) {
  const target = parseDropTarget(overId);
  if (!target) return undefined;
  if (target.type === 'grupo') {
    const nome = groupName(target.id);
    return nome === undefined ? undefined : { classificacaoId: target.id, nome, position: 1 };
  }
  const over = locate(target.id);
  return over && { classificacaoId: over.grupo.id, nome: over.grupo.nome, position: dropIndex(active, over) + 1 };
}

/** What screen readers hear while a panel is dragged with the keyboard (or the mouse), in Portuguese. */
export function dragAnnouncements(locate: Locate, groupName: (id: number) => string | undefined): Announcements {
  const describe = (activeId: UniqueIdentifier, overId: UniqueIdentifier | undefined) => {
    const active = typeof activeId === 'number' ? locate(activeId) : undefined;
    if (!active) return undefined;
    const place = overId === undefined ? undefined : placeOf(locate, groupName, active, overId);
    return { active, place, sameGroup: place?.classificacaoId === active.grupo.id };
  };
  return {
    onDragStart({ active }) {
      const d = describe(active.id, undefined);
      if (!d) return undefined;
      const { painel, grupo, index } = d.active;
      return `Painel ${painel.nomePainel} selecionado, na posição ${index + 1} de ${grupo.paineis.length} em ${grupo.nome}.`;
    },
    onDragOver({ active, over }) {
      const d = describe(active.id, over?.id);
      if (!d) return undefined;
      const nome = d.active.painel.nomePainel;
      if (!d.place) return `Painel ${nome} fora de uma posição válida.`;
      return d.sameGroup
        ? `Painel ${nome} sobre a posição ${d.place.position} de ${d.active.grupo.paineis.length}.`
        : `Painel ${nome} sobre a classificação ${d.place.nome}, posição ${d.place.position}.`;
    },
    onDragEnd({ active, over }) {
      const d = describe(active.id, over?.id);
      if (!d) return undefined;
      const nome = d.active.painel.nomePainel;
      if (!d.place) return `Painel ${nome} solto fora de uma posição válida. Nada foi alterado.`;
      if (!d.sameGroup)
        return `Painel ${nome} movido para a classificação ${d.place.nome}, posição ${d.place.position}.`;
      if (d.place.position === d.active.index + 1) return `Painel ${nome} mantido na posição ${d.place.position}.`;
      return `Painel ${nome} movido para a posição ${d.place.position}.`;
    },
    onDragCancel({ active }) {
      const d = describe(active.id, undefined);
      if (!d) return undefined;
      return `Movimento cancelado. Painel ${d.active.painel.nomePainel} voltou à posição ${d.active.index + 1}.`;
    },
  };
}
