// @no-test-database
import { describe, expect, it } from 'vitest';
import { buildApi } from '../http/app';
import { checkDocumented } from './documented';

const { operations } = buildApi();
const profile = {
  id: 'prof_1',
  dev_id: 'dev_1',
  created_at: '2026-11-22T10:00:00.000Z',
  styles: [],
  shipping: null,
};
const get = { method: 'GET', path: '/profiles/prof_1' };

describe('checkDocumented', () => {
  it('accepts an answer its operation documents', () => {
    const body = { success: true, profile, code: 'PROFILE_RETRIEVED' };
    expect(() => checkDocumented(operations, get, { status: 200, body })).not.toThrow();
    const missing = { success: false, code: 'PROFILE_NOT_FOUND', error: 'No profile prof_1' };
    expect(() => checkDocumented(operations, get, { status: 404, body: missing })).not.toThrow();
  });

  it('catches a renamed field, an undocumented status or code, and a failure without error', () => {
    const renamed = { success: true, profle: profile, code: 'PROFILE_RETRIEVED' };
    expect(() => checkDocumented(operations, get, { status: 200, body: renamed })).toThrow(
      /profile/,
    );
    const teapot = { code: 'PROFILE_NOT_FOUND', error: 'x' };
    expect(() => checkDocumented(operations, get, { status: 418, body: teapot })).toThrow(
      /does not document/,
    );
    const otherCode = { success: false, code: 'STYLE_NOT_FOUND', error: 'x' };
    expect(() => checkDocumented(operations, get, { status: 404, body: otherCode })).toThrow(
      /does not document/,
    );
    const noError = { success: false, code: 'PROFILE_NOT_FOUND' };
    expect(() => checkDocumented(operations, get, { status: 404, body: noError })).toThrow(/error/);
  });

  it('requires the failure shape of an answer no operation gives', () => {
    const route = { method: 'GET', path: '/nowhere' };
    expect(() => checkDocumented(operations, route, { status: 404, body: 'Not Found' })).toThrow();
  });
});
