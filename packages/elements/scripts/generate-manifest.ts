/**
 * Writes dist/custom-elements.json (the Custom Elements Manifest, schema 2.x) from the JSDoc of the element
 * classes: `@tag`, `@attr {type} name - text`, `@event name - text`, `@csspart name - text` and
 * `@cssproperty name - text` on the exported element constant in `src/<tag>/<tag>.tsx`.
 * Editors and Storybook read it to offer the elements' attributes and events.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

interface Described {
  name: string;
  description: string;
  type?: { text: string };
}

export interface ElementDeclaration {
  kind: 'class';
  customElement: true;
  name: string;
  tagName: string;
  description: string;
  attributes: Described[];
  events: Described[];
  cssParts: Described[];
  cssProperties: Described[];
}

interface Manifest {
  schemaVersion: string;
  readme: string;
  modules: {
    kind: 'javascript-module';
    path: string;
    declarations: ElementDeclaration[];
    exports: unknown[];
  }[];
}

function commentText(comment: string | ts.NodeArray<ts.JSDocComment> | undefined): string {
  if (comment === undefined) return '';
  return (typeof comment === 'string' ? comment : comment.map((part) => part.text).join('')).trim();
}

/** `{type} name - description` or `name - description` from a tag's text. */
function parseTagText(text: string): Described {
  const match = /^(?:\{([^}]+)\}\s*)?(\S+)\s*(?:-\s*)?([\s\S]*)$/.exec(text.trim());
  if (!match?.[2])
    throw new Error(`Cannot read the JSDoc tag text "${text}"; write "{type} name - description".`);
  const described: Described = { name: match[2], description: match[3]?.trim() ?? '' };
  if (match[1]) described.type = { text: match[1] };
  return described;
}

/** The element declarations documented in one source file. */
export function declarationsOf(fileName: string, source: string): ElementDeclaration[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const declarations: ElementDeclaration[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const isExported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (!isExported) continue;
    for (const doc of ts.getJSDocCommentsAndTags(statement).filter(ts.isJSDoc)) {
      const tags = doc.tags ?? [];
      const tagName = tags.find((tag) => tag.tagName.text === 'tag');
      if (!tagName) continue;
      const declaration = statement.declarationList.declarations[0];
      if (!declaration || !ts.isIdentifier(declaration.name)) continue;
      const texts = (kind: string) =>
        tags.filter((tag) => tag.tagName.text === kind).map((tag) => parseTagText(commentText(tag.comment)));
      declarations.push({
        kind: 'class',
        customElement: true,
        name: declaration.name.text,
        tagName: commentText(tagName.comment),
        description: commentText(doc.comment).replace(/\s*\n\s*/g, ' '),
        attributes: texts('attr'),
        events: texts('event'),
        cssParts: texts('csspart'),
        cssProperties: texts('cssproperty'),
      });
    }
  }
  return declarations;
}

/** The manifest of every element folder under src/. */
export function buildManifest(sourceDir = join(packageDir, 'src')): Manifest {
  const modules: Manifest['modules'] = [];
  const folders = readdirSync(sourceDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('mp-'))
    .map((entry) => entry.name)
    .sort();
  for (const folder of folders) {
    const path = join(sourceDir, folder, `${folder}.tsx`);
    const declarations = declarationsOf(path, readFileSync(path, 'utf8'));
    const modulePath = relative(packageDir, path).split('\\').join('/');
    if (!declarations.some((declaration) => declaration.tagName === folder)) {
      throw new Error(`${modulePath} has no exported element documented with "@tag ${folder}".`);
    }
    modules.push({
      kind: 'javascript-module',
      path: modulePath,
      declarations,
      exports: declarations.flatMap((declaration) => [
        { kind: 'js', name: declaration.name, declaration: { name: declaration.name, module: modulePath } },
        {
          kind: 'custom-element-definition',
          name: declaration.tagName,
          declaration: { name: declaration.name, module: modulePath },
        },
      ]),
    });
  }
  return { schemaVersion: '2.1.0', readme: 'README.md', modules };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const target = join(packageDir, 'dist', 'custom-elements.json');
  mkdirSync(join(packageDir, 'dist'), { recursive: true });
  writeFileSync(target, `${JSON.stringify(buildManifest(), null, 2)}\n`);
  console.log(`Wrote ${relative(process.cwd(), target)}`);
}
