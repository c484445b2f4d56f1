import { describe, expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import { planScreenChunks, screenChunkGroups } from './screen-chunks.mjs';

/** A first build's output as rolldown returns it: chunks with their modules and static imports. */
const chunk = (
  fileName: string,
  moduleIds: string[],
  imports: string[] = [],
  o: { isEntry?: boolean; facade?: string } = {},
) => ({
  type: 'chunk',
  fileName,
  moduleIds,
  imports,
  isEntry: o.isEntry ?? false,
  facadeModuleId: o.facade ?? null,
});

const output = [
  chunk('index.js', ['/w/src/main.tsx', '/w/node_modules/react-dom/index.js'], ['react.js'], {
    isEntry: true,
    facade: '/w/src/main.tsx',
  }),
  chunk('react.js', ['/w/node_modules/react/index.js']),
  chunk('LoginPage.js', ['/w/src/features/auth/LoginPage.tsx'], ['Button.js', 'react.js'], {
    facade: '/w/src/features/auth/LoginPage.tsx',
  }),
  chunk('Button.js', ['/w/node_modules/@primer/react/Button.js', '/w/node_modules/@primer/react/Button.css']),
  chunk('AppShell.js', ['/w/src/app/layout/AppShell.tsx'], ['Menu.js', 'Icon.js', 'Button.js'], {
    facade: '/w/src/app/layout/AppShell.tsx',
  }),
  chunk('Menu.js', ['/w/node_modules/@primer/react/ActionMenu.js'], ['Icon.js']),
  chunk('Icon.js', ['/w/node_modules/@primer/octicons-react/BellIcon.js']),
  chunk('Page.js', ['/w/src/features/Page.tsx'], ['Icon.js', 'Pager.js'], { facade: '/w/src/features/Page.tsx' }),
  chunk('Pager.js', ['/w/src/components/Pager.tsx']),
  { type: 'asset', fileName: 'index.css' },
];

describe('chunks by screen (web/scripts/screen-chunks.mjs)', () => {
  const plan = planScreenChunks(output, {
    login: 'src/features/auth/LoginPage.tsx',
    shell: 'src/app/layout/AppShell.tsx',
  });

  test("the sign-in page's chunks beyond the entry's, less its own module, are one group", () => {
    expect(plan.login).toEqual(['/w/node_modules/@primer/react/Button.js', '/w/node_modules/@primer/react/Button.css']);
  });

  test("the shell's are another, without the entry's, the sign-in page's or its own module; a page's own chunks stay the automatic splitting's", () => {
    expect([...plan.shell].sort()).toEqual([
      '/w/node_modules/@primer/octicons-react/BellIcon.js',
      '/w/node_modules/@primer/react/ActionMenu.js',
    ]);
    expect([...plan.login, ...plan.shell]).not.toContain('/w/src/components/Pager.tsx');
  });

  test('the groups take exactly the planned modules, the sign-in group first', () => {
    const [login, shell] = screenChunkGroups(plan).groups;
    expect(login.priority).toBeGreaterThan(shell.priority);
    expect(login.test('/w/node_modules/@primer/react/Button.js')).toBe(true);
    expect(shell.test('/w/node_modules/@primer/react/Button.js')).toBe(false);
    expect(shell.test('/w/src/app/layout/AppShell.tsx')).toBe(false);
    expect(screenChunkGroups(undefined)).toBeUndefined();
  });

  test('a screen missing from the build is said, not planned around', () => {
    expect(() =>
      planScreenChunks(output, { login: 'src/features/auth/Gone.tsx', shell: 'src/app/layout/AppShell.tsx' }),
    ).toThrow(/src\/features\/auth\/Gone.tsx/);
  });
});
