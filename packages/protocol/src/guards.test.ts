import { describe, expect, it } from 'vitest';
import { createMessage } from './create-message';
import { isRunningIde, isWidgetMessage, isWidgetMessageOfType } from './guards';
import { MESSAGE_NAMESPACE } from './namespace';

const ide = { name: 'IntelliJ IDEA 2025.2', buildNumber: 'IU-252.23892.409', port: 63342 };

describe('message guards', () => {
  it('accept every message the builders make', () => {
    const messages = [
      createMessage('ai-button:mounted'),
      createMessage('ai-button:size', { width: 120, height: 40 }),
      createMessage('ai-button:running-ides', { ides: [ide] }),
      createMessage('ai-button:running-ides', { ides: [] }),
      createMessage('ai-button:install-success', { ide }),
      createMessage('ai-button:install-error', { ide, message: 'Installation failed' }),
      createMessage('ai-button:plugins-site-link-click', { url: 'https://plugins.example.com/plugin/1' }),
      createMessage('embed:size', { width: 382, height: 300 }),
      createMessage('embed:error', {
        pluginId: '999999',
        status: 404,
        message: 'Plugin 999999 does not exist.',
      }),
      createMessage('embed:error', { pluginId: '7', status: 0, message: 'Could not reach the marketplace.' }),
    ];
    for (const message of messages) expect(isWidgetMessage(message), message.type).toBe(true);
  });

  it('put the namespace and literal type on every message', () => {
    expect(createMessage('ai-button:size', { width: 1, height: 2 })).toEqual({
      namespace: MESSAGE_NAMESPACE,
      type: 'ai-button:size',
      width: 1,
      height: 2,
    });
  });

  it.each([
    ['null', null],
    ['a string', 'ai-button:mounted'],
    ['an array', [MESSAGE_NAMESPACE, 'ai-button:mounted']],
    ['another namespace', { namespace: 'penpal', type: 'ai-button:mounted' }],
    ['no namespace', { type: 'ai-button:mounted' }],
    ['an unknown type', { namespace: MESSAGE_NAMESPACE, type: 'ai-button:explode' }],
    ['a negative size', { namespace: MESSAGE_NAMESPACE, type: 'ai-button:size', width: -1, height: 2 }],
    ['an infinite size', { namespace: MESSAGE_NAMESPACE, type: 'embed:size', width: Infinity, height: 2 }],
    ['a size as text', { namespace: MESSAGE_NAMESPACE, type: 'embed:size', width: '10', height: 2 }],
    ['IDEs not a list', { namespace: MESSAGE_NAMESPACE, type: 'ai-button:running-ides', ides: ide }],
    [
      'an IDE with a bad port',
      { namespace: MESSAGE_NAMESPACE, type: 'ai-button:running-ides', ides: [{ ...ide, port: 70000 }] },
    ],
    ['an install error without text', { namespace: MESSAGE_NAMESPACE, type: 'ai-button:install-error', ide }],
    [
      'a script link',
      { namespace: MESSAGE_NAMESPACE, type: 'ai-button:plugins-site-link-click', url: 'javascript:alert(1)' },
    ],
    ['item data without item', { namespace: MESSAGE_NAMESPACE, type: 'embed:item-data' }],
    [
      'an error without status',
      { namespace: MESSAGE_NAMESPACE, type: 'embed:error', pluginId: '7', message: 'x' },
    ],
    [
      'an error with a status as text',
      { namespace: MESSAGE_NAMESPACE, type: 'embed:error', pluginId: '7', status: '500', message: 'x' },
    ],
    [
      'an error without text',
      { namespace: MESSAGE_NAMESPACE, type: 'embed:error', pluginId: '7', status: 404 },
    ],
  ])('reject %s', (_label, value) => {
    expect(isWidgetMessage(value)).toBe(false);
  });

  it('narrow to one type', () => {
    const size = createMessage('embed:size', { width: 1, height: 1 });
    expect(isWidgetMessageOfType(size, 'embed:size')).toBe(true);
    expect(isWidgetMessageOfType(size, 'ai-button:size')).toBe(false);
  });

  it('check running IDE entries field by field', () => {
    expect(isRunningIde(ide)).toBe(true);
    expect(isRunningIde({ ...ide, name: '' })).toBe(false);
    expect(isRunningIde({ ...ide, buildNumber: 252 })).toBe(false);
    expect(isRunningIde({ ...ide, port: 63342.5 })).toBe(false);
  });
});
