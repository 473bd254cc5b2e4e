// `npm run dist` downloads Electron, so CI never runs it. This checks the declarative part
// instead: electron-builder.yml passes electron-builder's own schema validation and asks
// for the packages and the native-module handling Stepwise needs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';
import type { MenuItemConstructorOptions } from 'electron';
import { menuTemplate } from '../../src/main/electron/menuTemplate';
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
    // Loading electron-builder's schema takes seconds on a busy machine.
  }, 30_000);

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
    await expect(
      validateConfiguration(
        { productName: 'Stepwise', asarUnpak: ['x'] } as never,
        { isEnabled: false, add() {} } as never,
      ),
    ).rejects.toThrow(/asarUnpak/);
  });
});

describe('Electron hardening that ships with the package', () => {
  it('flips the fuses: no RunAsNode, NODE_OPTIONS or --inspect; only the integrity-checked app.asar; encrypted cookies', async () => {
    const config: Configuration = await getConfig(root, path.join(root, 'electron-builder.yml'), null);
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
    });
    // An asar archive is what OnlyLoadAppFromAsar and the integrity check protect.
    expect(config.asar).not.toBe(false);
  });

  it('has no DevTools item in the packaged app’s menu (and one while developing)', () => {
    const roles = (packaged: boolean) => {
      const found: string[] = [];
      const walk = (items: MenuItemConstructorOptions[]) => {
        for (const item of items) {
          if (item.role) found.push(item.role);
          if (Array.isArray(item.submenu)) walk(item.submenu);
        }
      };
      walk(menuTemplate({ platform: 'linux', packaged, send: () => {}, showAbout: () => {} }));
      return found;
    };
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(true)).toContain('reload');
    expect(roles(false)).toContain('toggleDevTools');
  });

  it('gives the desktop page a CSP without WebSockets (the browser host sends its own)', () => {
    const html = fs.readFileSync(path.join(root, 'src/renderer/index.html'), 'utf8');
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    const connect = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('connect-src'));
    expect(connect).toBe("connect-src 'self'");
    expect(csp).not.toMatch(/\bws:/);
    expect(csp).toContain("object-src 'none'");
  });
});
