import { XMLParser } from 'fast-xml-parser';
import { TextDecoder } from 'node:util';

/**
 * The parts of plugin.xml that decide whether the IDE can install, update and remove the plugin without a
 * restart (dynamic plugins). The upload pipeline's reader (src/archive/descriptor.ts) reads the fields the
 * catalogue keeps and refuses document type declarations; this reads the remaining elements only after
 * that reader accepted the descriptor, with the same parser settings (entities off, attributes kept).
 */
export interface DescriptorElements {
  /** `application-components`, `project-components`, `module-components` that hold components. */
  components: string[];
  /** Extension points declared without `dynamic="true"`, by name. */
  nonDynamicExtensionPoints: string[];
  requireRestart: boolean;
}

const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Descriptions and notes are HTML: never parsed as elements.
  stopNodes: ['idea-plugin.description', 'idea-plugin.change-notes'],
});

const COMPONENT_ELEMENTS = ['application-components', 'project-components', 'module-components'];

/** Reads the elements of plugin.xml or of a config file it includes; undefined when it cannot be read. */
export function readDescriptorElements(bytes: Uint8Array): DescriptorElements | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) return undefined;
  let document: unknown;
  try {
    document = parser.parse(text);
  } catch {
    return undefined;
  }
  const root = isRecord(document) ? document['idea-plugin'] : undefined;
  if (!isRecord(root)) return root === undefined ? undefined : empty();
  const components = COMPONENT_ELEMENTS.filter((element) =>
    asList(root[element]).some((block) => isRecord(block) && asList(block['component']).length > 0),
  );
  const nonDynamicExtensionPoints: string[] = [];
  for (const block of asList(root['extensionPoints'])) {
    if (!isRecord(block)) continue;
    for (const point of asList(block['extensionPoint'])) {
      if (!isRecord(point)) continue;
      if (
        String(point['@_dynamic'] ?? '')
          .trim()
          .toLowerCase() === 'true'
      )
        continue;
      const name = String(point['@_qualifiedName'] ?? point['@_name'] ?? '').trim();
      nonDynamicExtensionPoints.push(name === '' ? '(unnamed)' : name);
    }
  }
  const requireRestart =
    String(root['@_require-restart'] ?? '')
      .trim()
      .toLowerCase() === 'true';
  return { components, nonDynamicExtensionPoints, requireRestart };
}

function empty(): DescriptorElements {
  return { components: [], nonDynamicExtensionPoints: [], requireRestart: false };
}

function asList(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
