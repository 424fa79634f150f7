import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentSize } from '@marketplace/protocol';
import { useContentSize } from './use-content-size';

/** A ResizeObserver the test drives: happy-dom does no layout. */
let notify: (() => void) | undefined;
let disconnected = false;
class DrivenResizeObserver {
  constructor(callback: () => void) {
    notify = callback;
  }
  observe() {}
  disconnect() {
    disconnected = true;
  }
}

function Measured({ onSize }: { onSize: (size: ContentSize) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useContentSize(ref, onSize);
  return <div ref={ref}>content</div>;
}

describe('useContentSize', () => {
  beforeEach(() => {
    vi.stubGlobal('ResizeObserver', DrivenResizeObserver);
    disconnected = false;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reports the size rounded up to whole pixels, once per change', () => {
    const sizes: ContentSize[] = [];
    const { container, unmount } = render(<Measured onSize={(size) => sizes.push(size)} />);
    const element = container.firstElementChild as HTMLElement;
    let rect = { width: 120.2, height: 39.5 };
    element.getBoundingClientRect = () => ({ ...rect }) as DOMRect;
    act(() => notify?.());
    act(() => notify?.());
    rect = { width: 240, height: 80 };
    act(() => notify?.());
    expect(sizes).toEqual([
      { width: 121, height: 40 },
      { width: 240, height: 80 },
    ]);
    unmount();
    expect(disconnected).toBe(true);
  });
});
