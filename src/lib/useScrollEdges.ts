import { useEffect, useState, type RefObject } from 'react';

export interface ScrollEdges {
  /** Content hidden past the left edge. */
  left: boolean;
  /** Content hidden past the right edge. */
  right: boolean;
}

/** Whether a box scrolled sideways hides content on either side, following its scrolling and its size changes. */
export function useScrollEdges(box: RefObject<HTMLElement | null>): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({ left: false, right: false });
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      // A pixel of rounding is not a hidden column.
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setEdges((kept) => (kept.left === left && kept.right === right ? kept : { left, right }));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    if (element.firstElementChild) resized.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', measure);
      resized.disconnect();
    };
  }, [box]);
  return edges;
}
