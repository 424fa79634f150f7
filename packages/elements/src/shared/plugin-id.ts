/**
 * The numeric plugin id of a `plugin-id` attribute, or undefined (after saying why in the console) when the
 * attribute is missing or not a positive whole number: a typo in a host page should be easy to find.
 */
export function parsePluginId(value: string | undefined, elementName: string): number | undefined {
  const text = value?.trim() ?? '';
  const id = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(id)) return id;
  console.warn(
    text === ''
      ? `<${elementName}> needs a plugin-id attribute: the number from the plugin's marketplace page.`
      : `<${elementName}>: plugin-id "${text}" is not a plugin id; use the number from the plugin's marketplace page.`,
  );
  return undefined;
}
