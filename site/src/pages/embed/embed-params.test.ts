import { describe, expect, it } from 'vitest';
import { aiEmbedOptions, embedPluginId, isEmbedType } from './embed-params';

describe('embed page parameters (spec §2)', () => {
  it('default the AI button to size m, "Try for free" and multiline', () => {
    expect(aiEmbedOptions(new URLSearchParams())).toEqual({
      buttonSize: 'm',
      buttonText: 'Try for free',
      allowMultiline: true,
    });
    expect(
      aiEmbedOptions(new URLSearchParams('buttonSize=s&buttonText=Get+it&allowMultiline=false')),
    ).toEqual({
      buttonSize: 's',
      buttonText: 'Get it',
      allowMultiline: false,
    });
    expect(aiEmbedOptions(new URLSearchParams('buttonSize=huge&buttonText=%20')).buttonSize).toBe('m');
  });

  it('know the five types and read only numeric plugin ids', () => {
    expect(['ai', 'install', 'card', 'open-course', 'course-lti'].every(isEmbedType)).toBe(true);
    expect(isEmbedType('script')).toBe(false);
    expect(embedPluginId('42')).toBe(42);
    expect(embedPluginId('42-name')).toBe(42);
    expect(embedPluginId('0')).toBeUndefined();
    expect(embedPluginId('abc')).toBeUndefined();
  });
});
