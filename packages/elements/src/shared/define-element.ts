import { SDK_VERSION } from './version';

/** Shared between every copy of the SDK on a page (Symbol.for), so copies can recognise each other. */
const VERSION_KEY = Symbol.for('plugin-marketplace.sdk-version');

type VersionedConstructor = CustomElementConstructor & { [VERSION_KEY]?: string };

/** What happened to a registration request. */
export type DefineOutcome = 'defined' | 'already-defined' | 'defined-by-other-version';

/**
 * Registers a custom element unless the name is taken. Loading the script twice (a CMS that repeats the
 * tag, a host that also uses the ESM build) must not throw, so a second registration by the same version
 * is skipped silently; one by another version (or by someone else's element of the same name) is kept and
 * reported, because the page then runs a copy of the SDK it may not expect.
 */
export function defineElement(
  name: string,
  constructor: CustomElementConstructor,
  registry: CustomElementRegistry = customElements,
): DefineOutcome {
  const existing = registry.get(name) as VersionedConstructor | undefined;
  if (!existing) {
    (constructor as VersionedConstructor)[VERSION_KEY] = SDK_VERSION;
    registry.define(name, constructor);
    return 'defined';
  }
  const existingVersion = existing[VERSION_KEY];
  if (existingVersion === SDK_VERSION) return 'already-defined';
  console.warn(
    `Plugin Marketplace widget ${SDK_VERSION}: <${name}> is already registered by ` +
      `${existingVersion ? `version ${existingVersion}` : 'another script'}; the existing element is kept.`,
  );
  return 'defined-by-other-version';
}
