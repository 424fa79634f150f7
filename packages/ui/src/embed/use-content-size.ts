import type { ContentSize } from '@marketplace/protocol';
import type { RefObject } from 'react';
import { useEffect, useRef } from 'react';

/**
 * Reports the element's size in whole CSS pixels (rounded up, so a host that fits its iframe to it never
 * cuts a pixel off) on first layout and after every change, skipping repeats. Embed pages pass it on to
 * the host page as a size message.
 */
export function useContentSize(ref: RefObject<Element | null>, onSize: (size: ContentSize) => void): void {
  const onSizeRef = useRef(onSize);
  onSizeRef.current = onSize;
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
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
  }, [ref]);
}
