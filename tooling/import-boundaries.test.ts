import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** Lints `code` as if it were the file at `path` (relative to the repository root). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('package boundaries of DESIGN.md', () => {
  it('refuses any import in core', async () => {
    expect(
      await boundaryErrors(
        'packages/core/src/fixture.ts',
        "import { z } from '@marketplace/protocol';\nexport { z };\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('packages/core/src/fixture.ts', "import fs from 'node:fs';\nexport { fs };\n"),
    ).toHaveLength(1);
  });

  it('lets core import its own files', async () => {
    expect(
      await boundaryErrors('packages/core/src/fixture.ts', "import { a } from './a';\nexport { a };\n"),
    ).toEqual([]);
  });

  it('lets protocol import core but not the server', async () => {
    expect(
      await boundaryErrors(
        'packages/protocol/src/fixture.ts',
        "import { a } from '@marketplace/core';\nexport { a };\n",
      ),
    ).toEqual([]);
    const errors = await boundaryErrors(
      'packages/protocol/src/fixture.ts',
      "import { a } from '@marketplace/server';\nexport { a };\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('protocol may import only @marketplace/core');
  });

  it('keeps ui away from elements and site', async () => {
    expect(
      await boundaryErrors(
        'packages/ui/src/fixture.ts',
        "import { a } from '@marketplace/elements';\nexport { a };\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'packages/ui/src/fixture.ts',
        "import { a } from '@marketplace/site';\nexport { a };\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'packages/ui/src/fixture.ts',
        "import { a } from '@marketplace/ide-bridge';\nexport { a };\n",
      ),
    ).toEqual([]);
  });

  it('refuses reaching into another package by a relative path', async () => {
    const errors = await boundaryErrors(
      'packages/ide-bridge/src/fixture.ts',
      "import { a } from '../../server/src/app';\nexport { a };\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('keeps the site from importing the server', async () => {
    expect(
      await boundaryErrors(
        'site/src/fixture.ts',
        "import { a } from '@marketplace/server';\nexport { a };\n",
      ),
    ).toHaveLength(1);
  });
});
