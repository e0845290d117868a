import { expect, test } from '@playwright/test';

/**
 * Fails on purpose. The stage runner runs it alone (TEST_CANARY=1) through the Playwright
 * configuration and demands a non-zero exit: a run that reports success here would also hide
 * real failures.
 */
test('canary: fails on purpose', () => {
  expect(1, 'this failure is deliberate').toBe(2);
});
