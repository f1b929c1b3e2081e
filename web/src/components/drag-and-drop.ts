import type { DragEvent } from 'react';

/**
 * Native drag-and-drop of one kind of thing between elements of a page: `source(payload)` gives the
 * props that make an element draggable carrying `payload` (as JSON under `type`), `target(onDrop)`
 * those that make an element accept it. Drags of anything else (files, links, another channel's)
 * pass by. A drag is a shortcut: a button beside it does the same by keyboard.
 */
export function dragChannel<Payload>(type: string) {
  return {
    source: (payload: Payload) => ({
      draggable: true,
      onDragStart: (event: DragEvent) => {
        // The innermost draggable is what moves, not the element around it.
        event.stopPropagation();
        event.dataTransfer.setData(type, JSON.stringify(payload));
        event.dataTransfer.effectAllowed = 'move';
      },
    }),
    target: (onDrop: (payload: Payload) => void) => ({
      onDragOver: (event: DragEvent) => {
        if (event.dataTransfer.types.includes(type)) event.preventDefault();
      },
      onDrop: (event: DragEvent) => {
        const raw = event.dataTransfer.getData(type);
        if (!raw) return;
        event.preventDefault();
        event.stopPropagation();
        onDrop(JSON.parse(raw) as Payload);
      },
    }),
  };
}
