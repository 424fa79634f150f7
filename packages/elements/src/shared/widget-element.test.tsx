import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WidgetViewProps } from './widget-element';
import { createWidgetElement } from './widget-element';

interface ProbeAttributes {
  pluginId?: string;
  allowMultiline?: boolean;
}

/** Shows the props it got, so a test reads what the element passed. */
function ProbeView({ pluginId, allowMultiline }: ProbeAttributes & WidgetViewProps) {
  return <output>{JSON.stringify({ pluginId, allowMultiline })}</output>;
}

const MpProbe = createWidgetElement<ProbeAttributes>(ProbeView, {
  uiStyles: [],
  attributes: { pluginId: 'string', allowMultiline: 'boolean' },
});
customElements.define('mp-probe', MpProbe);

type Probe = HTMLElement & ProbeAttributes;

async function shown(element: HTMLElement): Promise<unknown> {
  let text = '';
  await vi.waitFor(() => {
    text = element.shadowRoot?.querySelector('output')?.textContent ?? '';
    expect(text).not.toBe('');
  });
  return JSON.parse(text);
}

describe('createWidgetElement', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('passes kebab-case attributes as camelCase props, booleans read by r2wc', async () => {
    const probe = document.createElement('mp-probe') as Probe;
    probe.setAttribute('plugin-id', '7');
    probe.setAttribute('allow-multiline', 'false');
    document.body.append(probe);
    expect(await shown(probe)).toEqual({ pluginId: '7', allowMultiline: false });
    probe.setAttribute('allow-multiline', 'yes');
    await vi.waitFor(async () => expect(await shown(probe)).toEqual({ pluginId: '7', allowMultiline: true }));
    // An empty or removed attribute is an unset prop: the view's default applies.
    probe.setAttribute('allow-multiline', '');
    await vi.waitFor(async () => expect(await shown(probe)).toEqual({ pluginId: '7' }));
  });

  it('takes props as properties too, written through to the attributes', async () => {
    const probe = document.createElement('mp-probe') as Probe;
    document.body.append(probe);
    probe.pluginId = '8';
    probe.allowMultiline = true;
    expect(probe.getAttribute('plugin-id')).toBe('8');
    expect(probe.getAttribute('allow-multiline')).toBe('true');
    await vi.waitFor(async () => expect(await shown(probe)).toEqual({ pluginId: '8', allowMultiline: true }));
    expect(probe.pluginId).toBe('8');
    probe.pluginId = undefined;
    expect(probe.hasAttribute('plugin-id')).toBe(false);
    await vi.waitFor(async () => expect(await shown(probe)).toEqual({ allowMultiline: true }));
    // A boolean set to undefined is unset too (the view's default), not "false".
    probe.allowMultiline = undefined;
    expect(probe.hasAttribute('allow-multiline')).toBe(false);
    await vi.waitFor(async () => expect(await shown(probe)).toEqual({}));
  });

  it('draws nothing until it is in the document', async () => {
    const probe = document.createElement('mp-probe') as Probe;
    probe.setAttribute('plugin-id', '10');
    probe.pluginId = '11';
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(probe.shadowRoot?.childNodes.length).toBe(0);
    document.body.append(probe);
    expect(await shown(probe)).toEqual({ pluginId: '11' });
  });

  it('unmounts its view when removed from the page and renders again when put back', async () => {
    const probe = document.createElement('mp-probe') as Probe;
    probe.setAttribute('plugin-id', '9');
    document.body.append(probe);
    await shown(probe);
    probe.remove();
    await vi.waitFor(() => expect(probe.shadowRoot?.querySelector('output')).toBeNull());
    document.body.append(probe);
    expect(await shown(probe)).toEqual({ pluginId: '9' });
  });
});
