import { describe, expect, it, vi } from 'vitest';
import { createMessage } from './create-message';
import { listenForMessages } from './listen';
import type { WidgetMessage } from './messages';
import { createOriginAllowlist, InvalidOriginError } from './origin';
import { parentOrigin, sendMessage } from './send';

const marketplace = 'https://plugins.example.com';

function setUp() {
  const receiver = new EventTarget();
  const frameWindow = new EventTarget() as unknown as MessageEventSource;
  const received: WidgetMessage[] = [];
  const stop = listenForMessages({
    receiver: receiver as unknown as Window,
    allowedOrigins: createOriginAllowlist([marketplace]),
    expectedSource: () => frameWindow,
    onMessage: (message) => received.push(message),
  });
  const deliver = (data: unknown, origin: string, source: MessageEventSource | null) =>
    receiver.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  return { frameWindow, received, stop, deliver };
}

describe('listening', () => {
  const mounted = createMessage('ai-button:mounted');

  it('delivers a valid message from the expected frame at an allowed origin', () => {
    const { frameWindow, received, deliver } = setUp();
    deliver(mounted, marketplace, frameWindow);
    expect(received).toEqual([mounted]);
  });

  it('drops messages from other origins', () => {
    const { frameWindow, received, deliver } = setUp();
    deliver(mounted, 'https://evil.test', frameWindow);
    deliver(mounted, 'null', frameWindow);
    expect(received).toEqual([]);
  });

  it('drops messages from another window, even at an allowed origin', () => {
    const { received, deliver } = setUp();
    deliver(mounted, marketplace, new EventTarget() as unknown as MessageEventSource);
    deliver(mounted, marketplace, null);
    expect(received).toEqual([]);
  });

  it('drops malformed data', () => {
    const { frameWindow, received, deliver } = setUp();
    deliver({ type: 'ai-button:mounted' }, marketplace, frameWindow);
    deliver('ai-button:mounted', marketplace, frameWindow);
    expect(received).toEqual([]);
  });

  it('stops when asked', () => {
    const { frameWindow, received, deliver, stop } = setUp();
    stop();
    deliver(mounted, marketplace, frameWindow);
    expect(received).toEqual([]);
  });
});

describe('sending', () => {
  it('posts to the exact origin given', () => {
    const postMessage = vi.fn();
    sendMessage({ postMessage }, createMessage('embed:size', { width: 10, height: 20 }), `${marketplace}/x`);
    expect(postMessage).toHaveBeenCalledWith(
      { namespace: 'plugin-marketplace', type: 'embed:size', width: 10, height: 20 },
      marketplace,
    );
  });

  it('refuses the wildcard and opaque origins', () => {
    const postMessage = vi.fn();
    const message = createMessage('ai-button:mounted');
    expect(() => sendMessage({ postMessage }, message, '*')).toThrow(InvalidOriginError);
    expect(() => sendMessage({ postMessage }, message, 'null')).toThrow(InvalidOriginError);
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('finds the framing page from ancestor origins first, then the referrer', () => {
    const ancestorOrigins = { length: 1, 0: 'https://blog.example.org' };
    expect(parentOrigin({ referrer: 'https://other.test/a', location: { ancestorOrigins } })).toBe(
      'https://blog.example.org',
    );
    expect(parentOrigin({ referrer: 'https://other.test/a?b', location: {} })).toBe('https://other.test');
    expect(parentOrigin({ referrer: '', location: { ancestorOrigins: { length: 0 } } })).toBeUndefined();
  });
});
