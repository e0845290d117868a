import { idParams } from '../../contract/common';
import {
  createProfileRequest,
  createProfileResponse,
  retrieveProfileResponse,
} from '../../contract/profiles';
import { createProfile, getProfile } from '../../profiles/service';
import { defineOperation } from '../operation';
import type { Api } from '../openapi';

export function profileRoutes(api: Api): void {
  defineOperation(api, {
    auth: 'developer',
    method: 'post',
    path: '/profiles/create',
    operationId: 'createProfile',
    summary: 'Create a profile (an end user of the calling developer)',
    tags: ['Profiles'],
    body: createProfileRequest,
    bodyOptional: true,
    invalidCode: 'INVALID_REQUEST',
    successFlag: true,
    success: { status: 201, schema: createProfileResponse, description: 'The new profile' },
    failures: [],
  }).handle(async ({ db, caller }) => {
    const profile = await createProfile(db, caller);
    return { success: true, profile, id: profile.id, code: 'PROFILE_CREATED' };
  });

  defineOperation(api, {
    auth: 'developer',
    method: 'get',
    path: '/profiles/{id}',
    operationId: 'getProfile',
    summary: 'Retrieve a profile with its style and attached shipping address',
    tags: ['Profiles'],
    params: idParams,
    invalidCode: 'INVALID_REQUEST',
    successFlag: true,
    success: { status: 200, schema: retrieveProfileResponse, description: 'The profile' },
    failures: [
      {
        status: 404,
        codes: ['PROFILE_NOT_FOUND'],
        description: 'No such profile for this developer',
      },
    ],
  }).handle(async ({ db, caller, params }) => ({
    success: true,
    profile: await getProfile(db, caller, params.id),
    code: 'PROFILE_RETRIEVED',
  }));
}
