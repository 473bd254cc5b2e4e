// `npm run dist` downloads Electron, so CI never runs it. This checks the declarative part
// instead: electron-builder.yml passes electron-builder's own schema validation and asks
// for the packages and the native-module handling Stepwise needs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';
// electron-builder's own loader and validator (app-builder-lib is its engine).
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  productName: string;
  main: string;
  scripts: Record<string, string>;
};

const targetsOf = (platform: { target?: unknown } | null | undefined): string[] =>
  ((platform?.target ?? []) as Array<string | { target: string }>).map((t) => (typeof t === 'string' ? t : t.target));

describe('electron-builder.yml', () => {
  it('is what `npm run dist` uses, after a build', () => {
    expect(pkg.scripts.dist).toMatch(/scripts\/build\.mjs && electron-builder --config electron-builder\.yml$/);
  });

  it('passes electron-builder’s schema and says what to build', async () => {
    const config: Configuration = await getConfig(root, path.join(root, 'electron-builder.yml'), null);
    await expect(validateConfiguration(config, { isEnabled: false, add() {} } as never)).resolves.toBeUndefined();

    expect(config.appId).toMatch(/^[a-z][\w-]*(\.[a-z][\w-]*)+$/);
    expect(config.productName).toBe('Stepwise');
    expect(config.productName).toBe(pkg.productName);
    expect(JSON.stringify(config.files)).toContain('"out/**"');
    expect(pkg.main.startsWith('out/')).toBe(true);
    expect(targetsOf(config.linux)).toEqual(['AppImage', 'deb']);
    expect(targetsOf(config.mac)).toEqual(['dmg']);
    expect(targetsOf(config.win)).toEqual(['nsis']);
  });

  it('keeps better-sqlite3’s native prebuilds out of the asar archive and does not rebuild them', async () => {
    const config: Configuration = await getConfig(root, path.join(root, 'electron-builder.yml'), null);
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/prebuilds/**');
    expect(config.npmRebuild).toBe(false);
    // The pattern matches where the binaries really are.
    const prebuilds = path.join(root, 'node_modules/better-sqlite3/prebuilds');
    expect(fs.readdirSync(prebuilds).filter((f) => f.endsWith('.node'))).toEqual(
      expect.arrayContaining(['linux-x64.node', 'darwin-arm64.node', 'win32-x64.node']),
    );
  });

  it('rejects a misspelt option, so the checks above mean something', async () => {
    await expect(validateConfiguration({ productName: 'Stepwise', asarUnpak: ['x'] } as never, { isEnabled: false, add() {} } as never)).rejects.toThrow(
      /asarUnpak/,
    );
  });
});
