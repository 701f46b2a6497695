import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // 30 s on a quiet machine, stretched by the load when each file starts (tests/helpers/timeScale.ts)
  setupFilesAfterEnv: ['<rootDir>/tests/helpers/jestSetup.ts'],
  maxWorkers: 2,
  // one temporary folder per run, removed at its end (tests/helpers/tempDir.ts)
  globalSetup: '<rootDir>/tests/helpers/globalSetup.ts',
  globalTeardown: '<rootDir>/tests/helpers/globalTeardown.ts',
};

export default config;
