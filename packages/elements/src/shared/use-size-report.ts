import { useEffect, useRef } from 'react';

export interface ReportedSize {
  width: number;
  height: number;
}

/**
 * Calls `onSize` with the element's rounded-up size on first layout and whenever it changes (text wraps,
 * fonts load, the card's data arrives), so a host that frames the element can fit the frame to it.
 */
export function useSizeReport(element: HTMLElement, onSize: (size: ReportedSize) => void): void {
  const onSizeRef = useRef(onSize);
  onSizeRef.current = onSize;
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return undefined;
    let last = '';
    const observer = new ResizeObserver(() => {
      const rect = element.getBoundingClientRect();
      const size = { width: Math.ceil(rect.width), height: Math.ceil(rect.height) };
      const key = `${size.width}x${size.height}`;
      if (key === last) return;
      last = key;
      onSizeRef.current(size);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
}
